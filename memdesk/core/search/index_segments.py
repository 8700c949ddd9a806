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
and in maintenance, so the dirty set stays small. It merges the dirty
memories' rows into the blobs they touch rather than re-reading every
term's rows (compact says what that costs).
"""

from __future__ import annotations

import numpy as np

SEGMENT_MIN = 2000  # postings a term needs to get a blob
STORE_MIN = 30_000  # memories below which rows read fast enough and blobs are not made
FIELDS = ("search_word", "search_gram", "search_pinyin")
IN_MAX = 2000  # dirty memories looked up by doc; more are read with one range scan


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
    """Bring the blobs up to date with the posting rows (inside the caller's write
    transaction); returns how many terms have one.

    A blob none of the dirty memories is in stays as it is; one they are in is merged
    with those memories' current rows rather than read again from all of its rows
    (re-reading every common term after each import of 10k was 2.8 s at 100k memories
    and ~30 s at a million). A term that reaches ``minimum`` gets a blob from its rows,
    and one that falls below loses its blob."""
    dirty = np.sort(dirty_docs(conn))
    stale = {(field, term) for field, term in conn.execute("SELECT field, term FROM search_segment")}
    made = 0
    for field in FIELDS:
        terms = [t for (t,) in conn.execute(f"SELECT term FROM {field} GROUP BY term HAVING COUNT(*) >= ?", (minimum,))]
        for term in terms:
            made += 1
            if (field, term) in stale:
                stale.discard((field, term))
                merged = _merged(conn, field, term, dirty) if len(dirty) else None
                if merged is not None:
                    conn.execute(
                        "UPDATE search_segment SET docs = ?, tfs = ? WHERE field = ? AND term = ?",
                        (*_blobs(*merged), field, term),
                    )
                continue
            rows = conn.execute(f"SELECT doc, tf FROM {field} WHERE term = ?", (term,)).fetchall()
            table = np.array(rows, dtype=np.float64)
            conn.execute(
                "INSERT INTO search_segment (field, term, docs, tfs) VALUES (?, ?, ?, ?)",
                (field, term, *_blobs(table[:, 0], table[:, 1])),
            )
    for field, term in stale:  # fewer than ``minimum`` memories now
        conn.execute("DELETE FROM search_segment WHERE field = ? AND term = ?", (field, term))
    conn.execute("DELETE FROM search_dirty")
    return made


def _blobs(docs: np.ndarray, tfs: np.ndarray) -> tuple[bytes, bytes]:
    return docs.astype("<i4").tobytes(), tfs.astype("<f4").tobytes()


def _stored(conn, field: str, term: str) -> tuple[np.ndarray, np.ndarray] | None:
    row = conn.execute("SELECT docs, tfs FROM search_segment WHERE field = ? AND term = ?", (field, term)).fetchone()
    if row is None:
        return None
    return np.frombuffer(row[0], dtype="<i4").astype(np.int64), np.frombuffer(row[1], dtype="<f4").astype(np.float64)


def _rows_of(conn, field: str, term: str, dirty: np.ndarray) -> list[tuple[int, float]]:
    """A term's posting rows for the dirty memories (``dirty`` sorted)."""
    if len(dirty) > IN_MAX:
        # Many: one range scan. An import's memories are new, so numbered above all others
        # and the range holds little else; what it does hold is filtered out.
        lo, hi = int(dirty[0]), int(dirty[-1])
        rows = conn.execute(f"SELECT doc, tf FROM {field} WHERE term = ? AND doc BETWEEN ? AND ?", (term, lo, hi))
        wanted = set(dirty.tolist())
        return [row for row in rows if row[0] in wanted]
    out: list[tuple[int, float]] = []
    marks_all = dirty.tolist()
    for start in range(0, len(marks_all), 500):
        chunk = marks_all[start : start + 500]
        marks = ",".join("?" * len(chunk))
        out += conn.execute(f"SELECT doc, tf FROM {field} WHERE term = ? AND doc IN ({marks})", (term, *chunk))
    return out


def _merged(conn, field: str, term: str, dirty: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The blob's postings with the dirty memories' rows in place of its own entries, in
    doc order; None when none of them is in the blob or has the term."""
    stored = _stored(conn, field, term)
    assert stored is not None  # compact asks only for terms with a blob
    docs, tfs = stored
    hit = np.isin(docs, dirty)
    extra = _rows_of(conn, field, term, dirty)
    if not extra and not hit.any():
        return None
    if extra:
        more = np.array(extra, dtype=np.float64)
        docs = np.concatenate([docs[~hit], more[:, 0].astype(np.int64)])
        tfs = np.concatenate([tfs[~hit], more[:, 1]])
    else:
        docs, tfs = docs[~hit], tfs[~hit]
    order = np.argsort(docs, kind="stable")
    return docs[order], tfs[order]


def read(conn, field: str, term: str, dirty: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
    """A term's postings from its blob, with the dirty memories' current rows; None
    when the term has no blob (or too much changed since: read the rows then)."""
    if dirty is not None and len(dirty) > 20_000:
        return None
    stored = _stored(conn, field, term)
    if stored is None:
        return None
    docs, tfs = stored
    if dirty is None or len(dirty) == 0:
        return docs, tfs
    keep = ~np.isin(docs, dirty)
    extra = _rows_of(conn, field, term, np.sort(dirty))
    if not extra:
        return docs[keep], tfs[keep]
    more = np.array(extra, dtype=np.float64)
    return (np.concatenate([docs[keep], more[:, 0].astype(np.int64)]), np.concatenate([tfs[keep], more[:, 1]]))


def dirty_docs(conn) -> np.ndarray:
    return np.array([d for (d,) in conn.execute("SELECT doc FROM search_dirty")], dtype=np.int64)
