"""The stored index's vocabulary of terms and its postings blocks (indexer.py says why this
shape; postings_codec.py holds the byte formats).

search_term gives each (field, term) an id, never reused (a memory's term list names
terms by id), and keeps its document frequency; a term no memory holds any more is
dropped. search_post holds a term's postings as blocks of up to BLOCK_MAX entries, keyed
by (term id, first doc): a write decodes the blocks its memories fall in, merges, and
writes those back alone.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from memdesk.core.search.index.postings_codec import (
    BLOCK,
    BLOCK_MAX,
    SECTIONS,
    SMALL,
    append_to_block,
    change_in_block,
    decode_blocks,
    encode_blocks,
    whole_counts,
)
from memdesk.core.search.index.stats import set_stat, stat

WORDS, GRAMS, PINYIN, TAGS = 0, 1, 2, 3  # field codes: a memory's term bags (BM25 reads the first three)
_CHUNK = 500  # keys per IN (...) list

_NEXT = "SELECT MIN(first_doc) FROM search_post WHERE term = ? AND first_doc > ?"
_BLOCKS_AT = (
    "WITH w (term, doc) AS (VALUES {marks}) SELECT w.term, p.first_doc, p.data FROM w JOIN search_post p "
    "ON p.term = w.term AND p.first_doc = COALESCE("
    "(SELECT MAX(q.first_doc) FROM search_post q WHERE q.term = w.term AND q.first_doc <= w.doc), "
    "(SELECT MIN(q.first_doc) FROM search_post q WHERE q.term = w.term))"
)


def last_term(conn) -> int:
    row = conn.execute("SELECT COALESCE(MAX(id), 0) FROM search_term").fetchone()
    return max(int(row[0]), int(stat(conn, "last_term")))


class TermIds:
    """The ids of the terms one write names; terms not yet in search_term are added (df 0)."""

    def __init__(self, conn):
        self.conn = conn
        self.known: list[dict[str, int]] = [{} for _ in range(SECTIONS)]  # per field: term -> id
        self.unstored: set[int] = set()  # made by this write, no block written yet
        self.next_id: int | None = None

    def resolve(self, field: int, terms: Iterable[str], *, create: bool = True) -> None:
        known = self.known[field]
        wanted = [t for t in dict.fromkeys(terms) if t not in known]
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for term_id, term in self.conn.execute(
                f"SELECT id, term FROM search_term WHERE field = ? AND term IN ({marks})", (field, *chunk)
            ):
                known[term] = term_id
        missing = [t for t in wanted if t not in known]
        if not missing or not create:
            return
        if self.next_id is None:
            self.next_id = last_term(self.conn) + 1
        rows = []
        for term in missing:
            known[term] = self.next_id
            self.unstored.add(self.next_id)
            rows.append((self.next_id, field, term))
            self.next_id += 1
        self.conn.executemany("INSERT INTO search_term (id, field, term, df) VALUES (?, ?, ?, 0)", rows)

    def ids(self, field: int, terms: Iterable[str]) -> list[int]:
        known = self.known[field]
        return [known[t] for t in terms]

    def finish(self) -> None:
        if self.next_id is not None:
            set_stat(self.conn, "last_term", self.next_id - 1)


def apply(conn, terms: TermIds, term_ids: np.ndarray, docs: np.ndarray, tfs: np.ndarray, df: dict[int, int]) -> None:
    """Write posting changes: (term id, doc, count), count 0 to remove; each (term, doc) once.
    ``df``: the change in each term's document frequency."""
    made = set(terms.unstored)
    if len(term_ids):
        order = np.lexsort((docs, term_ids))
        term_ids, docs, tfs = term_ids[order], docs[order], tfs[order]
        cuts = np.flatnonzero(np.diff(term_ids)) + 1
        starts = np.concatenate([[0], cuts]).tolist()
        ends = np.concatenate([cuts, [len(term_ids)]]).tolist()
        dropped: list[tuple[int, int]] = []
        added: list[tuple[int, int, bytes]] = []
        firsts = term_ids[starts].tolist()
        known = _blocks_at(conn, [(t, d) for t, d in zip(firsts, docs[starts].tolist()) if t not in terms.unstored])
        for term, start, end in zip(firsts, starts, ends):
            new = term in terms.unstored
            _merge(conn, term, None if new else known.get(term), docs[start:end], tfs[start:end], dropped, added)
        conn.executemany("DELETE FROM search_post WHERE term = ? AND first_doc = ?", dropped)
        conn.executemany("INSERT INTO search_post (term, first_doc, data) VALUES (?, ?, ?)", added)
    terms.unstored.clear()
    changed = [(delta, term) for term, delta in df.items() if delta]
    conn.executemany("UPDATE search_term SET df = df + ? WHERE id = ?", changed)
    # Terms no memory holds now: those that lost one, and those made for nothing.
    gone = {term for delta, term in changed if delta < 0} | made
    conn.executemany("DELETE FROM search_term WHERE id = ? AND df = 0", [(t,) for t in gone])


def _blocks_at(conn, wanted: list[tuple[int, int]]) -> dict[int, tuple]:
    """For each (term, doc), the term's block that doc falls in (the last one starting at
    or before it, else its first), in one statement per _CHUNK: a write names ~60 terms,
    and on PostgreSQL each statement is a round trip to the server."""
    out: dict[int, tuple] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        marks = ",".join(["(CAST(? AS BIGINT), CAST(? AS BIGINT))"] * len(chunk))
        params = [value for pair in chunk for value in pair]
        for term, first, data in conn.execute(_BLOCKS_AT.format(marks=marks), params):
            out[int(term)] = (first, data)
    return out


