"""Common terms' postings, compacted into one blob each.

A term in a fifth of a million memories has 200k posting rows; a fresh
process reading them row by row spends most of a search there (0.8 s of a
1.5 s search at 1M). ``compact`` copies the postings of every term in at
least SEGMENT_MIN memories into one blob of doc numbers and one of counts
(search_segment); a reader takes those with one read and numpy. The posting
rows stay the truth: every write still updates them, and marks the memories
whose postings it changed since the last compaction (search_dirty), whose
entries in the blobs are then ignored and read from the rows instead.
Compaction runs at the end of a bulk write (an import, the upgrade build)
and in maintenance, so the dirty set stays small.
"""

from __future__ import annotations

import numpy as np

SEGMENT_MIN = 2000  # postings a term needs to get a blob
STORE_MIN = 30_000  # memories below which rows read fast enough and blobs are not made
FIELDS = ("search_word", "search_gram", "search_pinyin")


def mark_dirty(conn, docs: set[int]) -> None:
    """Memories whose postings changed (the writer calls this while segments exist)."""
    if docs and has_segments(conn):
        conn.executemany("INSERT INTO search_dirty (doc) VALUES (?) ON CONFLICT DO NOTHING", [(d,) for d in docs])


def worth_compacting(conn) -> bool:
    row = conn.execute("SELECT value FROM search_stat WHERE name = 'docs'").fetchone()
    return bool(row) and float(row[0]) >= STORE_MIN  # text on PostgreSQL


def has_segments(conn) -> bool:
    return conn.execute("SELECT 1 FROM search_segment LIMIT 1").fetchone() is not None


def compact(conn, *, minimum: int = SEGMENT_MIN) -> int:
    """Rebuild every blob from the posting rows (inside the caller's write transaction);
    returns how many terms have one."""
    conn.execute("DELETE FROM search_segment")
    conn.execute("DELETE FROM search_dirty")
    made = 0
    for field in FIELDS:
        terms = [t for (t,) in conn.execute(f"SELECT term FROM {field} GROUP BY term HAVING COUNT(*) >= ?", (minimum,))]
        for term in terms:
            rows = conn.execute(f"SELECT doc, tf FROM {field} WHERE term = ?", (term,)).fetchall()
            table = np.array(rows, dtype=np.float64)
            conn.execute(
                "INSERT INTO search_segment (field, term, docs, tfs) VALUES (?, ?, ?, ?)",
                (field, term, table[:, 0].astype("<i4").tobytes(), table[:, 1].astype("<f4").tobytes()),
            )
            made += 1
    return made


def read(conn, field: str, term: str, dirty: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
    """A term's postings from its blob, with the dirty memories' current rows; None
    when the term has no blob (or too much changed since: read the rows then)."""
    row = conn.execute("SELECT docs, tfs FROM search_segment WHERE field = ? AND term = ?", (field, term)).fetchone()
    if row is None or (dirty is not None and len(dirty) > 20_000):
        return None
    docs = np.frombuffer(row[0], dtype="<i4").astype(np.int64)
    tfs = np.frombuffer(row[1], dtype="<f4").astype(np.float64)
    if dirty is None or len(dirty) == 0:
        return docs, tfs
    keep = ~np.isin(docs, dirty)
    extra = []
    marks_all = dirty.tolist()
    for start in range(0, len(marks_all), 500):
        chunk = marks_all[start : start + 500]
        marks = ",".join("?" * len(chunk))
        extra += conn.execute(
            f"SELECT doc, tf FROM {field} WHERE term = ? AND doc IN ({marks})", (term, *chunk)
        ).fetchall()
    if not extra:
        return docs[keep], tfs[keep]
    more = np.array(extra, dtype=np.float64)
    return (np.concatenate([docs[keep], more[:, 0].astype(np.int64)]), np.concatenate([tfs[keep], more[:, 1]]))


def dirty_docs(conn) -> np.ndarray:
    return np.array([d for (d,) in conn.execute("SELECT doc FROM search_dirty")], dtype=np.int64)
