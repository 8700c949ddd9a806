"""Memories read straight from SQL as MemoryRecords, for the index's writer and reader
(peewee's rows cost more than the rest of an import's indexing or of a search's hits)."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import datetime, timezone

from memdesk.core.domain.records import MemoryRecord

# The memory table's columns in MemoryRecord's field order (only the group is named apart).
COLUMNS = tuple("group_name" if f.name == "group" else f.name for f in fields(MemoryRecord))
SELECT = ", ".join(f'm."{c}"' for c in COLUMNS)  # the memory table aliased m
_TIMES = tuple(i for i, c in enumerate(COLUMNS) if c.endswith("_at"))
_TAGS = COLUMNS.index("tags")
_FLAG = COLUMNS.index("importance_set")


def stored_datetime(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
    except ValueError:  # years before 1000 written unpadded by old versions
        return datetime.strptime(text.zfill(26), "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=timezone.utc)


def memory_from_row(row) -> MemoryRecord:
    """A row of ``SELECT {SELECT}``; its columns are typed by the schema, not here."""
    values = list(row)
    for i in _TIMES:
        if values[i] is not None:
            values[i] = stored_datetime(values[i])
    values[_TAGS] = tuple(json.loads(values[_TAGS]))
    values[_FLAG] = bool(values[_FLAG])
    return MemoryRecord(*values)


def memories(conn, ids: list[str]) -> dict[str, MemoryRecord]:
    """These memories by id (the ones that exist), 500 per query."""
    found = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(f"SELECT {SELECT} FROM memory m WHERE m.id IN ({marks})", chunk):
            found[row[0]] = memory_from_row(row)
    return found
