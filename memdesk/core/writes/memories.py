"""Memory mutations. Each runs inside the caller's write transaction and
returns a Changes value; the Store facade opens the transaction."""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import datetime, timedelta
from typing import Any

from peewee import IntegrityError

from memdesk.core.domain import validation as v
from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import ConflictError, NotFoundError, ValidationError
from memdesk.core.domain.records import TRACKED_FIELDS
from memdesk.core.domain.times import now_utc, to_iso
from memdesk.core.storage.convert import memory_record
from memdesk.core.storage.models import Memory, MemoryTag, Persona, Revision
from memdesk.core.writes.bulk_insert import auto_importance, insert_new

# Fields a caller may set on add/update (besides id/created_at on add).
EDITABLE = (
    "title",
    "content",
    "summary",
    "tags",
    "group",
    "type",
    "scope",
    "importance",
    "persona_id",
    "dedup_key",
    "expires_at",
    "source",
)
# Fields an import may carry over as they are.
IMPORTABLE = EDITABLE + (
    "id",
    "created_at",
    "updated_at",
    "last_access_at",
    "access_count",
    "mention_count",
    "deleted_at",
    "superseded_by",
    "tier",
    "heat",
    "importance_set",
)
# Changes to these keep a revision (the list plus persona and expiry).
REVISED = TRACKED_FIELDS + ("persona_id", "expires_at", "dedup_key")


