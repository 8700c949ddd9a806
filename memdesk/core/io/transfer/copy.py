"""Copy a whole store to another one, on either backend: SQLite <-> PostgreSQL, SQLite -> SQLite.

How it stays lossless and never half-done:
- The source is read inside one snapshot (SQLite: a read transaction; PostgreSQL: REPEATABLE
  READ, READ ONLY), so writers there may carry on and the copy sees one moment of it.
- The target is written in ONE write transaction (Store.write): every table, then the
  check, then the search index. A failure anywhere (a clash, a dropped connection, a
  checksum that does not match) rolls it all back and the target is as it was.
- The check, before commit: counts per table and the content checksum (dump.py) of the
  target, read back inside the transaction, must equal the source's. With ``merge`` the
  target's counts must have grown by exactly what was inserted.

Kept as they are: memory ids and storage order, revision and tool-call ids (a fresh copy;
PostgreSQL's id sequences are moved past them), personas, tags, vectors with their model
ids, settings (import aliases, proposals, saved searches live there). Not copied: the
change feed (its numbers belong to each database; the target's triggers log the copied
memories as added, so windows open on the target see them) and the search index, which
the target's write transaction rebuilds from the copied memories (the same path as an
import: index and memories can never disagree).

``merge`` into a store that holds data: what the target has wins. A memory whose id is
already there, or whose (persona, dedup_key) a live target memory holds, is skipped with
its tags, revisions and vectors; a persona with the same id is the target's; a persona
with a name the target gives another id is mapped to the target's (its memories go
there); a setting whose key is there keeps the target's value; revisions and tool calls
are appended with new ids. The report counts what was skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.io.transfer.dump import BY_NAME, PAGE, TABLES, Summary, Table, rows, summarise

Progress = Callable[[str, int, int], None]  # (stage, done, total)


class TargetNotEmptyError(MemDeskError):
    pass


class CopyCheckError(MemDeskError):
    pass


@dataclass
class CopyReport:
    source: str
    target: str
    merge: bool
    copied: dict[str, int]
    skipped: dict[str, int] = field(default_factory=dict)
    source_summary: Summary | None = None
    target_summary: Summary | None = None
    indexed: int = 0
    seconds: float = 0.0
    mapped_personas: dict[str, str] = field(default_factory=dict)  # source id -> target id (merge)


def same_store(a, b) -> bool:
    """Whether two stores are one (a path and itself, or the same redacted URL)."""
    if a.is_postgres != b.is_postgres:
        return False
    if a.is_postgres:
        return a.location == b.location
    try:
        return Path(a.path).resolve() == Path(b.path).resolve()
    except OSError:
        return False


def _count(conn, table: str) -> int:
    return conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]


def counts(conn) -> dict[str, int]:
    return {t.name: _count(conn, t.name) for t in TABLES}


def _value_for(kind: str, value, postgres: bool):
    """A value read from one backend as the other takes it (booleans, blobs, numbers)."""
    if value is None:
        return None
    if kind == "bool":
        return bool(value) if postgres else int(bool(value))
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if kind == "blob":
        return bytes(value)
    return value


class _Snapshot:
    """One consistent read of the source for the whole copy."""

    def __init__(self, store):
        self.conn = store.connection()
        if self.conn.in_transaction:
            raise MemDeskError(code="source_mid_write")
        begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" if store.is_postgres else "BEGIN"
        self.conn.execute(begin)

    def close(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")  # read only: nothing to keep


class _Copier:
    def __init__(self, src_conn, dst, *, merge: bool, progress: Progress):
        self.src = src_conn
        self.dst = dst.connection()
        self.pg = dst.is_postgres
        self.merge = merge
        self.progress = progress
        self.copied = {t.name: 0 for t in TABLES}
        self.skipped = {t.name: 0 for t in TABLES}
        self.persona_map: dict[str, str] = {}
        self.memories_left_out: set[str] = set()
        self.total = sum(_count(src_conn, t.name) for t in TABLES)
        self.done = 0
        self._load_existing()

    # ---- what the target already holds (merge) -------------------------------------------
    def _existing(self, sql: str) -> set:
        return {row[0] if len(row) == 1 else tuple(row) for row in self.dst.execute(sql).fetchall()}

    def _load_existing(self) -> None:
        self.persona_ids: set = self._existing('SELECT "id" FROM "persona"')
        self.persona_names: dict = dict(self.dst.execute('SELECT "name", "id" FROM "persona"').fetchall())
        self.memory_ids: set = self._existing('SELECT "id" FROM "memory"')
        self.dedup_pairs: set = self._existing(
            "SELECT COALESCE(persona_id, ''), dedup_key FROM memory "
            "WHERE dedup_key IS NOT NULL AND superseded_by IS NULL"
        )
        self.setting_keys: set = self._existing('SELECT "key" FROM "setting"')

    def _keep(self, table: Table, row: tuple) -> tuple | None:
        """The row as it goes into the target, or None when the target's own wins."""
        cols = table.columns
        if table.name == "persona":
            return self._keep_persona(row[cols.index("id")], row[cols.index("name")], row)
        if table.name == "memory":
            return self._keep_memory(cols, list(row))
        if "memory_id" in cols and row[cols.index("memory_id")] in self.memories_left_out:
            return None
        if table.name == "setting" and row[0] in self.setting_keys:
            return None
        if table.name == "tool_call":
            values = list(row)
            p = cols.index("persona_id")
            values[p] = self.persona_map.get(values[p], values[p])
            return tuple(values)
        return row

    def _keep_persona(self, pid: str, name: str, row: tuple) -> tuple | None:
        if pid in self.persona_ids:
            return None
        if name in self.persona_names:  # the target has this name under another id: join it
            self.persona_map[pid] = self.persona_names[name]
            return None
        self.persona_ids.add(pid)
        self.persona_names[name] = pid
        return row

    def _keep_memory(self, cols: tuple[str, ...], values: list) -> tuple | None:
        p = cols.index("persona_id")
        values[p] = self.persona_map.get(values[p], values[p])
        mid, dedup = values[cols.index("id")], values[cols.index("dedup_key")]
        live_key = dedup is not None and values[cols.index("superseded_by")] is None
        pair = (values[p] or "", dedup)
        if mid in self.memory_ids or (live_key and pair in self.dedup_pairs):
            self.memories_left_out.add(mid)
            return None
        self.memory_ids.add(mid)
        if live_key:
            self.dedup_pairs.add(pair)
        return tuple(values)

    # ---- writing ------------------------------------------------------------------------
    def _insert_sql(self, table: Table, columns: tuple[str, ...]) -> str:
        names = ", ".join(f'"{c}"' for c in columns)
        return f'INSERT INTO "{table.name}" ({names}) VALUES ({", ".join("?" * len(columns))})'

    def copy_table(self, table: Table) -> None:
        # Integer ids are kept in a fresh copy and given anew when merging (they would clash).
        renumber = self.merge and table.key == ("id",) and table.kinds[table.columns.index("id")] == "int"
        columns = tuple(c for c in table.columns if not (renumber and c == "id"))
        picks = [table.columns.index(c) for c in columns]
        kinds = [table.kinds[i] for i in picks]
        sql = self._insert_sql(table, columns)
        batch = []
        for row in rows(self.src, table):
            self.done += 1
            kept = self._keep(table, row)
            if kept is None:
                self.skipped[table.name] += 1
                continue
            batch.append(tuple(_value_for(k, kept[i], self.pg) for k, i in zip(kinds, picks)))
            if len(batch) >= PAGE:
                self._flush(table, sql, batch)
        self._flush(table, sql, batch)
        if self.pg and not renumber and "id" in columns and table.kinds[table.columns.index("id")] == "int":
            # explicit ids leave the id sequence behind: the next insert would reuse id 1
            self.dst.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), "
                f'(SELECT COALESCE(MAX("id"), 0) + 1 FROM "{table.name}"), false)'
            )

    def _flush(self, table: Table, sql: str, batch: list) -> None:
        if batch:
            self.dst.executemany(sql, batch)
            self.copied[table.name] += len(batch)
            batch.clear()
        self.progress("copy", self.done, self.total)


