"""Schema 6: the index's postings from one row per (term, memory) to blocks per term id, and
each memory's term bags from JSON to a term list (indexer.py says why; migrations.py and
pg_schema.py run this inside their one upgrade transaction).

Nothing is cut again: the old rows' JSON bags hold every posting exactly, so they are
read in doc order, a chunk at a time, and written through the same code a write uses
(index_terms.apply). A kill -9 meanwhile rolls the whole transaction back.
"""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np

from memdesk.core.search.index.meta import repack
from memdesk.core.search.index.postings_codec import encode_terms
from memdesk.core.search.index.stats import set_stat
from memdesk.core.search.index.terms import PINYIN, TermIds, apply
from memdesk.core.search.index.vocab import READINGS_STAT, compact_json
from memdesk.core.search.language.pinyin import SHARED_PINYIN, data_version

CHUNK = 5000  # memories converted per step (what is held in memory at once)

# The new tables, as SQLite's schema 6 has them (index_models.py has them for PostgreSQL).
SQLITE_TABLES = [
    'CREATE TABLE "search_term" ("id" INTEGER NOT NULL PRIMARY KEY, "field" INTEGER NOT NULL, '
    '"term" TEXT NOT NULL, "df" INTEGER NOT NULL)',
    'CREATE UNIQUE INDEX "search_term_field_term" ON "search_term" ("field", "term")',
    'CREATE TABLE "search_post" ("term" INTEGER NOT NULL, "first_doc" INTEGER NOT NULL, "data" BLOB NOT NULL, '
    'PRIMARY KEY ("term", "first_doc")) WITHOUT ROWID',
    'CREATE TABLE "search_doc6" ("doc" INTEGER NOT NULL PRIMARY KEY, "memory_id" TEXT NOT NULL UNIQUE, '
    '"terms" BLOB, "vocab" TEXT NOT NULL, "ehash" TEXT, "key" BLOB)',
]
OLD_TABLES = ("search_word", "search_gram", "search_pinyin", "search_segment", "search_dirty", "search_tag")


def convert(conn, target: str = "search_doc6", *, progress=lambda done: None) -> int:
    """Fill search_term, search_post and ``target`` (the new search_doc) from the old
    search_doc; returns how many memories' bags were converted."""
    ids = TermIds(conn)
    done, last = 0, -1
    while True:
        rows = conn.execute(
            "SELECT doc, memory_id, words, grams, pinyin, vocab, tags, ehash, key FROM search_doc "
            "WHERE doc > ? ORDER BY doc LIMIT ?",
            (last, CHUNK),
        ).fetchall()
        if not rows:
            break
        last = rows[-1][0]
        _chunk(conn, ids, rows, target)
        done += sum(1 for r in rows if r[2] is not None)
        progress(done)
    ids.finish()
    set_stat(conn, READINGS_STAT, data_version())
    _repack_meta(conn)
    return done


def _repack_meta(conn) -> None:
    """search_meta's rows in their new, narrower layout (index_meta.repack)."""
    last = -1
    while True:
        rows = conn.execute(
            "SELECT doc, meta FROM search_meta WHERE doc > ? ORDER BY doc LIMIT ?", (last, CHUNK)
        ).fetchall()
        if not rows:
            return
        last = rows[-1][0]
        conn.executemany("UPDATE search_meta SET meta = ? WHERE doc = ?", [(repack(bytes(m)), d) for d, m in rows])


def _chunk(conn, ids: TermIds, rows: list, target: str) -> None:
    bags = {}
    for r in rows:
        if r[2] is not None:  # readings worked out again from the words, as writes will (index_writer)
            words = json.loads(r[2])
            tags = dict.fromkeys(json.loads(r[6]), 1)
            bags[r[0]] = (words, json.loads(r[3]), SHARED_PINYIN.document_terms(words), tags)
    for field in range(4):
        ids.resolve(field, (t for b in bags.values() for t in b[field]))
    term_ids: list[int] = []
    docs: list[int] = []
    tfs: list[float] = []
    df: defaultdict[int, int] = defaultdict(int)
    lists = {}
    for doc, three in bags.items():
        parts = []
        for field, bag in enumerate(three):
            field_ids = ids.ids(field, bag)
            parts.append(([], []) if field == PINYIN else (field_ids, list(bag.values())))
            term_ids += field_ids
            docs += [doc] * len(field_ids)
            tfs += bag.values()
            for term in field_ids:
                df[term] += 1
        lists[doc] = encode_terms(parts)
    apply(conn, ids, np.array(term_ids, np.int64), np.array(docs, np.int64), np.array(tfs, np.float64), df)
    conn.executemany(
        f'INSERT INTO "{target}" (doc, memory_id, terms, vocab, ehash, key) VALUES (?, ?, ?, ?, ?, ?)',
        [(r[0], r[1], lists.get(r[0]), _compact(r[5]), r[7], _key(r[8])) for r in rows],
    )


def _compact(text: str) -> str:
    return compact_json(json.loads(text))


def _key(old: str | None) -> bytes | None:
    """The cut key, hex before schema 6, its bytes now."""
    return None if old is None else bytes.fromhex(old)


def upgrade_sqlite(conn) -> None:
    """The whole step on SQLite, inside the migration's transaction."""
    for statement in SQLITE_TABLES:
        conn.execute(statement)
    convert_and_swap(conn)


def convert_and_swap(conn) -> None:
    """Fill the new tables (created by the backend's step), then put search_doc6 in
    search_doc's place and drop the schema-5 tables: the same on both backends."""
    convert(conn)
    conn.execute('DROP TABLE "search_doc"')
    conn.execute('ALTER TABLE "search_doc6" RENAME TO "search_doc"')
    conn.execute('CREATE INDEX "search_doc_uncut" ON "search_doc" ("doc") WHERE "terms" IS NULL')
    for table in OLD_TABLES:
        conn.execute(f'DROP TABLE "{table}"')
