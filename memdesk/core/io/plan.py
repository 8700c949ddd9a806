"""Import in two steps: plan (a preview that writes nothing), then apply.

The plan sorts every record into new / updated / unchanged / conflict / invalid (with a
reason). A new record whose text is already stored (same content hash: same normalised text
and persona) is "unchanged" with a reason starting "duplicate", and so is a repeat within the
file. Applying backs the file up, then writes the whole plan in one transaction: an import is
wholly there or wholly absent. Planning looks existing memories up in bulk (a few queries per
500 records), not one query per record: that is what keeps 10k records in seconds.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import cast

from peewee import IntegrityError

from memdesk.core.domain import validation as v
from memdesk.core.domain.changes import Changes
from memdesk.core.domain.error_codes import english
from memdesk.core.domain.errors import MemDeskError, ValidationError
from memdesk.core.domain.times import now_utc
from memdesk.core.search.index.parallel import MIN_ITEMS
from memdesk.core.storage import models
from memdesk.core.storage.backup import make_backup
from memdesk.core.storage.models import Memory, Persona
from memdesk.core.writes import memories as memory_writes
from memdesk.core.writes import personas as persona_writes
from memdesk.core.writes.bulk_insert import insert_new

from . import native, sources
from .common import bind
from .personas import ALIASES_KEY, Choice, Resolver, UnknownPersona, load_aliases
from .reading import ImportFileError
from .revisions import copy_revisions

STATUSES = ("new", "updated", "unchanged", "conflict", "invalid")
FORMATS = sources.FORMATS
_CHUNK = 500


@dataclass
class PlanItem:
    index: int  # 1-based position in the file
    status: str
    memory_id: str | None
    reason: str = ""
    fields: dict = field(default_factory=dict)
    revisions: list = field(default_factory=list)
    title: str = ""
    persona_id: str | None = None  # where the memory ends up (None: global)
    code: str = ""  # the reason as a code with its params (error_codes.py); ``reason`` is its English
    params: dict = field(default_factory=dict)

    @property
    def is_duplicate(self) -> bool:
        return self.status == "unchanged" and self.code in ("same_text_as_memory", "same_text_as_record")


def _because(index, status, memory_id, code="", **kw) -> PlanItem:
    """A PlanItem whose reason is ``code`` with its params (the rest of ``kw`` are the item's)."""
    fields = {k: kw.pop(k) for k in ("fields", "revisions", "title", "persona_id") if k in kw}
    reason = english(code, kw) if code else ""
    return PlanItem(index, status, memory_id, reason, code=code, params=kw, **fields)


@dataclass
class ImportPlan:
    format: str
    source: str  # import:NAME
    items: list[PlanItem]
    new_personas: dict[str, dict]  # id -> persona fields, created on apply
    notes: list[str] = field(default_factory=list)  # about the whole file (ignored columns ...)
    unknown_personas: list[UnknownPersona] = field(default_factory=list)  # the file's ids this store lacks
    persona_names: dict[str, str] = field(default_factory=dict)  # local id -> name (with those to create)
    aliases: dict[str, str | None] = field(default_factory=dict)  # source id -> local id, kept on apply
    persona_refs: list[str] = field(default_factory=list)  # every persona id (or name) the file uses

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item.status == status)

    def summary(self) -> dict:
        return {status: self.count(status) for status in STATUSES}

    def problems(self) -> list[PlanItem]:
        return [item for item in self.items if item.status in ("invalid", "conflict")]

    @property
    def duplicates(self) -> int:
        return sum(1 for item in self.items if item.is_duplicate)


@dataclass
class _Prepared:
    index: int
    fields: dict
    revisions: list
    note: str


def plan_import(store, data, *, format: str = "auto", name: str = "file", **personas) -> ImportPlan:
    """Plan already-parsed JSON data (``personas``: as plan_source takes them)."""
    if format not in FORMATS:
        raise ImportFileError(code="unknown_format", format=format, formats=", ".join(FORMATS))
    return plan_source(store, sources.from_data(data, format, name), name=name, **personas)


def plan_file(store, path, *, format: str = "auto", **personas) -> ImportPlan:
    """Read a file and plan its import (writes nothing). The GUI's preview calls this."""
    path = Path(path)
    return plan_source(store, sources.read_file(path, format), name=path.stem, **personas)


