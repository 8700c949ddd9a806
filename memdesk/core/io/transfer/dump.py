"""A store's content in one canonical order, and its checksum: the same on SQLite and PostgreSQL.

What counts as the store's content: every table the user's data lives in (personas,
memories in storage order, tags, revisions with their ids, vectors with their model ids,
settings — the import aliases, proposals and saved searches are settings — and the
tool-call log with its ids). Not counted: the change feed and the search index, which
are derived (the feed is per database, the index is rebuilt from the memories).

The checksum is sha256 over one line per row, per table in TABLES' order: the row's
values as JSON after ``_canonical`` takes out the backends' representations (PostgreSQL's
booleans and bytea, SQLite's 0/1 and blobs; floats as their shortest exact repr). Rows are
read in key order with keyset pages, so a big store is never loaded whole; text keys sort
alike on both backends (SQLite compares UTF-8 bytes; our PostgreSQL columns are COLLATE "C").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from peewee import BlobField, BooleanField, FloatField, IntegerField

from memdesk.core.storage import models

PAGE = 2000


@dataclass(frozen=True)
class Table:
    name: str
    model: Any  # a peewee model class
    key: tuple[str, ...]  # canonical order; keyset pages follow it
    columns: tuple[str, ...] = field(default=())

    @property
    def kinds(self) -> tuple[str, ...]:
        by_column = {f.column_name: f for f in self.model._meta.sorted_fields}
        return tuple(_kind(by_column[c]) for c in self.columns)


def _kind(f) -> str:
    if isinstance(f, BooleanField):
        return "bool"
    if isinstance(f, FloatField):
        return "float"
    if isinstance(f, IntegerField):  # AutoField too
        return "int"
    if isinstance(f, BlobField):
        return "blob"
    return "text"


def _table(model, key: tuple[str, ...]) -> Table:
    columns = tuple(f.column_name for f in model._meta.sorted_fields)
    return Table(model._meta.table_name, model, key, columns)


# Parents before children (the foreign keys), so a copy can insert in this order too.
TABLES = (
    _table(models.Persona, ("id",)),
    _table(models.Memory, ("rowid",)),  # storage order: search uses it as context
    _table(models.MemoryTag, ("memory_id", "tag")),
    _table(models.Revision, ("id",)),
    _table(models.MemoryVector, ("memory_id", "model_id")),
    _table(models.Setting, ("key",)),
    _table(models.ToolCall, ("id",)),
)
BY_NAME = {t.name: t for t in TABLES}


def _canonical(kind: str, value):
    if value is None:
        return None
    if kind == "bool" or kind == "int":
        return int(value)
    if kind == "float":
        return repr(float(value))
    if kind == "blob":
        return bytes(value).hex()
    return str(value)


def rows(conn, table: Table, *, page: int = PAGE) -> Iterator[tuple]:
    """``table``'s rows as the driver gives them, in key order, ``page`` at a time."""
    cols = ", ".join(f'"{c}"' for c in table.columns)
    key = ", ".join(f'"{k}"' for k in table.key)
    extra = [k for k in table.key if k not in table.columns]  # memory's rowid: ordered by, not copied
    select = ", ".join([cols, *(f'"{k}"' for k in extra)])
    positions = [(table.columns + tuple(extra)).index(k) for k in table.key]
    width = len(table.columns)
    last = None
    while True:
        if last is None:
            sql, params = f'SELECT {select} FROM "{table.name}" ORDER BY {key} LIMIT ?', (page,)
        else:
            marks = ", ".join("?" * len(last))
            sql = f'SELECT {select} FROM "{table.name}" WHERE ({key}) > ({marks}) ORDER BY {key} LIMIT ?'
            params = (*last, page)
        batch = conn.execute(sql, params).fetchall()
        for row in batch:
            yield tuple(row[:width])
        if len(batch) < page:
            return
        last = tuple(batch[-1][p] for p in positions)


def canonical_line(table: Table, row: tuple) -> bytes:
    values = [_canonical(kind, v) for kind, v in zip(table.kinds, row)]
    return json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


@dataclass
class Summary:
    """Rows per table, and the content checksum (hex sha256) over all of them."""

    counts: dict[str, int]
    checksum: str
    table_sums: dict[str, str]

    def differences(self, other: Summary) -> list[str]:
        """What differs from ``other``, one phrase per table; empty when equal."""
        found = []
        for name in self.counts:
            mine, theirs = self.counts[name], other.counts.get(name)
            if mine != theirs:
                found.append(f"{name}: {mine} rows against {theirs}")
            elif self.table_sums[name] != other.table_sums.get(name):
                found.append(f"{name}: same row count, different content")
        return found


def summarise(conn) -> Summary:
    """Counts and checksum of the store behind ``conn`` (a store's connection; reads only)."""
    total = hashlib.sha256()
    counts, sums = {}, {}
    for table in TABLES:
        digest = hashlib.sha256()
        n = 0
        total.update(f"# {table.name}\n".encode())
        for row in rows(conn, table):
            line = canonical_line(table, row)
            digest.update(line)
            total.update(line)
            n += 1
        counts[table.name] = n
        sums[table.name] = digest.hexdigest()
    return Summary(counts, total.hexdigest(), sums)