def _check_fresh(report: CopyReport, src_conn, dst_conn) -> None:
    report.source_summary = summarise(src_conn)
    report.target_summary = summarise(dst_conn)
    differences = report.source_summary.differences(report.target_summary)
    if differences:
        raise CopyCheckError(
            code="copy_mismatch", target=report.target, source=report.source, detail="; ".join(differences)
        )


def _check_merge(report: CopyReport, before: dict[str, int], dst_conn) -> None:
    after = counts(dst_conn)
    wrong = [
        f"{name}: {after[name]} rows, expected {before[name]} + {report.copied[name]}"
        for name in after
        if after[name] != before[name] + report.copied[name]
    ]
    if wrong:
        raise CopyCheckError(code="merge_mismatch", target=report.target, detail="; ".join(wrong))
    report.target_summary = summarise(dst_conn)


def copy_store(src, dst, *, merge: bool = False, progress: Progress | None = None) -> CopyReport:
    """Copy every memory, persona, revision, vector, setting and tool call of ``src`` into
    ``dst`` (two open Stores). Refuses a target holding data unless ``merge``."""
    progress = progress or (lambda stage, done, total: None)
    if same_store(src, dst):
        raise MemDeskError(code="same_store", location=src.location)
    start = time.perf_counter()
    report = CopyReport(src.location, dst.location, merge, copied={})
    snapshot = _Snapshot(src)
    try:
        dst.bind()
        before = counts(dst.connection())
        held = {name: n for name, n in before.items() if n}
        if held and not merge:
            listed = ", ".join(f"{n} {name}" for name, n in held.items())
            raise TargetNotEmptyError(code="target_not_empty", target=dst.location, listed=listed)
        with dst.write():
            copier = _Copier(snapshot.conn, dst, merge=merge, progress=progress)
            for table in TABLES:
                copier.copy_table(table)
            report.copied, report.skipped = copier.copied, copier.skipped
            report.mapped_personas = copier.persona_map
            progress("check", 0, 1)
            if merge:
                _check_merge(report, before, copier.dst)
            else:
                _check_fresh(report, snapshot.conn, copier.dst)
            report.indexed = report.copied[BY_NAME["memory"].name]
            progress("index", 0, report.indexed)  # the write's commit cuts the copied memories
    finally:
        snapshot.close()
    report.seconds = time.perf_counter() - start
    return report
