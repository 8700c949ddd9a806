"""The user's vocabulary in a store's index, and the counters readers watch.

Tags, group and persona names and short titles are cut whole by jieba. The
index keeps them with reference counts (search_vocab); a change in what is
present means the memories containing the term are cut again (indexer.sync).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable

import numpy as np

from memdesk.core.search.index.indexed import MemoryText
from memdesk.core.search.index.stats import set_stat, stat
from memdesk.core.search.index.terms import GRAMS, doc_frequency, read
from memdesk.core.search.language.stopwords import BIGRAM_SKIP
from memdesk.core.search.language.tokenize import MAX_VOCAB_LEN, has_cjk, substrings, vocabulary_terms

BULK = 50  # a sync of more memories than this loads the whole vocabulary once
_FEW_TEXTS = 64  # candidate memories below which reading one more pair's postings saves nothing
READINGS_STAT = "readings"  # search_stat: the pinyin data the stored readings come from (pinyin.data_version)


def terms_of(tags, group: str, title: str) -> list[str]:
    return vocabulary_terms([*tags, *group.split("/"), title])


def vocabulary_of(record: MemoryText) -> list[str]:
    """The user's own terms in a memory (tags, group names, its title), as stored."""
    return terms_of(record.tags, record.group, record.title)


class Vocabulary:
    """A store's vocabulary terms, looked up by the texts that contain them."""

    def __init__(self, conn: sqlite3.Connection | None, *, whole: bool = False):
        self.conn = conn
        self.terms: set[str] | None = None
        self.prefixes: set[str] = set()
        if whole and conn is not None:
            self.terms = set()
            self.add(t for (t,) in conn.execute("SELECT term FROM search_vocab"))

    @classmethod
    def of(cls, terms: Iterable[str]) -> Vocabulary:
        """A vocabulary of these terms, looked up in memory (no store behind it)."""
        vocabulary = cls(None)
        vocabulary.terms = set()
        vocabulary.add(terms)
        return vocabulary

    def add(self, terms: Iterable[str]) -> None:
        if self.terms is None:
            return
        for term in terms:
            self.terms.add(term)
            self.prefixes.update(term[:end] for end in range(1, len(term) + 1))

    def discard(self, terms: Iterable[str]) -> None:
        if self.terms is not None:
            self.terms.difference_update(terms)  # stale prefixes only cost a lookup

    def within(self, text: str) -> frozenset[str]:
        if self.terms is not None:
            return frozenset(self._scan(text, self.terms))
        assert self.conn is not None, "a vocabulary made by of() holds all its terms"
        if isinstance(self.conn, sqlite3.Connection):
            return self._ranges(text)
        return self._lookup(text)

    def _lookup(self, text: str) -> frozenset[str]:
        """Every substring that could be a term, looked up (PostgreSQL: its text order
        follows the database's collation, so _ranges does not apply)."""
        assert self.conn is not None
        pieces = list(substrings(text))
        found: set[str] = set()
        for start in range(0, len(pieces), 500):
            chunk = pieces[start : start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(
                t for (t,) in self.conn.execute(f"SELECT term FROM search_vocab WHERE term IN ({marks})", chunk)
            )
        return frozenset(found)

    def _ranges(self, text: str) -> frozenset[str]:
        """The stored terms starting with one of the text's character pairs (a range of the
        primary key each, in one statement), kept where the text holds them. The same as
        looking up every substring (_lookup) but ~5x faster: every write and every memory
        cut again after a vocabulary change makes one of these."""
        assert self.conn is not None
        pairs = {chunk[i : i + 2] for chunk in text.split() for i in range(len(chunk) - 1)}
        if not pairs:
            return frozenset()
        bounds = json.dumps([[p, _above(p)] for p in pairs], ensure_ascii=False)
        return frozenset(
            t
            for (t,) in self.conn.execute(_TERMS_IN_RANGES, (bounds,))
            if t in text and has_cjk(t) and t.split() == [t]
        )

    def _scan(self, text: str, terms: set[str]) -> set[str]:
        """Terms of two characters and more, as the lookups above find them."""
        found = set()
        prefixes = self.prefixes
        for chunk in text.split():
            for start in range(len(chunk)):
                end = start + 1
                while end <= len(chunk) and chunk[start:end] in prefixes:
                    if end - start > 1 and chunk[start:end] in terms:
                        found.add(chunk[start:end])
                    end += 1
        return found


_TERMS_IN_RANGES = (
    "SELECT v.term FROM json_each(?) AS p JOIN search_vocab AS v "
    "ON v.term >= json_extract(p.value, '$[0]') AND v.term < json_extract(p.value, '$[1]')"
)
_TOP = "\U0010ffff" * (MAX_VOCAB_LEN + 1)  # above every term


def _above(pair: str) -> str:
    """A string above every string that starts with ``pair`` (SQLite compares UTF-8
    bytes, which is code point order), below most others."""
    for keep in (1, 0):
        code = ord(pair[keep]) + 1
        if 0xD800 <= code <= 0xDFFF:  # surrogates are no characters
            code = 0xE000
        if code <= 0x10FFFF:
            return pair[:keep] + chr(code)
    return _TOP


def stub_all(conn: sqlite3.Connection, *, tags_column: bool = False) -> int:
    """A row (vocabulary only, not yet cut) for every memory without one, in storage
    order; the vocabulary they bring is counted. Runs inside the caller's transaction."""
    from memdesk.core.search.language.pinyin import data_version

    set_stat(conn, READINGS_STAT, data_version())  # an empty index: what its readings will come from
    rows = conn.execute(
        "SELECT m.id, m.title, m.tags, m.group_name FROM memory m "
        "LEFT JOIN search_doc d ON d.memory_id = m.id WHERE d.doc IS NULL ORDER BY m.rowid"
    ).fetchall()
    if not rows:
        persona_vocabulary(conn)
        return 0
    start = last_doc(conn)
    refs: Counter = Counter()
    stubs = []
    for n, (memory_id, title, tags, group) in enumerate(rows, start + 1):
        terms = terms_of(json.loads(tags), group, title)
        refs.update(terms)
        stubs.append((n, memory_id, compact_json(terms)))
    # Before schema 6 search_doc held each memory's tags (migrations' v4 and v5 stub with it).
    columns = (
        "doc, memory_id, vocab, tags) VALUES (?, ?, ?, '[]')"
        if tags_column
        else "doc, memory_id, vocab) VALUES (?, ?, ?)"
    )
    conn.executemany(f"INSERT INTO search_doc ({columns}", stubs)
    set_last_doc(conn, start + len(rows))
    add_refs(conn, refs)
    persona_vocabulary(conn)
    bump(conn, "epoch")
    return len(rows)


def compact_json(value) -> str:
    """search_doc's JSON columns, without the spaces json.dumps puts in by default."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def add_refs(conn, refs: Counter) -> tuple[set[str], set[str]]:
    """Apply reference-count changes; returns (terms that appeared, terms that vanished)."""
    appeared, vanished = set(), set()
    for term, delta in refs.items():
        if not delta:
            continue
        row = conn.execute("SELECT refs FROM search_vocab WHERE term = ?", (term,)).fetchone()
        before = row[0] if row else 0
        after = before + delta
        if after <= 0:
            conn.execute("DELETE FROM search_vocab WHERE term = ?", (term,))
            if before > 0:
                vanished.add(term)
        else:
            conn.execute(
                "INSERT INTO search_vocab (term, refs) VALUES (?, ?) "
                "ON CONFLICT (term) DO UPDATE SET refs = excluded.refs",
                (term, after),
            )
            if before <= 0:
                appeared.add(term)
    return appeared, vanished


def persona_vocabulary(conn) -> tuple[set[str], set[str]]:
    """Persona names are vocabulary too; their share is kept under one stat."""
    names = [n for (n,) in conn.execute("SELECT name FROM persona")]
    terms = vocabulary_terms(names)
    row = conn.execute("SELECT value FROM search_stat WHERE name = 'persona_vocab'").fetchone()
    before = json.loads(row[0]) if row else []
    refs: Counter = Counter(terms)
    refs.subtract(before)
    conn.execute(
        "INSERT INTO search_stat (name, value) VALUES ('persona_vocab', ?) "
        "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        (json.dumps(terms, ensure_ascii=False),),
    )
    return add_refs(conn, refs)


def bump(conn, name: str, by: float = 1) -> None:
    conn.execute(
        "INSERT INTO search_stat (name, value) VALUES (?, ?) "
        # CAST: PostgreSQL keeps this untyped column as text (index_models.AnyValueField)
        "ON CONFLICT (name) DO UPDATE SET value = CAST(search_stat.value AS NUMERIC) + CAST(excluded.value AS NUMERIC)",
        (name, by),
    )


def last_doc(conn) -> int:
    """The highest doc number ever given: numbers are never reused, so a memory's
    number keeps storage order even after the newest one was purged."""
    return max(conn.execute("SELECT COALESCE(MAX(doc), 0) FROM search_doc").fetchone()[0], int(stat(conn, "last_doc")))


def set_last_doc(conn, doc: int) -> None:
    set_stat(conn, "last_doc", doc)


def containing(conn, terms: set[str]) -> set[int]:
    """Cut documents whose text contains any of ``terms``: narrowed by the term's rarest
    CJK bigram where it has one, else a scan of the texts."""
    docs: set[int] = set()
    for term in terms:
        pairs = [term[i : i + 2] for i in range(len(term) - 1)]
        pairs = [
            p for p in pairs if p[0] not in BIGRAM_SKIP and p[1] not in BIGRAM_SKIP and all("\u3400" <= ch for ch in p)
        ]
        if pairs:
            # Every pair's memories hold the term's: the two rarest pairs' in common leave
            # the fewest texts to look at (a title of common words has only common pairs).
            rarest = sorted(dict.fromkeys(pairs), key=lambda p: doc_frequency(conn, GRAMS, p))
            found = read(conn, GRAMS, rarest[0])[0]
            if len(found) > _FEW_TEXTS and len(rarest) > 1:
                found = np.intersect1d(found, read(conn, GRAMS, rarest[1])[0], assume_unique=True)
            holders = found.tolist()
            for start in range(0, len(holders), 500):
                chunk = holders[start : start + 500]
                marks = ",".join("?" * len(chunk))
                docs.update(
                    d
                    for (d,) in conn.execute(
                        f"SELECT doc FROM search_text WHERE doc IN ({marks}) AND instr(text, ?) > 0", (*chunk, term)
                    )
                )
        else:  # the texts alone, in their own narrow table: ~10 ms per 100k memories
            docs.update(d for (d,) in conn.execute("SELECT doc FROM search_text WHERE instr(text, ?) > 0", (term,)))
    return docs