def plan_source(
    store,
    source: sources.Source,
    *,
    name: str = "file",
    choices: dict | None = None,
    everything: Choice | None = None,
    language: str = "en",
) -> ImportPlan:
    """The plan. ``choices`` (source persona id -> Choice) say where the file's unknown
    personas go; ``everything`` puts every record into one persona (or global)."""
    bind(store)
    personas = Resolver(source.personas, choices=choices, everything=everything, language=language)
    tag = "import:" + ("".join(ch for ch in name if not ch.isspace())[:60] or "file")
    prepared = [_prepare(i, record, source.format, tag, personas) for i, record in enumerate(source.records, 1)]
    ready = [p for p in prepared if isinstance(p, _Prepared)]
    existing = _existing([p.fields["id"] for p in ready if p.fields.get("id")])
    holders = _key_holders({p.fields["dedup_key"] for p in ready if p.fields.get("dedup_key")})
    hashes = {}
    if source.format != native.FORMAT:  # a MemDesk file restores exactly what it holds
        for p in ready:
            if p.fields.get("id") not in existing:
                p.fields["_hash"] = v.content_hash(p.fields["content"], p.fields.get("persona_id"))
        hashes = _stored_hashes({p.fields["_hash"] for p in ready if "_hash" in p.fields})
    state: dict = {"ids": set(), "keys": set(), "hashes": {}, "names": personas.names}
    items = [p if isinstance(p, PlanItem) else _classify(p, existing, holders, hashes, state) for p in prepared]
    create = personas.create
    if source.format != native.FORMAT:  # a MemDesk file brings all its personas; others only needed ones
        needed = {i.fields.get("persona_id") for i in items if i.status in ("new", "updated", "conflict")}
        create = {pid: fields for pid, fields in create.items() if pid in needed}
    unknown = [u for u in personas.unknown.values() if u.records or source.format == native.FORMAT]
    return ImportPlan(
        source.format,
        tag,
        items,
        create,
        list(source.notes),
        unknown_personas=unknown,
        persona_names=dict(personas.names),
        aliases=dict(personas.remember),
        persona_refs=list(personas.mapping),
    )


def _prepare(index, record, fmt, source_tag, personas: Resolver):
    """Validated fields, or an invalid PlanItem with the reason."""
    if not isinstance(record, dict):
        return _because(index, "invalid", None, "record_not_object", type=type(record).__name__)
    record = dict(record)
    if "_invalid" in record:
        return _because(index, "invalid", None, "record_unreadable", detail=str(record["_invalid"]))
    note = record.pop("_note", "") or ""
    record.pop("_unknown", None)
    revisions = record.pop("revisions", []) if fmt == native.FORMAT else []
    persona_ref = record.pop("persona_id", None)
    raw_id = record.get("id") if isinstance(record.get("id"), str) else None
    try:
        fields = {k: val for k, val in record.items() if k in memory_writes.IMPORTABLE and k != "persona_id"}
        if fmt == native.FORMAT:
            fields["importance_set"] = bool(record.get("importance_set", True))
        fields.setdefault("source", source_tag)
        cleaned = memory_writes.clean(fields, allowed=memory_writes.IMPORTABLE)
        if "content" not in cleaned:
            raise ValidationError("content", code="missing")
        cleaned["persona_id"] = personas.resolve(persona_ref)
        if personas.everything is None and (persona_ref is None or persona_ref == ""):
            cleaned["_keep_owner"] = True  # no persona in the record: an existing memory keeps its owner
    except ValidationError as exc:
        return PlanItem(index, "invalid", raw_id, str(exc), code=exc.code, params=exc.params)
    return _Prepared(index, cleaned, revisions if isinstance(revisions, list) else [], note)


def _chunks(values):
    values = list(values)
    for start in range(0, len(values), _CHUNK):
        yield values[start : start + _CHUNK]


def _rows_where_in(select: str, column: str, values):
    """Rows of ``select ... AND column IN (values)`` in chunks, through one raw
    statement each: peewee spends more building 10k-value IN lists than SQLite
    spends answering them."""
    conn = models.database.connection()
    for chunk in _chunks(values):
        yield from conn.execute(f'{select} AND "{column}" IN ({", ".join("?" * len(chunk))})', chunk)


def _existing(ids) -> dict:
    """id -> (current field values, updated_at) for the ids already stored."""
    found_ids = [row[0] for row in _rows_where_in('SELECT "id" FROM "memory" WHERE TRUE', "id", dict.fromkeys(ids))]
    found = {}
    for chunk in _chunks(found_ids):
        for row in Memory.select().where(Memory.id.in_(chunk)):
            found[row.id] = (memory_writes.current_values(row), row.updated_at)
    return found


def _key_holders(keys) -> dict:
    rows = _rows_where_in(
        'SELECT "id", "persona_id", "dedup_key" FROM "memory" WHERE "superseded_by" IS NULL', "dedup_key", keys
    )
    return {(persona_id or "", key): memory_id for memory_id, persona_id, key in rows}


