"""The search index kept in the store, written inside every write transaction.

Why this shape (figures: bench/cold_start.py, 2-core machine, 100k memories).
Before, each process (window, `memdesk search`, each MCP server) cut every
memory with jieba and built its postings in RAM at start: 31 s and 827 MB
for one CLI query. Three designs were weighed:

(a) SQLite FTS5 over pre-cut terms as a candidate generator. Compact, but
    FTS5 does not hand back the weighted per-field term counts and document
    lengths our BM25 needs (its bm25() is another formula, and fts5vocab's
    instance rows cost as much to read as plain postings), so scoring would
    need a second store of the same numbers; and it exists only on SQLite.
(b) Segments off the Python heap (tantivy, or our own memory-mapped arrays)
    caught up from the change feed. Fast reads, but a second file beside the
    database that every process must keep in step, merge and repair after a
    crash, and a native dependency in the installer; on PostgreSQL a shared
    server would have to hold it.
(c) (chosen) Plain tables in the store: search_word, search_gram and
    search_pinyin (term, doc) -> weighted count, WITHOUT ROWID so a term's postings are one
    B-tree range; per memory its term bags and vocabulary (search_doc), its
    normalised text (search_text: substring fallback, re-cuts) and its
    numeric columns packed in ~100 bytes (search_meta: filters and ranking
    load every memory's in one narrow scan). Written in the same transaction
    as the memory, by whichever process writes, so it can never disagree
    with the store. A fresh process reads the packed columns and the
    postings of its query's terms only; scores are exactly those of the
    in-memory index (the same BM25Field code over the same numbers), so the
    retrieval figures do not move. The SQL is plain tables and indexes; on
    PostgreSQL the same tables work with ON CONFLICT for INSERT OR REPLACE,
    position() for instr() and a plain primary key for WITHOUT ROWID.

Measured at 100k (bench/cold_start.py, 2026-12-01): a fresh `memdesk search`
in 0.57 s against 0.75 s for the FTS5 anchor, 157 MB; the first MCP search
0.53 s; the window at full quality 1.5 s, 310 MB. The index takes ~23x the
text on disk (264 MB for 11 MB of text, pinyin readings included; postings
are not compressed, FTS5's would be ~3x), the price of exact scores without
a second copy of the numbers. Common terms' postings are compacted into
blobs (index_segments.py) for stores of 30k memories and more.

The user's vocabulary (tags, group and persona names, short titles) keeps
those words whole in jieba. It is stored with reference counts; a text is
cut with the vocabulary terms it contains (Tokenizer overlay), so a cut
depends only on the text and its store. When a term appears in or vanishes
from the vocabulary, the memories containing it are cut again here.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import struct
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime, timezone

import numpy as np

from ..embedding import embed_text, text_hash
from ..records import SCOPES, TIERS, TYPES
from .index_cut import Terms, cut_many, cut_one
from .index_segments import compact, mark_dirty, worth_compacting
from .index_vocab import (
    BULK,
    Vocabulary,
    add_refs,
    bump,
    containing,
    last_doc,
    persona_vocabulary,
    set_last_doc,
    stub_all,
    vocabulary_of,
)
from .indexed import IndexedMemory
from .keyword import searchable_text
from .tokenize import Tokenizer, normalise

META = np.dtype(
    [
        ("doc", "<i8"),
        ("persona", "<i4"),
        ("group", "<i4"),
        ("type", "<i4"),
        ("scope", "<i4"),
        ("tier", "<i4"),
        ("importance", "<f8"),
        ("created", "<f8"),
        ("updated", "<f8"),
        ("expires", "<f8"),
        ("access", "<f8"),
        ("mention", "<f8"),
        ("deleted", "?"),
        ("superseded", "?"),
        ("wlen", "<f8"),
        ("glen", "<f8"),
        ("plen", "<f8"),
    ]
)
GLOBAL_CODE = -1
BATCH = 500  # memories cut per build transaction
COMPACT_AFTER = 2000  # memories cut in one write before it compacts the postings (index_segments)


def _timestamp(value: datetime | None) -> float:
    return value.timestamp() if value is not None else np.inf


class _Codes:
    """Small integer codes for persona ids and group names (filters compare ints)."""

    def __init__(self, conn):
        self.conn = conn
        self.codes = {(k, n): c for k, n, c in conn.execute("SELECT kind, name, code FROM search_code")}

    def code(self, kind: str, name: str) -> int:
        code = self.codes.get((kind, name))
        if code is None:
            code = 1 + max((c for (k, _), c in self.codes.items() if k == kind), default=-1)
            self.conn.execute("INSERT INTO search_code (kind, name, code) VALUES (?, ?, ?)", (kind, name, code))
            self.codes[(kind, name)] = code
        return code


_PACK = struct.Struct("<qiiiiidddddd??ddd")
assert _PACK.size == META.itemsize


def pack_meta(doc: int, record: IndexedMemory, codes: _Codes, wlen: float, glen: float, plen: float) -> bytes:
    return _PACK.pack(
        doc,
        GLOBAL_CODE if record.persona_id is None else codes.code("p", record.persona_id),
        codes.code("g", normalise(record.group)),
        TYPES.index(record.type) if record.type in TYPES else -1,
        SCOPES.index(record.scope) if record.scope in SCOPES else -1,
        TIERS.index(record.tier) if record.tier in TIERS else -1,
        record.importance,
        record.created_at.timestamp(),
        record.updated_at.timestamp(),
        _timestamp(record.expires_at),
        record.access_count,
        record.mention_count,
        record.deleted_at is not None,
        record.superseded_by is not None,
        wlen,
        glen,
        plen,
    )


_COLUMNS = (
    "id",
    "persona_id",
    "group_name",
    "title",
    "content",
    "summary",
    "tags",
    "type",
    "scope",
    "importance",
    "created_at",
    "updated_at",
    "expires_at",
    "access_count",
    "mention_count",
    "deleted_at",
    "superseded_by",
    "tier",
)


class _Row:
    """The fields of a memory the index reads, straight from SQL (peewee's rows cost
    more than the rest of an import's indexing)."""

    __slots__ = (
        "id",
        "persona_id",
        "group",
        "title",
        "content",
        "summary",
        "tags",
        "type",
        "scope",
        "importance",
        "created_at",
        "updated_at",
        "expires_at",
        "access_count",
        "mention_count",
        "deleted_at",
        "superseded_by",
        "tier",
    )
    id: str
    persona_id: str | None
    group: str
    title: str
    content: str
    summary: str
    tags: tuple[str, ...]
    type: str
    scope: str
    importance: int
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None
    access_count: int
    mention_count: int
    deleted_at: datetime | None
    superseded_by: str | None
    tier: str

    def __init__(self, row):
        for name, value in zip(self.__slots__, row):
            setattr(self, name, value)
        self.tags = tuple(json.loads(row[self.__slots__.index("tags")]))
        for name in ("created_at", "updated_at", "expires_at", "deleted_at"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, stored_datetime(value))


def stored_datetime(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
    except ValueError:  # years before 1000 written unpadded by old versions
        return datetime.strptime(text.zfill(26), "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=timezone.utc)


def _bag(terms: dict) -> str:
    """A term bag as compact JSON (whole counts without ".0"): three bags a memory
    make up most of search_doc."""
    return json.dumps(
        {t: int(v) if v == int(v) else v for t, v in terms.items()}, ensure_ascii=False, separators=(",", ":")
    )


def _cut_key(record) -> str:
    """What a memory's cut depends on, field by field (the joined text cannot tell
    a title from the start of the content)."""
    fields = [record.title, record.content, record.summary, list(record.tags), record.group]
    return hashlib.blake2b(json.dumps(fields, ensure_ascii=False).encode("utf-8"), digest_size=12).hexdigest()


def _records(conn, ids: list[str]) -> dict[str, _Row]:
    found = {}
    select = ", ".join(f'"{c}"' for c in _COLUMNS)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(f"SELECT {select} FROM memory WHERE id IN ({marks})", chunk):
            found[row[0]] = _Row(row)
    return found


def _docs(conn, column: str, keys: list) -> dict:
    """search_doc rows by memory_id or doc: key -> (doc, memory_id, text, words, grams, vocab, tags, cut key,
    pinyin)."""
    out = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            f"SELECT d.doc, d.memory_id, t.text, d.words, d.grams, d.vocab, d.tags, d.key, "
            f"d.pinyin FROM search_doc d LEFT JOIN search_text t ON t.doc = d.doc "
            f"WHERE d.{column} IN ({marks})",
            chunk,
        ):
            out[row[0] if column == "doc" else row[1]] = row
    return out


class _Writer:
    """One sync: collects every row change, then writes them in a few executemany calls."""

    def __init__(self, conn, tokenizer: Tokenizer, vocabulary: Vocabulary):
        self.conn, self.tokenizer, self.vocabulary = conn, tokenizer, vocabulary
        self.codes = _Codes(conn)
        self.put: dict[str, list[tuple[str, int, float]]] = {"search_word": [], "search_gram": [], "search_pinyin": []}
        self.drop: dict[str, list[tuple[str, int]]] = {"search_word": [], "search_gram": [], "search_pinyin": []}
        self.tag_put: list = []
        self.tag_drop: list = []
        self.docs: list = []
        self.metas: list = []  # the packed columns, in a narrow table that loads fast
        self.gone: list = []
        self.delta: defaultdict[str, float] = defaultdict(int)  # whole counts stay ints in search_stat
        self.first_doc = self.next_doc = last_doc(conn) + 1

    def needs_cut(self, record, old, *, recut: bool = False) -> tuple[bool, str]:
        return recut or old is None or old[7] != _cut_key(record), searchable_text(record)

    def write(
        self,
        record: IndexedMemory,
        old,
        vocab: list[str],
        *,
        recut: bool = False,
        terms: Terms | None = None,
    ) -> None:
        text = searchable_text(record)
        if old is None:
            doc, old_words, old_grams, old_pinyin, old_tags = self.next_doc, {}, {}, {}, []
            self.next_doc += 1
            self.delta["docs"] += 1
        else:
            doc = old[0]
            old_words, old_grams = json.loads(old[3] or "{}"), json.loads(old[4] or "{}")
            old_pinyin = json.loads(old[8] or "{}")
            old_tags = json.loads(old[6])
            if old[2] is None:
                self.delta["docs"] += 1  # a stub from the upgrade: counted once it is cut
        key = _cut_key(record)
        same = old is not None and old[7] == key and not recut
        if same and old[5] == json.dumps(vocab, ensure_ascii=False):
            # Only counters, states or times changed (an access, a move to the trash):
            # the packed columns are all there is to write.
            self.metas.append(
                (
                    doc,
                    pack_meta(
                        doc,
                        record,
                        self.codes,
                        float(sum(old_words.values())),
                        float(sum(old_grams.values())),
                        float(sum(old_pinyin.values())),
                    ),
                )
            )
            return
        if same:
            words, grams, pinyin = old_words, old_grams, old_pinyin
        else:
            if terms is None:
                terms = cut_one((self.tokenizer, record, self.vocabulary.within(text)))
            words, grams, pinyin = terms
            self._postings("search_word", doc, old_words, words)
            self._postings("search_gram", doc, old_grams, grams)
            self._postings("search_pinyin", doc, old_pinyin, pinyin)
        wlen, glen, plen = float(sum(words.values())), float(sum(grams.values())), float(sum(pinyin.values()))
        self.delta["words_len"] += wlen - float(sum(old_words.values()))
        self.delta["grams_len"] += glen - float(sum(old_grams.values()))
        self.delta["pinyin_len"] += plen - float(sum(old_pinyin.values()))
        tags = sorted({normalise(t) for t in record.tags})
        self.tag_drop += [(t, doc) for t in set(old_tags) - set(tags)]
        self.tag_put += [(t, doc) for t in set(tags) - set(old_tags)]
        meta = pack_meta(doc, record, self.codes, wlen, glen, plen)
        self.docs.append(
            (
                doc,
                record.id,
                text,
                _bag(words),
                _bag(grams),
                json.dumps(vocab, ensure_ascii=False),
                json.dumps(tags, ensure_ascii=False),
                text_hash(embed_text(record.title, record.content)),
                key,
                _bag(pinyin),
            )
        )
        self.metas.append((doc, meta))

    def _postings(self, table: str, doc: int, old: dict, new: dict) -> None:
        self.drop[table] += [(t, doc) for t in old if t not in new]
        self.put[table] += [(t, doc, tf) for t, tf in new.items() if old.get(t) != tf and tf > 0]

    def remove(self, old) -> None:
        doc = old[0]
        words, grams = json.loads(old[3] or "{}"), json.loads(old[4] or "{}")
        pinyin = json.loads(old[8] or "{}")
        self.drop["search_word"] += [(t, doc) for t in words]
        self.drop["search_gram"] += [(t, doc) for t in grams]
        self.drop["search_pinyin"] += [(t, doc) for t in pinyin]
        self.tag_drop += [(t, doc) for t in json.loads(old[6])]
        if old[2] is not None:
            self.delta["docs"] -= 1
        self.delta["words_len"] -= float(sum(words.values()))
        self.delta["grams_len"] -= float(sum(grams.values()))
        self.delta["pinyin_len"] -= float(sum(pinyin.values()))
        self.gone.append((doc,))

    def flush(self) -> None:
        c = self.conn
        for table in ("search_word", "search_gram", "search_pinyin"):
            # In key order: B-tree pages are then filled one after another, not at random.
            c.executemany(f"DELETE FROM {table} WHERE term = ? AND doc = ?", sorted(self.drop[table]))
            c.executemany(
                f"INSERT INTO {table} (term, doc, tf) VALUES (?, ?, ?) "
                "ON CONFLICT (term, doc) DO UPDATE SET tf = excluded.tf",
                sorted(self.put[table]),
            )
        c.executemany("DELETE FROM search_tag WHERE tag = ? AND doc = ?", self.tag_drop)
        c.executemany("INSERT INTO search_tag (tag, doc) VALUES (?, ?) ON CONFLICT DO NOTHING", self.tag_put)
        c.executemany("DELETE FROM search_doc WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_meta WHERE doc = ?", self.gone)
        c.executemany("DELETE FROM search_text WHERE doc = ?", self.gone)
        c.executemany(
            "INSERT INTO search_doc (doc, memory_id, words, grams, vocab, tags, ehash, key, "
            "pinyin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (doc) DO UPDATE SET "
            "memory_id = excluded.memory_id, words = excluded.words, grams = excluded.grams, "
            "vocab = excluded.vocab, tags = excluded.tags, ehash = excluded.ehash, key = excluded.key, "
            "pinyin = excluded.pinyin",
            [row[:2] + row[3:] for row in self.docs],
        )
        c.executemany(
            "INSERT INTO search_text (doc, text) VALUES (?, ?) ON CONFLICT (doc) DO UPDATE SET text = excluded.text",
            [(row[0], row[2]) for row in self.docs],
        )
        c.executemany(
            "INSERT INTO search_meta (doc, meta) VALUES (?, ?) ON CONFLICT (doc) DO UPDATE SET meta = excluded.meta",
            self.metas,
        )
        for name, value in self.delta.items():
            if value:
                bump(c, name, value)
        changed = {row[1] for rows in self.put.values() for row in rows}
        changed |= {row[1] for rows in self.drop.values() for row in rows}
        mark_dirty(c, changed | {d for (d,) in self.gone})
        if self.next_doc > self.first_doc:
            set_last_doc(c, self.next_doc - 1)
        if any(self.put.values()) or any(self.drop.values()):
            bump(c, "postings")  # readers keep their cached postings until this moves


def sync(conn: sqlite3.Connection, tokenizer: Tokenizer, memory_ids: Iterable[str], *, personas: bool = False) -> int:
    """Bring the index in line with the store for these memories (added, changed or
    purged). Call inside the write transaction that changed them. Returns the number of
    other memories cut again because the vocabulary changed."""
    ids = list(dict.fromkeys(i for i in memory_ids if i))
    if not ids and not personas:
        return 0
    records = _records(conn, ids)
    old = _docs(conn, "memory_id", ids)
    vocab = {i: vocabulary_of(r) for i, r in records.items()}
    refs: Counter = Counter()
    for memory_id in ids:
        refs.update(vocab.get(memory_id, []))
        if memory_id in old:
            refs.subtract(json.loads(old[memory_id][5]))
    appeared, vanished = add_refs(conn, refs)
    if personas:
        more = persona_vocabulary(conn)
        appeared |= more[0]
        vanished |= more[1]
    vocabulary = Vocabulary(conn, whole=len(ids) > BULK)
    writer = _Writer(conn, tokenizer, vocabulary)
    jobs = []
    for memory_id in ids:
        record = records.get(memory_id)
        if record is not None:
            cut, text = writer.needs_cut(record, old.get(memory_id))
            if cut:
                jobs.append((memory_id, record, vocabulary.within(text)))
    # Memories that need no cut are written first; the cut ones as their terms come
    # back (from worker processes in a bulk write, overlapping this process's work).
    cut_ids = {j[0] for j in jobs}
    for memory_id in ids:
        record, row = records.get(memory_id), old.get(memory_id)
        if record is None:
            if row is not None:
                writer.remove(row)
        elif memory_id not in cut_ids:
            writer.write(record, row, vocab[memory_id])
    for (memory_id, record, _), terms in zip(jobs, cut_many(tokenizer, [(r, o) for _, r, o in jobs])):
        writer.write(record, old.get(memory_id), vocab[memory_id], terms=terms)
    recut = 0
    changed_terms = appeared | vanished
    if changed_terms:
        batch = {row[0] for row in old.values()}
        others = _docs(conn, "doc", sorted(containing(conn, changed_terms) - batch))
        if others:
            fresh = _records(conn, [row[1] for row in others.values()])
            for row in others.values():
                if row[1] in fresh:
                    writer.write(fresh[row[1]], row, json.loads(row[5]), recut=True)
            recut = len(others)
    writer.flush()
    if len(jobs) >= COMPACT_AFTER and worth_compacting(conn):
        compact(conn)  # a bulk write: common terms' postings as blobs again, dirty set emptied
    if recut:
        bump(conn, "epoch")  # other processes reload: memories changed without a change-feed row
    return recut


def pending(conn) -> int:
    return conn.execute("SELECT COUNT(*) FROM search_doc WHERE words IS NULL").fetchone()[0]


def build(
    store,
    *,
    cancel: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> int:
    """Cut the memories the upgrade left uncut, BATCH per short transaction.

    Resumable: a kill -9 loses at most the batch in flight, and searches
    meanwhile see every memory cut so far. Returns how many were cut.
    """
    conn = store.connection()
    total = pending(conn)
    done = 0
    while total:
        if cancel():
            return done
        if not pending(conn):  # read first: no write lock is taken when nothing is left
            break
        with store.write():
            ids = [
                i
                for (i,) in conn.execute(
                    "SELECT memory_id FROM search_doc WHERE words IS NULL ORDER BY doc LIMIT ?", (BATCH,)
                )
            ]
            if not ids:
                break
            sync(conn, store.tokenizer, ids)
            bump(conn, "epoch")
        done += len(ids)
        progress(done, total)
    if done and worth_compacting(conn):
        with store.write():
            compact(conn)
    progress(total, total)
    return done


def reset(conn) -> int:
    """Empty the index and leave a stub per memory for ``build`` to cut (inside the
    caller's transaction; also the upgrade step when what a cut holds changes)."""
    for table in (
        "search_word",
        "search_gram",
        "search_pinyin",
        "search_tag",
        "search_vocab",
        "search_code",
        "search_meta",
        "search_text",
        "search_doc",
        "search_segment",
        "search_dirty",
    ):
        conn.execute(f"DELETE FROM {table}")
    conn.execute("DELETE FROM search_stat WHERE name != 'epoch'")  # readers notice by the epoch
    return stub_all(conn)


def rebuild(store, *, progress: Callable[[int, int], None] = lambda done, total: None) -> int:
    """Drop the index and build it again from the memories (repair; tests compare with it)."""
    with store.write():
        reset(store.connection())
    return build(store, progress=progress)
