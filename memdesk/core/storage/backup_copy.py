"""A backup's copy of a SQLite store: everything but what can be rebuilt.

The search index (the search_* tables) is rebuilt from the memories; it is about half a
store file. A backup holds its tables empty and a mark in search_stat, and the first
index build after a restore (search.indexer.build) stubs and cuts every memory again.
So the copy is made table by table (SQLite's backup API copies pages, all or none):
in one read transaction on the source (a consistent snapshot while others write),
tables first, their rows in storage order with their rowids, then indexes and triggers
(the change-feed triggers must not fire on the copy's own inserts), the schema version
and AUTOINCREMENT counters.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

DERIVED = "search_"  # tables whose rows a backup leaves out
REBUILD = "rebuild"  # search_stat's mark: the index is to be built from the memories


def copy_without_index(source: Path, target: Path) -> None:
    """Write ``target`` (a new file) with ``source``'s schema and rows, the index's left out."""
    conn = sqlite3.connect(str(target), isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = off")  # a new file: a failed copy is thrown away whole
        conn.execute("ATTACH DATABASE ? AS src", (str(source),))
        conn.execute("BEGIN")
        version = conn.execute("PRAGMA src.user_version").fetchone()[0]
        schema = conn.execute(
            "SELECT type, name, sql FROM src.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
            "ORDER BY rowid"
        ).fetchall()
        tables = [(name, sql) for kind, name, sql in schema if kind == "table"]
        for _, sql in tables:
            conn.execute(sql)
        derived = [name for name, _ in tables if name.startswith(DERIVED)]
        for name, sql in tables:
            if name not in derived:
                _copy_rows(conn, name, "WITHOUT ROWID" in sql.upper())
        if conn.execute("SELECT 1 FROM src.sqlite_master WHERE name = 'sqlite_sequence'").fetchone():
            conn.execute("DELETE FROM main.sqlite_sequence")  # what the copied rows left there
            conn.execute("INSERT INTO main.sqlite_sequence SELECT * FROM src.sqlite_sequence")
        for kind, _, sql in schema:
            if kind in ("index", "trigger", "view"):
                conn.execute(sql)
        if "search_stat" in derived:
            conn.execute("INSERT INTO main.search_stat (name, value) VALUES (?, 1)", (REBUILD,))
        conn.execute(f"PRAGMA main.user_version = {int(version)}")
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE src")
    finally:
        conn.close()


def _copy_rows(conn, table: str, without_rowid: bool) -> None:
    columns = ", ".join(f'"{row[1]}"' for row in conn.execute(f'PRAGMA src.table_info("{table}")'))
    if without_rowid:
        conn.execute(f'INSERT INTO main."{table}" ({columns}) SELECT {columns} FROM src."{table}"')
    else:  # rowids kept: the memories' storage order, which the index numbers them by
        conn.execute(
            f'INSERT INTO main."{table}" (rowid, {columns}) SELECT rowid, {columns} FROM src."{table}" ORDER BY rowid'
        )


def needs_rebuild(conn) -> bool:
    """Is this store's index to be built from its memories (a restored backup)?"""
    return conn.execute("SELECT 1 FROM search_stat WHERE name = ?", (REBUILD,)).fetchone() is not None
