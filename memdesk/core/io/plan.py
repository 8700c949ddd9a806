"""Import in two steps: plan (a preview that writes nothing), then apply.

The plan sorts every record into new / updated / unchanged / conflict /
invalid (with a reason). Applying backs the file up, then writes the whole
plan in one transaction: an import is wholly there or wholly absent.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .. import memory_ops, persona_ops
from .. import validation as v
from ..backup import make_backup
from ..changes import Changes
from ..errors import MemDeskError, ValidationError
from ..models import Memory, Persona, Revision
from ..records import REVISION_REASONS
from ..times import now_utc, parse_time
from . import native, seed000
from .reading import ImportFileError, parse_json, read_text

STATUSES = ("new", "updated", "unchanged", "conflict", "invalid")
FORMATS = ("auto", "memdesk", "seed000")


@dataclass
class PlanItem:
    index: int  # 1-based position in the file
    status: str
    memory_id: str | None
    reason: str = ""
    fields: dict = field(default_factory=dict)
    revisions: list = field(default_factory=list)
    title: str = ""


@dataclass
class ImportPlan:
    format: str
    source: str  # import:NAME
    items: list[PlanItem]
    new_personas: dict[str, dict]  # id -> persona fields, created on apply

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item.status == status)

    def summary(self) -> dict:
        return {status: self.count(status) for status in STATUSES}


def load_file(path) -> tuple[object, str]:
    path = Path(path)
    return parse_json(read_text(path), path.name), path.stem


def detect_format(data) -> str:
    if native.is_native(data):
        return "memdesk"
    if seed000.looks_like(data):
        return "seed000"
    raise ImportFileError(
        "unrecognised file: expected MemDesk JSON ({\"format\": \"memdesk\", ...}) or a memory list "
        "({\"memories\": [...]} or a bare array of objects)")


def _persona_map(store, personas: list) -> tuple[dict[str, str | None], dict[str, str]]:
    """Map incoming persona ids to local ids; list the personas to create."""
    mapping, create = {}, {}
    local_by_name = {p.name: p.id for p in store.personas()}
    local_ids = set(local_by_name.values())
    for item in personas:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        pid, name = item["id"], str(item.get("name") or item["id"]).strip()[:100]
        if pid in local_ids:
            mapping[pid] = pid
        elif name in local_by_name:
            mapping[pid] = local_by_name[name]
        else:
            mapping[pid] = pid
            create[pid] = {"name": name, "description": item.get("description"), "colour": item.get("colour"),
                           "auto_save_memory": item.get("auto_save_memory", True)}
    return mapping, create


def plan_import(store, data, *, format: str = "auto", name: str = "file") -> ImportPlan:
    if format not in FORMATS:
        raise ImportFileError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
    fmt = detect_format(data) if format == "auto" else format
    try:
        if fmt == "memdesk":
            personas, raw = native.records(data)
        else:
            if not seed000.looks_like(data):
                raise ValueError("expected {\"memories\": [...]} or an array of objects")
            personas, raw = [], seed000.records(data)
    except (ValueError, AttributeError, TypeError) as exc:
        raise ImportFileError(f"{name}: {exc}") from None
    mapping, create = _persona_map(store, personas)
    source = "import:" + ("".join(ch for ch in name if not ch.isspace())[:60] or "file")
    items, seen_ids, seen_keys = [], set(), set()
    for index, record in enumerate(raw, start=1):
        items.append(_plan_one(store, index, record, fmt, source, mapping, create, seen_ids, seen_keys))
    return ImportPlan(fmt, source, items, create)


def _plan_one(store, index, record, fmt, source, mapping, create, seen_ids, seen_keys) -> PlanItem:
    if not isinstance(record, dict):
        return PlanItem(index, "invalid", None, f"record is {type(record).__name__}, not an object")
    record = dict(record)
    record.pop("_unknown", None)
    revisions = record.pop("revisions", []) if fmt == "memdesk" else []
    persona_ref = record.pop("persona_id", None)
    try:
        fields = {k: val for k, val in record.items() if k in memory_ops.IMPORTABLE and k != "persona_id"}
        if fmt == "memdesk":
            fields["importance_set"] = bool(record.get("importance_set", True))
        fields.setdefault("source", source)
        cleaned = memory_ops.clean(fields, allowed=memory_ops.IMPORTABLE)
        if persona_ref not in (None, ""):
            if not isinstance(persona_ref, str):
                raise ValidationError("persona_id", "must be text")
            if persona_ref not in mapping:
                exists = Persona.get_or_none(Persona.id == persona_ref)
                mapping[persona_ref] = persona_ref
                if exists is None:
                    taken = Persona.get_or_none(Persona.name == persona_ref)
                    if taken is not None:
                        mapping[persona_ref] = taken.id
                    else:
                        create[persona_ref] = {"name": persona_ref[:100]}
            cleaned["persona_id"] = mapping[persona_ref]
        else:
            cleaned["persona_id"] = None
        if "content" not in cleaned:
            raise ValidationError("content", "is missing")
    except ValidationError as exc:
        return PlanItem(index, "invalid", record.get("id") if isinstance(record.get("id"), str) else None, str(exc))
    memory_id = cleaned.get("id")
    title = cleaned.get("title") or cleaned["content"][:40]
    if memory_id is not None:
        if memory_id in seen_ids:
            return PlanItem(index, "invalid", memory_id, "id: appears more than once in this file", title=title)
        seen_ids.add(memory_id)
    key = cleaned.get("dedup_key")
    if key and not cleaned.get("superseded_by"):
        scoped = (cleaned["persona_id"] or "", key)
        if scoped in seen_keys:
            return PlanItem(index, "invalid", memory_id, f"dedup_key: {key!r} appears more than once in this file", title=title)
        seen_keys.add(scoped)
        holder = memory_ops.find_by_dedup_key(key, cleaned["persona_id"])
        if holder is not None and holder.id != memory_id:
            return PlanItem(index, "invalid", memory_id,
                            f"dedup_key: {key!r} is already used by memory {holder.id}", title=title)
    existing = Memory.get_or_none(Memory.id == memory_id) if memory_id else None
    if existing is None:
        return PlanItem(index, "new", memory_id, fields=cleaned, revisions=revisions, title=title)
    current = memory_ops._current_values(existing)
    differs = {k: val for k, val in cleaned.items()
               if k not in ("id", "source", "importance_set") and current.get(k) != val}
    if not differs:
        return PlanItem(index, "unchanged", memory_id, title=title)
    incoming_updated = cleaned.get("updated_at")
    if incoming_updated is not None and existing.updated_at > incoming_updated:
        names = ", ".join(sorted(differs))
        return PlanItem(index, "conflict", memory_id,
                        f"changed here after the file's copy was written (differs in {names})",
                        fields=cleaned, title=title)
    return PlanItem(index, "updated", memory_id, "differs in " + ", ".join(sorted(differs)), fields=cleaned, title=title)


def apply_import(store, plan: ImportPlan, *, on_conflict: str = "skip", backup: bool = True) -> Changes:
    """Write the plan in one transaction. Conflicts are skipped unless on_conflict='theirs'."""
    if on_conflict not in ("skip", "theirs"):
        raise MemDeskError("on_conflict must be 'skip' or 'theirs'")
    statuses = {"new", "updated"} | ({"conflict"} if on_conflict == "theirs" else set())
    todo = [item for item in plan.items if item.status in statuses]
    if not todo:
        return Changes()
    if backup:
        make_backup(store.path, "import")
    now = now_utc()
    changes = Changes()
    with store.write():
        for pid, fields in plan.new_personas.items():
            if Persona.get_or_none(Persona.id == pid) is None:
                changes = changes | _create_persona(pid, fields)
        new_rows = []
        for item in todo:
            if item.status == "new":
                new_rows.append(item.fields)
            else:
                fields = {k: val for k, val in item.fields.items() if k not in ("id", "created_at")}
                changes = changes | memory_ops.update(item.memory_id, fields, expected_version=None,
                                                      reason="import", allowed=memory_ops.IMPORTABLE)
        if new_rows:
            added = memory_ops.add_many(new_rows, source=plan.source)
            changes = changes | added
            for item, memory_id in zip([i for i in todo if i.status == "new"], added.added):
                _copy_revisions(memory_id, item.revisions)
    return changes


def _create_persona(persona_id: str, fields: dict) -> Changes:
    """A persona named in the file; bad optional fields fall back to defaults."""
    extras = {}
    for key in ("description", "colour"):
        try:
            extras[key] = getattr(v, key)(fields.get(key) or "")
        except ValidationError:
            extras[key] = ""
    _, changes = persona_ops.create(name=fields["name"], id=persona_id,
                                    auto_save_memory=bool(fields.get("auto_save_memory", True)), **extras)
    return changes


def _copy_revisions(memory_id: str, revisions) -> None:
    for rev in revisions or []:
        if not isinstance(rev, dict):
            continue
        try:
            at = parse_time(rev.get("at"), field="revision at") or now_utc()
        except ValueError:
            continue
        reason = rev.get("reason") if rev.get("reason") in REVISION_REASONS else "import"
        before, after = rev.get("before"), rev.get("after")
        if not isinstance(before, dict) or not isinstance(after, dict):
            continue
        version = rev.get("version") if isinstance(rev.get("version"), int) else 1
        Revision.create(memory=memory_id, at=at, reason=reason, version=version,
                        before=json.dumps(before, ensure_ascii=False), after=json.dumps(after, ensure_ascii=False))


def plan_file(store, path, *, format: str = "auto") -> ImportPlan:
    """Read a file and plan its import (writes nothing). The GUI's preview calls this."""
    data, stem = load_file(path)
    return plan_import(store, data, format=format, name=stem)


def import_file(store, path, *, format: str = "auto", dry_run: bool = False, on_conflict: str = "skip"):
    """Plan (and unless dry_run, apply) an import from a file: (plan, changes)."""
    plan = plan_file(store, path, format=format)
    if dry_run:
        return plan, Changes()
    return plan, apply_import(store, plan, on_conflict=on_conflict)
