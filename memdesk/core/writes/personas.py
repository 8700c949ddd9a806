"""Persona mutations (run inside the Store's write transaction)."""

from __future__ import annotations

import json
import uuid

from peewee import IntegrityError

from memdesk.core.domain import validation as v
from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import NotFoundError, ValidationError
from memdesk.core.domain.times import now_utc
from memdesk.core.storage.models import Memory, Persona, Revision

# What happens to a deleted persona's memories; there is deliberately no default.
MEMORY_POLICIES = ("global", "trash")


def get_row(persona_id: str) -> Persona:
    row = Persona.get_or_none(Persona.id == persona_id)
    if row is None:
        raise NotFoundError(code="no_persona", id=persona_id)
    return row


def _name_taken(name: str, except_id: str | None = None) -> bool:
    query = Persona.select().where(Persona.name == name)
    if except_id:
        query = query.where(Persona.id != except_id)
    return query.exists()


def create(*, name, description="", colour="", auto_save_memory=True, id=None) -> tuple[str, Changes]:
    name = v.persona_name(name)
    if _name_taken(name):
        raise ValidationError("name", code="persona_name_taken", name=name)
    persona_id = v.memory_id(id) if id else str(uuid.uuid4())
    if Persona.get_or_none(Persona.id == persona_id) is not None:
        raise ValidationError("id", code="persona_id_taken", id=persona_id)
    try:
        Persona.create(
            id=persona_id,
            name=name,
            description=v.description(description),
            colour=v.colour(colour),
            auto_save_memory=bool(auto_save_memory),
            created_at=now_utc(),
        )
    except IntegrityError as exc:
        raise ValidationError("name", code="persona_create_failed", detail=str(exc)) from None
    return persona_id, Changes(personas=True)


def update(persona_id: str, **fields) -> Changes:
    row = get_row(persona_id)
    unknown = set(fields) - {"name", "description", "colour", "auto_save_memory"}
    if unknown:
        raise ValidationError(sorted(unknown)[0], code="not_persona_field")
    if "name" in fields:
        name = v.persona_name(fields["name"])
        if _name_taken(name, persona_id):
            raise ValidationError("name", code="persona_name_taken", name=name)
        row.name = name
    if "description" in fields:
        row.description = v.description(fields["description"])
    if "colour" in fields:
        row.colour = v.colour(fields["colour"])
    if "auto_save_memory" in fields:
        row.auto_save_memory = bool(fields["auto_save_memory"])
    row.save()
    return Changes(personas=True)


def delete(persona_id: str, *, memories: str) -> Changes:
    """Delete a persona; its memories become global or go to the trash."""
    if memories not in MEMORY_POLICIES:
        raise ValidationError("memories", code="memories_policy", choices=" or ".join(MEMORY_POLICIES))
    get_row(persona_id)
    _refuse_dedup_clashes(persona_id)
    owned = [m.id for m in Memory.select(Memory.id).where(Memory.persona == persona_id)]
    now = now_utc()
    changes = Changes(personas=True)
    if owned:
        # Memories keep their persona link only while it exists; both policies detach them.
        moved = Memory.update(persona=None, version=Memory.version + 1, updated_at=now)
        if memories == "trash":
            Memory.update(deleted_at=now).where((Memory.persona == persona_id) & Memory.deleted_at.is_null()).execute()
        moved.where(Memory.persona == persona_id).execute()
        # Global memories are hashed without a persona; keep content_hash consistent,
        # and keep the former persona in each memory's history.
        for row in Memory.select(Memory.id, Memory.content, Memory.version).where(Memory.id.in_(owned)):
            Memory.update(content_hash=v.content_hash(row.content, None)).where(Memory.id == row.id).execute()
            Revision.create(
                memory=row.id,
                at=now,
                reason="edit",
                version=row.version,
                before=json.dumps({"persona_id": persona_id}),
                after=json.dumps({"persona_id": None}),
            )
        if memories == "trash":
            changes = changes | Changes(deleted=tuple(owned))
        else:
            changes = changes | Changes(updated=tuple(owned))
    Persona.delete().where(Persona.id == persona_id).execute()
    return changes


def _refuse_dedup_clashes(persona_id: str) -> None:
    """Both policies make the persona's memories global (or trashed, which detaches them too);
    a dedup key a global memory already holds would break the store's one-memory-per-key rule.
    Say so, and which keys, before anything is written (not SQLite's IntegrityError)."""

    def keyed(owner):
        return owner & Memory.dedup_key.is_null(False) & Memory.superseded_by.is_null()

    global_keys = Memory.select(Memory.dedup_key).where(keyed(Memory.persona.is_null()))
    clashes = sorted(
        {
            row.dedup_key
            for row in Memory.select(Memory.dedup_key).where(
                keyed(Memory.persona == persona_id) & Memory.dedup_key.in_(global_keys)
            )
        }
    )
    if clashes:
        shown = ", ".join(repr(k) for k in clashes[:5]) + (f" and {len(clashes) - 5} more" if len(clashes) > 5 else "")
        raise ValidationError("memories", code="persona_key_clash", n=len(clashes), keys=shown)
