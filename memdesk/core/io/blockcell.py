"""blockcell's SQLite memory store (~/.blockcell/workspace/memory/memory.db).

Two shapes exist. Seed 001's article: tags a JSON array, importance 1–10
INTEGER, times epoch INTEGER. blockcell's real code: tags comma-joined,
importance a 0–1 REAL, times RFC 3339 TEXT with nanoseconds, and types beyond
the article's five (glossary, contact, snippet, policy, session_summary).
Both are read. Soft-deleted rows (deleted_at set) arrive in the trash.

The file is opened read-only through SQLite's URI (mode=ro), never written.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from . import common
from .reading import ImportFileError

FORMAT = "blockcell"
SQLITE_MAGIC = b"SQLite format 3\x00"
_COLUMNS = (
    "id",
    "scope",
    "type",
    "title",
    "content",
    "summary",
    "tags",
    "importance",
    "created_at",
    "updated_at",
    "expires_at",
    "deleted_at",
    "dedup_key",
    "access_count",
    "last_accessed_at",
    "channel",
)


def is_sqlite(path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _connect(path: Path) -> sqlite3.Connection:
    uri = "file:" + quote(str(path.resolve()), safe="/:") + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=5)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.DatabaseError as exc:
        raise ImportFileError(code="sqlite_unreadable", name=path.name, detail=str(exc)) from None


def read(path) -> list[dict]:
    """Every row of memory_items as a store-shaped record dict."""
    path = Path(path)
    if not is_sqlite(path):
        raise ImportFileError(code="blockcell_not_sqlite", name=path.name)
    conn = _connect(path)
    try:
        have = {row[1] for row in conn.execute("PRAGMA table_info(memory_items)")}
        if not have:
            raise ImportFileError(code="blockcell_no_table", name=path.name)
        if not {"id", "content"} <= have:
            raise ImportFileError(code="blockcell_no_columns", name=path.name)
        columns = [c for c in _COLUMNS if c in have]
        select = ", ".join(f'"{c}"' for c in columns)
        rows = [dict(zip(columns, row)) for row in conn.execute(f"SELECT {select} FROM memory_items ORDER BY rowid")]
    except sqlite3.DatabaseError as exc:
        raise ImportFileError(code="blockcell_unreadable", name=path.name, detail=str(exc)) from None
    finally:
        conn.close()
    return _records(rows)


def _records(rows: list[dict]) -> list[dict]:
    # blockcell's dedup_key is unique only among rows not deleted; ours also
    # among deleted ones, so a trashed row gives its key up to a live one.
    live_keys = {r.get("dedup_key") for r in rows if r.get("dedup_key") and r.get("deleted_at") is None}
    return [_record(row, live_keys) for row in rows]


def _record(row: dict, live_keys: set) -> dict:
    record = {
        "id": row["id"] if not isinstance(row["id"], int) else str(row["id"]),
        "content": row.get("content"),
        "title": common.text_or_empty(row.get("title")),
        "summary": common.text_or_empty(row.get("summary")),
        "tags": common.tags_from(row.get("tags")),
    }
    kind, extra, type_note = common.type_from(row.get("type"))
    record["type"] = kind
    common.add_tags(record, extra)
    common.note(record, type_note)
    scope, scope_note = common.scope_from(row.get("scope"))
    record["scope"] = scope
    common.note(record, scope_note)
    importance, importance_note = common.importance_from(row.get("importance"))
    if importance is not None:
        record["importance"] = importance
    common.note(record, importance_note)
    for ours, theirs in (
        ("created_at", "created_at"),
        ("updated_at", "updated_at"),
        ("expires_at", "expires_at"),
        ("deleted_at", "deleted_at"),
        ("last_access_at", "last_accessed_at"),
    ):
        if row.get(theirs) not in (None, ""):
            record[ours] = row[theirs]
    if isinstance(row.get("access_count"), int) and row["access_count"] >= 0:
        record["access_count"] = row["access_count"]
    key = row.get("dedup_key")
    if key:
        if row.get("deleted_at") is not None and key in live_keys:
            common.note(record, f"dedup_key {key!r} dropped: a live memory in the file uses it")
        else:
            record["dedup_key"] = key
    if row.get("channel"):
        common.add_tags(record, [f"channel:{row['channel']}"[:100]])
    return record
