"""Other layouts of a store's postings, for bench/store_size.py --alternatives.

Each is built from the store's own postings (search_post, decoded) into a file of its
own, and measured as a file (MB):
- row_per_block: what the store keeps (search_post + search_term: one row per term and
  block of up to 256 varint entries, the term once, as an id);
- blob_per_term: one row per term, its blocks joined in one blob (a write would rewrite
  the whole blob: a common term's is ~100 KB at 100k);
- row_per_posting_ids: one row per (term id, doc) with its count, WITHOUT ROWID (the old
  shape, with term ids instead of the term's text in every row);
- fts5_terms: SQLite FTS5 (contentless, detail=full) over the same terms, each memory a
  document of its terms repeated by count; it keeps positions we do not need and, being
  contentless, still needs each memory's terms to delete it.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from pathlib import Path

from memdesk.core.search.index.postings_codec import decode_blocks, encode_blocks


def _postings(db: Path) -> tuple[dict[int, tuple[int, str]], dict[int, list[tuple[int, bytes]]]]:
    conn = sqlite3.connect(str(db))
    try:
        terms = {i: (f, t) for i, f, t in conn.execute("SELECT id, field, term FROM search_term")}
        blocks: dict[int, list[tuple[int, bytes]]] = defaultdict(list)
        for term, first, data in conn.execute("SELECT term, first_doc, data FROM search_post ORDER BY term, first_doc"):
            blocks[term].append((first, data))
        return terms, blocks
    finally:
        conn.close()


def _file(folder: Path, name: str, statements: list[str], rows: dict[str, list]) -> float:
    path = folder / f"{name}.db"
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(str(path))
    for statement in statements:
        conn.execute(statement)
    for sql, values in rows.items():
        conn.executemany(sql, values)
    conn.commit()
    conn.execute("VACUUM")
    conn.close()
    size = path.stat().st_size / 1e6
    path.unlink()
    return round(size, 1)


def measure_layouts(db: Path, folder: Path) -> dict[str, float]:
    terms, blocks = _postings(db)
    names = [(i, f, t, 0) for i, (f, t) in terms.items()]
    term_table = [
        "CREATE TABLE term (id INTEGER PRIMARY KEY, field INTEGER, term TEXT, df INTEGER)",
        "CREATE UNIQUE INDEX term_name ON term (field, term)",
    ]
    term_rows = {"INSERT INTO term VALUES (?, ?, ?, ?)": names}
    out = {}
    out["row_per_block"] = _file(
        folder,
        "blocks",
        [
            *term_table,
            "CREATE TABLE post (term INTEGER, first INTEGER, data BLOB, PRIMARY KEY (term, first)) WITHOUT ROWID",
        ],
        {**term_rows, "INSERT INTO post VALUES (?, ?, ?)": [(t, f, d) for t, bs in blocks.items() for f, d in bs]},
    )
    joined = []
    for term, term_blocks in blocks.items():
        docs, tfs = decode_blocks(term_blocks)
        whole = encode_blocks(docs, tfs)  # blocks of 128, each with its first doc ahead of it
        joined.append((term, b"".join(first.to_bytes(4, "little") + data for first, data in whole)))
    out["blob_per_term"] = _file(
        folder,
        "blobs",
        [*term_table, "CREATE TABLE post (term INTEGER PRIMARY KEY, data BLOB)"],
        {**term_rows, "INSERT INTO post VALUES (?, ?)": joined},
    )
    postings = []
    by_doc: dict[int, list[str]] = defaultdict(list)
    for term, term_blocks in blocks.items():
        docs, tfs = decode_blocks(term_blocks)
        field, text = terms[term]
        token = f"{'wgpt'[field]}_{text.replace(' ', '_')}"
        for doc, tf in zip(docs.tolist(), tfs.tolist()):
            postings.append((term, doc, int(tf)))
            by_doc[doc] += [token] * int(tf)
    out["row_per_posting_ids"] = _file(
        folder,
        "rows",
        [
            *term_table,
            "CREATE TABLE post (term INTEGER, doc INTEGER, tf INTEGER, PRIMARY KEY (term, doc)) WITHOUT ROWID",
        ],
        {**term_rows, "INSERT INTO post VALUES (?, ?, ?)": sorted(postings)},
    )
    out["fts5_terms"] = _file(
        folder,
        "fts5",
        [
            "CREATE VIRTUAL TABLE doc USING fts5(body, content='', "
            "tokenize=\"unicode61 remove_diacritics 0 tokenchars '_#'\")",
        ],
        {
            "INSERT INTO doc (rowid, body) VALUES (?, ?)": [(d, " ".join(t)) for d, t in sorted(by_doc.items())],
            "INSERT INTO doc (doc) VALUES (?)": [("optimize",)],
        },
    )
    return out