def _stored_hashes(hashes) -> dict:
    """content hash -> (memory id, where it is), preferring a memory in use."""
    found: dict = {}
    rows = _rows_where_in(
        'SELECT "id", "content_hash", "deleted_at", "superseded_by" FROM "memory" WHERE TRUE', "content_hash", hashes
    )
    for memory_id, hash_, deleted_at, superseded_by in rows:
        where = "trash" if deleted_at else "superseded" if superseded_by else ""
        if hash_ not in found or (found[hash_][1] and not where):
            found[hash_] = (memory_id, where)
    return found


def _classify(p: _Prepared, existing: dict, holders: dict, hashes: dict, state: dict) -> PlanItem:
    cleaned = p.fields
    hash_ = cleaned.pop("_hash", None)
    memory_id = cleaned.get("id")
    title = cleaned.get("title") or cleaned["content"][:40]

    keep_owner = cleaned.pop("_keep_owner", False)
    if keep_owner and memory_id in existing:
        cleaned["persona_id"] = existing[memory_id][0].get("persona_id")

    def item(status, code="", **kw):
        return _because(p.index, status, memory_id, code, title=title, persona_id=cleaned.get("persona_id"), **kw)

    if memory_id is not None:
        if memory_id in state["ids"]:
            return item("invalid", "duplicate_id")
        state["ids"].add(memory_id)
    key = cleaned.get("dedup_key")
    if key and not cleaned.get("superseded_by"):
        scoped = (cleaned["persona_id"] or "", key)
        if scoped in state["keys"]:
            return item("invalid", "duplicate_key", key=key)
        state["keys"].add(scoped)
        holder = holders.get(scoped)
        if holder is not None and holder != memory_id:
            return item("invalid", "key_used", key=key, id=holder)
    if memory_id not in existing:
        if hash_ is not None:
            if hash_ in hashes:
                other, where = hashes[hash_]
                return item("unchanged", "same_text_as_memory", id=other, where=where)
            if hash_ in state["hashes"]:
                return item("unchanged", "same_text_as_record", n=state["hashes"][hash_])
            state["hashes"][hash_] = p.index
        if p.note:
            return item("new", "note", text=p.note, fields=cleaned, revisions=p.revisions)
        return item("new", fields=cleaned, revisions=p.revisions)
    return _compare(p, existing[memory_id], state, item)


def _compare(p: _Prepared, stored: tuple, state: dict, item) -> PlanItem:
    """A record of a memory already here: unchanged, updated, or a conflict (with why)."""
    cleaned, (current, updated_at) = p.fields, stored
    differs = {
        k: val
        for k, val in cleaned.items()
        if k not in ("id", "source", "importance_set") and not _same(current.get(k), val)
    }
    if not differs:
        return item("unchanged")
    names = ", ".join(sorted(differs))
    if "persona_id" in differs:  # never moved to another persona (or to global) without asking
        known, cur, new = state["names"], current.get("persona_id"), cleaned["persona_id"]
        return item(
            "conflict",
            "persona_conflict",
            file_persona=known.get(new, new) if new else "",
            here_persona=known.get(cur, cur) if cur else "",
            others=", ".join(sorted(k for k in differs if k != "persona_id")),
            fields=cleaned,
        )
    incoming_updated = cleaned.get("updated_at")
    if incoming_updated is not None and updated_at - incoming_updated >= timedelta(milliseconds=1):
        return item("conflict", "changed_here", names=names, fields=cleaned)
    if p.note:
        return item("updated", "differs", names=names, note=p.note, fields=cleaned)
    return item("updated", "differs", names=names, fields=cleaned)


def _same(a, b) -> bool:
    """Equal, with times compared to the millisecond (seed 000 files carry no finer)."""
    if isinstance(a, datetime) and isinstance(b, datetime):
        return abs(a - b) < timedelta(milliseconds=1)
    return a == b


@contextmanager
def import_workers(store, source: sources.Source, *, wanted: bool = True) -> Iterator:
    """The worker processes of a bulk import, forked as soon as its file is read so they
    load their dictionaries while the plan is made (search/index/precut.py), stopped on leaving;
    None for a small file, where forking is not safe, or when not ``wanted`` (a dry run).
    Pass them to apply_import."""
    workers = None
    if wanted and len(source.records) >= MIN_ITEMS:
        from memdesk.core.search.index.precut import Workers  # jieba and the worker processes only for a bulk import

        workers = Workers.start(store, len(source.records))
    try:
        yield workers
    finally:
        if workers is not None:
            workers.close()


