"""Operations on personas: create, update, delete (with what happens to their memories)."""

from __future__ import annotations

from functools import partial

from memdesk.core.views.listing import memory_ids

from .base import (
    ABSENT,
    PERSONA_FIELDS,
    Result,
    StaleStepError,
    check_memories,
    check_persona,
    fingerprints,
    merge,
    persona_fingerprint,
    persona_memory_ids,
)


# ---- personas ---------------------------------------------------------------------------
def create_persona(
    store,
    *,
    name: str,
    description: str = "",
    colour: str = "",
    auto_save_memory: bool = True,
    persona_id: str | None = None,
) -> Result:
    with store.write():
        new_id, changes = store.create_persona(
            name=name, description=description, colour=colour, auto_save_memory=auto_save_memory, id=persona_id
        )
        left: tuple = (persona_fingerprint(store, new_id), {})  # a new persona owns no memories
    return Result(changes, partial(delete_persona, persona_id=new_id, memories="global", expect=left), value=new_id)


def update_persona(store, *, persona_id: str, expect=None, **fields) -> Result:
    with store.write():
        if expect is not None:
            check_persona(store, persona_id, expect)
        before = store.persona(persona_id)
        changes = store.update_persona(persona_id, **fields)
        left = persona_fingerprint(store, persona_id)
    inverse = {name: getattr(before, name) for name in fields}
    return Result(changes, partial(update_persona, persona_id=persona_id, expect=left, **inverse))


def delete_persona(store, *, persona_id: str, memories: str, expect: tuple | None = None) -> Result:
    """Delete a persona; its memories become global or go to the trash (undo brings both back).

    ``expect`` (undo/redo only): the persona's fingerprint and the fingerprints of
    exactly the memories it owned when the step left it.
    """
    with store.write():
        owned = persona_memory_ids(store, persona_id)
        if expect is not None:
            persona_left, memories_left = expect
            check_persona(store, persona_id, persona_left)
            extra = sorted(set(owned) - set(memories_left))
            if extra:
                raise StaleStepError("persona", persona_id, [f"memory {extra[0]} was moved to it"])
            check_memories(store, memories_left)
        persona = store.persona(persona_id)
        trashed = (
            (set(owned) - set(memory_ids(store, persona=persona_id, merge_global=False, state="deleted")))
            if memories == "trash"
            else set()
        )
        changes = store.delete_persona(persona_id, memories=memories)
        left = fingerprints(store, owned)
    kept = {name: getattr(persona, name) for name in PERSONA_FIELDS}
    return Result(
        changes,
        partial(
            recreate_persona,
            persona_id=persona_id,
            fields=kept,
            owned=owned,
            trashed=sorted(trashed),
            memories=memories,
            expect=left,
        ),
    )


def recreate_persona(
    store,
    *,
    persona_id: str,
    fields: dict,
    owned: list[str],
    trashed: list[str],
    memories: str,
    expect: dict | None = None,
) -> Result:
    parts = []
    with store.write():
        check_persona(store, persona_id, ABSENT)
        check_memories(store, expect)
        _, created = store.create_persona(id=persona_id, **fields)
        parts.append(created)
        if trashed:
            parts.append(store.restore(trashed))
        for memory_id in owned:
            parts.append(store.update(memory_id, expected_version=None, reason="restore", persona_id=persona_id))
        left = (persona_fingerprint(store, persona_id), fingerprints(store, owned))
    return Result(merge(parts), partial(delete_persona, persona_id=persona_id, memories=memories, expect=left))
