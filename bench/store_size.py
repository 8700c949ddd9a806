"""How big a store file is, and what in it takes the room.

    python bench/store_size.py [--sizes 10000,100000] [--json] [--alternatives]

Stores are built as bench/cold_start.py builds them (`memdesk import` of seed-000
JSON files, cached in $MEMDESK_BENCH_CACHE). For each size, printed:

- db_mb: the database file (after a checkpoint: the WAL folded in);
- index_mb: the search index's tables and their indexes (dbstat), and
  index_tables_mb: the same per table (a table's own indexes counted with it);
- memory_mb: the memory table with its indexes; text_mb: the memories' text
  (title, content, summary, tags, group), as UTF-8;
- fts5_mb: the anchor, SQLite FTS5 over jieba tokens (cut_for_search) of the same
  memories' title and content, built in this run into a file of its own (its file
  size: FTS5's index and the token text it keeps);
- backup_mb: a backup as `memdesk` makes one before an import (core/storage/backup.py);
- with --alternatives, the postings laid out in other ways (alternatives_mb;
  each built from the store's own postings into a file of its own): one blob per
  term, blocks inside; one row per term and block; FTS5 over the pre-cut terms.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

MB = 1e6


def checkpoint(db: Path) -> None:
    conn = sqlite3.connect(str(db))
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def table_sizes(db: Path) -> dict[str, int]:
    """Bytes per table, its indexes (autoindexes and named ones) counted with it."""
    conn = sqlite3.connect(str(db))
    try:
        owner = {name: table for name, table in conn.execute("SELECT name, tbl_name FROM sqlite_master")}
        sizes: dict[str, int] = {}
        for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            table = owner.get(name, name)
            sizes[table] = sizes.get(table, 0) + size
        return sizes
    finally:
        conn.close()


def text_bytes(db: Path) -> int:
    conn = sqlite3.connect(str(db))
    try:
        return (
            conn.execute(
                "SELECT SUM(LENGTH(CAST(title AS BLOB)) + LENGTH(CAST(content AS BLOB)) + "
                "LENGTH(CAST(summary AS BLOB)) + LENGTH(CAST(tags AS BLOB)) + "
                "LENGTH(CAST(group_name AS BLOB))) FROM memory"
            ).fetchone()[0]
            or 0
        )
    finally:
        conn.close()


def fts5_size(db: Path, folder: Path) -> int:
    """FTS5 over jieba tokens of the memories' title and content: cold_start's anchor, merged."""
    from cold_start import fts5_store

    return fts5_store(db, folder / "anchor.fts5", optimize=True).stat().st_size


def backup_size(db: Path, folder: Path) -> int:
    from memdesk.core.storage.backup import make_backup

    copy = folder / "store.db"
    source, target = sqlite3.connect(str(db)), sqlite3.connect(str(copy))
    source.backup(target)
    source.close()
    target.close()
    made = make_backup(copy, "bench")
    assert made is not None
    return made.stat().st_size


def measure(count: int, alternatives: bool) -> dict:
    from cold_start import in_child

    db = Path(in_child("build", str(count)))
    checkpoint(db)
    tables = table_sizes(db)
    index = {t: s for t, s in tables.items() if t.startswith("search_")}
    with tempfile.TemporaryDirectory(prefix="memdesk-size-") as tmp:
        started = time.perf_counter()
        fts5 = fts5_size(db, Path(tmp))
        fts5_s = time.perf_counter() - started
        backup = backup_size(db, Path(tmp))
        out = {
            "db_mb": round(db.stat().st_size / MB, 1),
            "index_mb": round(sum(index.values()) / MB, 1),
            "memory_mb": round(tables.get("memory", 0) / MB, 1),
            "text_mb": round(text_bytes(db) / MB, 1),
            "fts5_mb": round(fts5 / MB, 1),
            "fts5_build_s": round(fts5_s, 1),
            "backup_mb": round(backup / MB, 1),
            "index_tables_mb": {t: round(s / MB, 1) for t, s in sorted(index.items(), key=lambda x: -x[1])},
            "other_tables_mb": {
                t: round(s / MB, 1) for t, s in sorted(tables.items(), key=lambda x: -x[1]) if t not in index
            },
        }
        if alternatives:
            from store_layouts import measure_layouts

            out["alternatives_mb"] = measure_layouts(db, Path(tmp))
    out["index_vs_fts5"] = round(out["index_mb"] / out["fts5_mb"], 2) if out["fts5_mb"] else None
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--alternatives", action="store_true", help="also other layouts of the same postings")
    args = parser.parse_args(argv)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "memdesk")], check=True)
    figures: dict = {"sizes": {}}
    for size in sorted(int(s) for s in args.sizes.split(",")):
        figures["sizes"][str(size)] = measure(size, args.alternatives)
        if not args.json:
            print(size, json.dumps(figures["sizes"][str(size)], ensure_ascii=False), flush=True)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