def _jsonable(value):
    if isinstance(value, datetime):
        return to_iso(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _check_persona(persona_id):
    if persona_id in (None, ""):
        return None
    if not isinstance(persona_id, str):
        raise ValidationError("persona", code="not_persona_id", type=type(persona_id).__name__)
    if not Persona.select().where(Persona.id == persona_id).exists():
        raise ValidationError("persona", code="no_persona_id", id=persona_id)
    return persona_id


def clean(fields: dict, *, allowed=EDITABLE) -> dict:
    """Validate and normalise the given fields (only those present)."""
    unknown = set(fields) - set(allowed) - {"expires_in_days"}
    if unknown:
        raise ValidationError(sorted(unknown)[0], code="not_settable")
    out = {}
    checks = {
        "title": v.title,
        "content": v.content,
        "summary": v.summary,
        "tags": v.tags,
        "group": v.group,
        "type": v.memory_type,
        "scope": v.scope,
        "importance": v.importance,
        "dedup_key": v.dedup_key,
        "source": v.source,
        "tier": v.tier,
        "id": v.memory_id,
    }
    for key, value in fields.items():
        if key in checks:
            out[key] = checks[key](value)
        elif key in ("expires_at", "created_at", "updated_at", "last_access_at", "deleted_at"):
            out[key] = v.time(key, value)
        elif key == "persona_id":
            out[key] = _check_persona(value)
        elif key in ("access_count", "mention_count"):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValidationError(key, code="not_a_count")
            out[key] = value
        elif key == "heat":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
                raise ValidationError("heat", code="heat_range")
            out[key] = float(value)
        elif key in ("superseded_by",):
            out[key] = v.dedup_key(value)
        elif key == "importance_set":
            out[key] = bool(value)
        elif key == "expires_in_days":
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 36500:
                raise ValidationError("expires_in_days", code="expiry_range")
            out["expires_at"] = now_utc() + timedelta(days=float(value))
    return out


def _own(params: dict) -> dict:
    """An error's params without its field (a wrapping ValidationError names the field again)."""
    return {k: val for k, val in params.items() if k != "field"}


def _write_tags(memory_id: str, tags) -> None:
    MemoryTag.delete().where(MemoryTag.memory == memory_id).execute()
    if tags:
        MemoryTag.insert_many([(memory_id, t) for t in tags], fields=[MemoryTag.memory, MemoryTag.tag]).execute()


def _dedup_clash(exc: IntegrityError, dedup_key) -> ValidationError:
    text = str(exc)
    if "memory.id" in text or "PRIMARY KEY" in text or '"memory_pkey"' in text:  # SQLite; PostgreSQL
        return ValidationError("id", code="id_taken")
    if "dedup" in text or "memory.dedup_key" in text or "UNIQUE" in text:
        return ValidationError("dedup_key", code="dedup_key_taken", key=dedup_key)
    return ValidationError("memory", code="store_refused", detail=text)


def new_row(fields: dict, *, now: datetime, estimate: bool = True) -> dict:
    """Column values for a new memory from already-cleaned fields.

    estimate=False leaves the automatic importance to estimate_importance(rows),
    which scores a whole batch at once."""
    if "content" not in fields:
        raise ValidationError("content", code="blank")
    created = fields.get("created_at") or now
    row = {
        "id": fields.get("id") or str(uuid.uuid4()),
        "persona": fields.get("persona_id"),
        "group": fields.get("group", ""),
        "title": fields.get("title", ""),
        "content": fields["content"],
        "summary": fields.get("summary", ""),
        "tags": json.dumps(list(fields.get("tags", ())), ensure_ascii=False),
        "type": fields.get("type", "note"),
        "scope": fields.get("scope", "long_term"),
        "importance": fields.get("importance", 5),
        "importance_set": fields.get("importance_set", "importance" in fields),
        "source": fields.get("source", "manual"),
        "dedup_key": fields.get("dedup_key"),
        "content_hash": v.content_hash(fields["content"], fields.get("persona_id")),
        "created_at": created,
        "updated_at": fields.get("updated_at") or created,
        "last_access_at": fields.get("last_access_at"),
        "access_count": fields.get("access_count", 0),
        "mention_count": fields.get("mention_count", 0),
        "expires_at": fields.get("expires_at"),
        "deleted_at": fields.get("deleted_at"),
        "superseded_by": fields.get("superseded_by"),
    }
    from memdesk.core.domain.heat import heat_and_tier  # local: heat depends on records only

    heat, tier = heat_and_tier(created, row["access_count"], row["mention_count"], now=now)
    row["heat"] = fields.get("heat", heat)
    row["tier"] = fields.get("tier", tier)
    if "importance" not in fields and not row["importance_set"]:
        if estimate:
            row["importance"] = auto_importance(row["title"], row["content"])
        else:
            row["_estimate"] = True
    row["version"] = 1
    return row


def add(fields: dict) -> Changes:
    cleaned = clean(fields, allowed=EDITABLE + ("id", "created_at"))
    row = new_row(cleaned, now=now_utc())
    try:
        Memory.insert(**row).execute()
    except IntegrityError as exc:
        raise _dedup_clash(exc, row["dedup_key"]) from None
    _write_tags(row["id"], cleaned.get("tags", ()))
    return Changes(added=(row["id"],))


def add_many(items: list[dict], *, source: str = "import") -> Changes:
    """Bulk insert in the caller's transaction: all or nothing."""
    now = now_utc()
    rows: list[dict] = []
    tag_rows: list[tuple[str, str]] = []
    for index, item in enumerate(items):
        item = dict(item)
        item.setdefault("source", source)
        try:
            cleaned = clean(item, allowed=IMPORTABLE)
            row = new_row(cleaned, now=now, estimate=False)
        except ValidationError as exc:
            raise ValidationError(f"record {index + 1}: {exc.field}", code=exc.code, **_own(exc.params)) from None
        rows.append(row)
        tag_rows.extend((row["id"], t) for t in cleaned.get("tags", ()))
    try:
        return insert_new(rows, tag_rows)
    except (IntegrityError, sqlite3.IntegrityError) as exc:
        raise _dedup_clash(exc, None) from None


def _get_row(memory_id: str) -> Any:  # a Memory row; Any: its fields hold Python values, not Fields
    row = Memory.get_or_none(Memory.id == memory_id)
    if row is None:
        raise NotFoundError(code="no_memory", id=memory_id)
    return row


def current_values(row: Memory) -> dict:
    rec = memory_record(row)
    return {name: getattr(rec, name) for name in IMPORTABLE if hasattr(rec, name)}


def update(
    memory_id: str, fields: dict, *, expected_version: int | None, reason: str = "edit", allowed=EDITABLE
) -> Changes:
    row = _get_row(memory_id)
    if expected_version is not None and row.version != expected_version:
        raise ConflictError(memory_id, expected_version, memory_record(row))
    cleaned = clean(fields, allowed=allowed)
    before_all = current_values(row)
    changed = {k: val for k, val in cleaned.items() if before_all.get(k) != val}
    if not changed:
        return Changes()
    now = now_utc()
    for key, value in changed.items():
        if key == "persona_id":
            row.persona = value
        elif key == "tags":
            row.tags = json.dumps(list(value), ensure_ascii=False)
        else:
            setattr(row, key, value)
    if "importance" in changed and "importance_set" not in cleaned:
        row.importance_set = True
    back_to_automatic = changed.get("importance_set") is False
    if (
        ("content" in changed or "title" in changed or back_to_automatic)
        and not row.importance_set
        and "importance" not in cleaned
    ):
        row.importance = auto_importance(row.title, row.content)  # automatic: follows the text, no revision
    if "content" in changed or "persona_id" in changed:
        row.content_hash = v.content_hash(row.content, row.persona_id)
    if "updated_at" not in cleaned:
        row.updated_at = now
    row.version += 1
    try:
        row.save()
    except IntegrityError as exc:
        raise _dedup_clash(exc, row.dedup_key) from None
    if "tags" in changed:
        _write_tags(memory_id, changed["tags"])
    revised = [k for k in changed if k in REVISED]
    if revised:
        Revision.create(
            memory=memory_id,
            at=now,
            reason=reason,
            version=row.version,
            before=json.dumps({k: _jsonable(before_all.get(k)) for k in revised}, ensure_ascii=False),
            after=json.dumps({k: _jsonable(changed[k]) for k in revised}, ensure_ascii=False),
        )
    return Changes(updated=(memory_id,))


def delete(ids, *, now: datetime | None = None) -> Changes:
    now = now or now_utc()
    done: list[str] = []
    for memory_id in dict.fromkeys(ids):
        row = _get_row(memory_id)
        if row.deleted_at is None:
            Memory.update(deleted_at=now, version=Memory.version + 1).where(Memory.id == memory_id).execute()
            done.append(memory_id)
    return Changes(deleted=tuple(done))


def restore(ids) -> Changes:
    now = now_utc()
    done = []
    for memory_id in dict.fromkeys(ids):
        row = _get_row(memory_id)
        if row.deleted_at is None:
            continue
        values = {"deleted_at": None, "version": Memory.version + 1}
        # A memory that expired and was cleaned would vanish again at once.
        if row.expires_at is not None and row.expires_at <= now:
            values["expires_at"] = None
        Memory.update(**values).where(Memory.id == memory_id).execute()
        done.append(memory_id)
    return Changes(restored=tuple(done))


def purge(ids) -> Changes:
    ids = list(dict.fromkeys(ids))
    for memory_id in ids:
        row = _get_row(memory_id)
        if row.deleted_at is None:
            raise ValidationError("id", code="not_in_trash", id=memory_id)
    for start in range(0, len(ids), 500):
        Memory.delete().where(Memory.id.in_(ids[start : start + 500])).execute()
    return Changes(purged=tuple(ids))


def touch(ids, *, mentions: bool = False) -> Changes:
    ids = list(dict.fromkeys(ids))
    now = now_utc()
    counter = Memory.mention_count if mentions else Memory.access_count
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        values = {counter: counter + 1}
        if not mentions:
            values[Memory.last_access_at] = now
        Memory.update(values).where(Memory.id.in_(chunk)).execute()
    return Changes(updated=tuple(ids))


def find_by_dedup_key(dedup_key: str, persona_id) -> Memory | None:
    query = Memory.select().where((Memory.dedup_key == dedup_key) & Memory.superseded_by.is_null())
    query = query.where(Memory.persona.is_null() if not persona_id else Memory.persona == persona_id)
    return query.first()


def upsert(fields: dict, *, reason: str) -> Changes:
    key = v.dedup_key(fields.get("dedup_key"))
    if key is None:
        return add(fields)
    persona_id = _check_persona(fields.get("persona_id"))
    existing = find_by_dedup_key(key, persona_id)
    if existing is None:
        return add(fields)
    changes = Changes()
    if existing.deleted_at is not None:
        changes = restore([existing.id])
    rest = {k: val for k, val in fields.items() if k not in ("dedup_key", "persona_id")}
    return changes | update(existing.id, rest, expected_version=None, reason=reason)


def supersede(old_id: str, *, new_id: str | None, fields: dict, reason: str = "supersede") -> Changes:
    """Mark old as replaced by new (an existing memory, or one made from old + fields)."""
    old = _get_row(old_id)
    if old.superseded_by is not None:
        raise ValidationError("id", code="already_superseded", id=old_id, by=old.superseded_by)
    if new_id is not None and new_id == old_id:
        raise ValidationError("new_id", code="supersede_itself")
    if new_id is not None:
        _get_row(new_id)
    now = now_utc()
    Memory.update(superseded_by=new_id or "pending", updated_at=now, version=Memory.version + 1).where(
        Memory.id == old_id
    ).execute()
    changes = Changes(updated=(old_id,))
    if new_id is None:
        base = memory_record(old)
        values = {name: getattr(base, name) for name in EDITABLE}
        values.update(fields)
        values["source"] = fields.get("source", base.source)
        changes = changes | add(values)
        new_id = changes.added[0]
    Memory.update(superseded_by=new_id).where(Memory.id == old_id).execute()
    Revision.create(
        memory=old_id,
        at=now,
        reason=reason,
        version=old.version + 1,
        before=json.dumps({"superseded_by": None}),
        after=json.dumps({"superseded_by": new_id}),
    )
    return changes


def revert(memory_id: str, revision_id: int, *, expected_version: int | None) -> Changes:
    """Put back the values a revision replaced (reason 'restore')."""
    revision = Revision.get_or_none((Revision.id == revision_id) & (Revision.memory == memory_id))
    if revision is None:
        raise NotFoundError(code="no_revision", id=memory_id, revision=revision_id)
    before = {k: val for k, val in json.loads(revision.before).items() if k in EDITABLE}
    return update(memory_id, before, expected_version=expected_version, reason="restore")