def apply_import(
    store,
    plan: ImportPlan,
    *,
    on_conflict: str = "skip",
    backup: bool = True,
    strict: bool = False,
    workers=None,
) -> Changes:
    """Write the plan in one transaction; invalid records are skipped (refused if ``strict``).

    Conflicts are skipped unless on_conflict='theirs'. ``workers``: import_workers'.
    """
    if on_conflict not in ("skip", "theirs"):
        raise MemDeskError("on_conflict must be 'skip' or 'theirs'")
    invalid = plan.count("invalid")
    if strict and invalid:
        raise ImportFileError(code="strict_refused", n=invalid)
    statuses = {"new", "updated"} | ({"conflict"} if on_conflict == "theirs" else set())
    todo = [item for item in plan.items if item.status in statuses]
    if not todo:
        return Changes()
    # A MemDesk file brings all its personas; others only those a written record needs
    # (not one whose only records were skipped conflicts).
    needed = {item.fields.get("persona_id") for item in todo}
    personas = {pid: f for pid, f in plan.new_personas.items() if plan.format == native.FORMAT or pid in needed}
    new_items = [item for item in todo if item.status == "new"]
    rows, tags = _new_rows([item.fields for item in new_items])
    from memdesk.core.search.index.precut import Ahead  # jieba and the worker processes only for a bulk import

    ahead = Ahead.start(store, rows, personas=[f["name"] for f in personas.values()], workers=workers)
    try:
        if backup and store.path is not None:  # PostgreSQL: no file to copy; the import is one transaction
            make_backup(store.path, "import")
        with store.write(ahead=ahead):
            changes = _write(store, plan, todo, personas, (rows, tags), ahead)
            if new_items:
                copy_revisions(zip(changes.added, (item.revisions for item in new_items)))
    finally:
        if ahead is not None:
            ahead.close()
    return changes


def _write(store, plan: ImportPlan, todo: list[PlanItem], personas: dict, new: tuple, ahead) -> Changes:
    """The plan's personas, aliases, updates and new rows (``new``: _new_rows'), in the
    caller's transaction."""
    rows, tags = new
    changes = Changes()
    for pid, fields in personas.items():
        if Persona.get_or_none(Persona.id == pid) is None:
            changes = changes | _create_persona(pid, fields)
    kept = {
        source: target
        for source, target in plan.aliases.items()
        if target is None or Persona.get_or_none(Persona.id == target) is not None
    }
    if kept:  # the user's choices, so the next import of this file maps by itself
        store.set_setting(ALIASES_KEY, {**load_aliases(), **kept})
    for item in todo:
        if item.status != "new":
            fields = {k: val for k, val in item.fields.items() if k not in ("id", "created_at")}
            changes = changes | memory_writes.update(
                cast(str, item.memory_id),
                fields,
                expected_version=None,
                reason="import",
                allowed=memory_writes.IMPORTABLE,
            )
    if rows:
        try:
            added = insert_new(rows, tags, scores=ahead.scores() if ahead is not None else None)
        except (IntegrityError, sqlite3.IntegrityError) as exc:
            raise ImportFileError(code="import_refused_by_store", detail=str(exc)) from None
        changes = changes | added
    return changes


def _new_rows(fields_list: list[dict]) -> tuple[list[dict], list[tuple[str, str]]]:
    """Rows and (memory id, tag) pairs for planned records. The plan validated them already,
    so unlike memory_writes.add_many this does not check every field (and persona) again: at
    10k records that second pass cost more than the insert itself."""
    now = now_utc()
    rows = [memory_writes.new_row(fields, now=now, estimate=False) for fields in fields_list]
    tags = [(row["id"], tag) for row, fields in zip(rows, fields_list) for tag in fields.get("tags", ())]
    return rows, tags


def _create_persona(persona_id: str, fields: dict) -> Changes:
    """A persona named in the file; bad optional fields fall back to defaults."""
    extras = {}
    for key in ("description", "colour"):
        try:
            extras[key] = getattr(v, key)(fields.get(key) or "")
        except ValidationError:
            extras[key] = ""
    _, changes = persona_writes.create(
        name=fields["name"], id=persona_id, auto_save_memory=bool(fields.get("auto_save_memory", True)), **extras
    )
    return changes


def import_file(
    store,
    path,
    *,
    format: str = "auto",
    dry_run: bool = False,
    on_conflict: str = "skip",
    strict: bool = False,
    **personas,
):
    """Plan (and unless dry_run, apply) an import from a file: (plan, changes)."""
    path = Path(path)
    source = sources.read_file(path, format)
    with import_workers(store, source, wanted=not dry_run) as workers:
        plan = plan_source(store, source, name=path.stem, **personas)
        if dry_run:
            return plan, Changes()
        return plan, apply_import(store, plan, on_conflict=on_conflict, strict=strict, workers=workers)