def _merge(conn, term: int, first_row, docs: np.ndarray, tfs: np.ndarray, dropped: list, added: list) -> None:
    """One term's changes merged into the blocks they fall in, each block on its own: a
    memory cut again sits among a common term's hundreds of blocks, and only its own is
    read and written back. ``first_row``: the block docs[0] falls in (_blocks_at), None
    when the term has none."""
    wanted = docs.tolist()
    start = 0
    while start < len(wanted):
        row = first_row if start == 0 else _blocks_at(conn, [(term, wanted[start])]).get(term)
        end = len(wanted)
        if row is not None and start + 1 < end:  # the changes up to the next block's first doc are this block's
            after = conn.execute(_NEXT, (term, int(row[0]))).fetchone()[0]
            if after is not None:
                end = int(np.searchsorted(docs, int(after)))
        _merge_blocks(term, [] if row is None else [row], docs[start:end], tfs[start:end], dropped, added)
        start = end


def _merge_blocks(term: int, rows: list, docs: np.ndarray, tfs: np.ndarray, dropped: list, added: list) -> None:
    """Changes merged into one block (``rows``: it, or none for a term without blocks), written
    back as one block or, grown past BLOCK_MAX, as several."""
    keep = tfs > 0
    if len(rows) == 1 and len(docs) == 1:  # one memory written: its entry alone
        first, data = int(rows[0][0]), bytes(rows[0][1])
        changed = change_in_block(first, data, int(docs[0]), int(whole_counts(tfs)[0]) if keep[0] else 0)
        if changed is not None:
            if changed != (first, data):
                dropped.append((term, first))
                if changed[1]:
                    added.append((term, *changed))
            return
    if len(rows) == 1 and len(docs) <= SMALL and keep.all():  # most often: new memories after the last block's
        first, data = int(rows[0][0]), bytes(rows[0][1])
        grown = append_to_block(first, data, docs.tolist(), [int(c) for c in whole_counts(tfs)])
        if grown is not None:
            dropped.append((term, first))
            added.append((term, first, grown))
            return
    if rows:
        old_docs, old_tfs = decode_blocks(rows)
        at = np.minimum(np.searchsorted(old_docs, docs), len(old_docs) - 1)  # docs: sorted, unique
        stay = np.ones(len(old_docs), dtype=bool)
        stay[at[old_docs[at] == docs]] = False  # the changed docs' old entries
        merged_docs = np.concatenate([old_docs[stay], docs[keep]])
        merged_tfs = np.concatenate([old_tfs[stay], tfs[keep]])
        order = np.argsort(merged_docs, kind="stable")
        merged_docs, merged_tfs = merged_docs[order], merged_tfs[order]
        dropped += [(term, int(first)) for first, _ in rows]
    else:
        merged_docs, merged_tfs = docs[keep], tfs[keep]
    size = BLOCK_MAX if len(merged_docs) <= BLOCK_MAX else BLOCK  # one block while it fits
    added += [(term, first, data) for first, data in encode_blocks(merged_docs, merged_tfs, size=size)]


def read(conn, field: int, term: str) -> tuple[np.ndarray, np.ndarray]:
    """A term's postings: (docs ascending, counts)."""
    rows = conn.execute(
        "SELECT p.first_doc, p.data FROM search_term t JOIN search_post p ON p.term = t.id "
        "WHERE t.field = ? AND t.term = ? ORDER BY p.first_doc",
        (field, term),
    ).fetchall()
    return decode_blocks(rows)


def doc_frequency(conn, field: int, term: str) -> int:
    row = conn.execute("SELECT df FROM search_term WHERE field = ? AND term = ?", (field, term)).fetchone()
    return int(row[0]) if row else 0


def frequencies(conn, field: int) -> np.ndarray:
    """Every term's document frequency in ``field``, in term order (as the terms sort)."""
    rows = conn.execute("SELECT df FROM search_term WHERE field = ? AND df > 0 ORDER BY term", (field,))
    return np.array([d for (d,) in rows], dtype=np.float64)


def names(conn, ids: Iterable[int]) -> dict[int, str]:
    wanted = list(dict.fromkeys(int(i) for i in ids))
    out: dict[int, str] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        out.update(conn.execute(f"SELECT id, term FROM search_term WHERE id IN ({marks})", chunk))
    return out


def reblock(conn) -> int:
    """Write again, as full blocks, the terms whose blocks removals have left part-empty
    (more blocks than their postings need, and one spare); returns how many."""
    terms = [
        t
        for (t,) in conn.execute(
            "SELECT p.term FROM search_post p JOIN search_term t ON t.id = p.term "
            "GROUP BY p.term, t.df HAVING COUNT(*) > t.df / ? + 1",
            (BLOCK,),
        ).fetchall()
    ]
    for term in terms:
        rows = conn.execute(
            "SELECT first_doc, data FROM search_post WHERE term = ? ORDER BY first_doc", (term,)
        ).fetchall()
        docs, tfs = decode_blocks(rows)
        conn.execute("DELETE FROM search_post WHERE term = ?", (term,))
        conn.executemany(
            "INSERT INTO search_post (term, first_doc, data) VALUES (?, ?, ?)",
            [(term, first, data) for first, data in encode_blocks(docs, tfs)],
        )
    return len(terms)
