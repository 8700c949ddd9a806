"""Every change the window makes to the store, each returning its own inverse.

An operation is a small keyword-only function ``op(store, **args) -> Result``.
``Result.undo`` is another operation, already bound to its arguments, that
reverses this one and returns a Result whose ``undo`` redoes it; so an undo
command only ever alternates between two callables. Ids stay stable across
undo/redo (a purged memory comes back under its own id), so later commands
in the undo stack still find their memories.

Nothing here touches Qt: operations run on the UI thread (one short write)
or on the task manager's db lane (imports, bulk edits).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Iterable

from ..core.changes import Changes
from ..core.errors import NotFoundError
from ..core.io.plan import ImportPlan, apply_import
from ..core.memory_ops import EDITABLE, IMPORTABLE
from ..core.records import MemoryRecord
from .browser.briefs import memory_ids

SAVED_SEARCHES_KEY = "gui.saved_searches"


@dataclass(frozen=True)
class Result:
    changes: Changes
    undo: Callable[..., "Result"]
    value: object = None  # e.g. the id of a new memory
    flags: frozenset = field(default_factory=frozenset)  # extra things that changed ("saved_searches")


def merge(changes: Iterable[Changes]) -> Changes:
    """Changes | Changes for many values without the quadratic re-copying."""
    parts = {"added": {}, "updated": {}, "deleted": {}, "restored": {}, "purged": {}}
    personas, notes = False, []
    for item in changes:
        for name, seen in parts.items():
            seen.update(dict.fromkeys(getattr(item, name)))
        personas = personas or item.personas
        if item.note:
            notes.append(item.note)
    return Changes(**{k: tuple(v) for k, v in parts.items()}, personas=personas, note="; ".join(notes))


def snapshot(record: MemoryRecord) -> dict:
    """Everything needed to put a purged memory back exactly (revisions aside)."""
    return {name: getattr(record, name) for name in IMPORTABLE if hasattr(record, name)}


def _require(records: dict, ids: list[str]) -> None:
    missing = [i for i in ids if i not in records]
    if missing:
        raise NotFoundError(f"no memory with id {missing[0]!r}")


# ---- memories ---------------------------------------------------------------------------
def add_memory(store, *, fields: dict) -> Result:
    changes = store.add(**fields)
    new_id = changes.added[0]
    return Result(changes, partial(remove_memories, ids=[new_id]), value=new_id)


def remove_memories(store, *, ids: list[str]) -> Result:
    """Delete and purge (the inverse of adding); remembers the rows to re-add them."""
    ids = list(dict.fromkeys(ids))
    with store.write():
        records = store.get_many(ids)
        _require(records, ids)
        rows = [snapshot(records[i]) for i in ids]
        live = [i for i in ids if records[i].deleted_at is None]
        if live:
            store.delete(live)
        store.purge(ids)
    return Result(Changes(purged=tuple(ids)), partial(readd_memories, rows=rows))


def readd_memories(store, *, rows: list[dict]) -> Result:
    changes = store.add_many([dict(r) for r in rows], source="manual")
    return Result(changes, partial(remove_memories, ids=[r["id"] for r in rows]))


def update_memories(store, *, edits: dict[str, dict], versions: dict[str, int] | None = None,
                    reason: str = "edit") -> Result:
    """Change fields of several memories in one transaction.

    ``versions`` holds the version each edit was based on; a memory changed
    meanwhile raises ConflictError and nothing is written.
    """
    versions = versions or {}
    ids = list(edits)
    updated, after_versions, inverse = [], {}, {}
    with store.write():
        before = store.get_many(ids)
        _require(before, ids)
        for memory_id in ids:
            fields = edits[memory_id]
            record = before[memory_id]
            inverse[memory_id] = {name: getattr(record, name) for name in fields}
            changed = store.update(memory_id, expected_version=versions.get(memory_id), reason=reason, **fields)
            after_versions[memory_id] = record.version + (1 if changed else 0)
            if changed:
                updated.append(memory_id)
    return Result(Changes(updated=tuple(updated)),
                  partial(update_memories, edits=inverse, versions=after_versions, reason=reason))


def set_fields(store, *, ids: list[str], **fields) -> Result:
    """The same new values for every memory (move to a group or persona, set type...)."""
    return update_memories(store, edits={i: dict(fields) for i in dict.fromkeys(ids)})


def edit_tags(store, *, ids: list[str], add: Iterable[str] = (), remove: Iterable[str] = ()) -> Result:
    add, remove = list(add), set(remove)
    with store.write():
        records = store.get_many(ids)
        _require(records, list(ids))
        edits = {}
        for memory_id in dict.fromkeys(ids):
            old = records[memory_id].tags
            new = tuple(t for t in old if t not in remove) + tuple(t for t in add if t not in old)
            if new != old:
                edits[memory_id] = {"tags": new}
        if not edits:
            return Result(Changes(), partial(edit_tags, ids=[], add=(), remove=()))
        return update_memories(store, edits=edits)


def delete_memories(store, *, ids: list[str]) -> Result:
    changes = store.delete(list(ids))
    return Result(changes, partial(restore_memories, ids=list(changes.deleted)))


def restore_memories(store, *, ids: list[str]) -> Result:
    changes = store.restore(list(ids))
    return Result(changes, partial(delete_memories, ids=list(changes.restored)))


def purge_memories(store, *, ids: list[str]) -> Result:
    ids = list(dict.fromkeys(ids))
    with store.write():
        records = store.get_many(ids)
        _require(records, ids)
        rows = [snapshot(records[i]) for i in ids]
        changes = store.purge(ids)
    return Result(changes, partial(readd_memories, rows=rows))


def empty_trash(store) -> Result:
    return purge_memories(store, ids=memory_ids(store, state="deleted"))


def revert_to_revision(store, *, memory_id: str, revision_id: int, expected_version: int | None) -> Result:
    """Put back what a revision replaced, as an ordinary (undoable) edit."""
    revision = next((r for r in store.revisions(memory_id) if r.id == revision_id), None)
    if revision is None:
        raise NotFoundError(f"memory {memory_id} has no revision {revision_id}")
    fields = {k: v for k, v in revision.before.items() if k in EDITABLE}
    return update_memories(store, edits={memory_id: fields}, versions={memory_id: expected_version},
                           reason="restore")


def sequence(store, *, steps: list[Callable]) -> Result:
    """Several operations as one atomic step; undone in reverse order."""
    results = []
    with store.write():
        for step in steps:
            results.append(step(store))
    return Result(merge(r.changes for r in results),
                  partial(sequence, steps=[r.undo for r in reversed(results)]),
                  flags=frozenset().union(*(r.flags for r in results)) if results else frozenset())


# ---- personas ---------------------------------------------------------------------------
def create_persona(store, *, name: str, description: str = "", colour: str = "",
                   auto_save_memory: bool = True, persona_id: str | None = None) -> Result:
    new_id, changes = store.create_persona(name=name, description=description, colour=colour,
                                           auto_save_memory=auto_save_memory, id=persona_id)
    return Result(changes, partial(delete_persona, persona_id=new_id, memories="global"), value=new_id)


def update_persona(store, *, persona_id: str, **fields) -> Result:
    before = store.persona(persona_id)
    changes = store.update_persona(persona_id, **fields)
    inverse = {name: getattr(before, name) for name in fields}
    return Result(changes, partial(update_persona, persona_id=persona_id, **inverse))


def delete_persona(store, *, persona_id: str, memories: str) -> Result:
    """Delete a persona; its memories become global or go to the trash (undo brings both back)."""
    with store.write():
        persona = store.persona(persona_id)
        owned = memory_ids(store, persona=persona_id, merge_global=False, state="all")
        trashed = (set(owned) - set(memory_ids(store, persona=persona_id, merge_global=False,
                                                 state="deleted"))) if memories == "trash" else set()
        changes = store.delete_persona(persona_id, memories=memories)
    kept = {"name": persona.name, "description": persona.description, "colour": persona.colour,
            "auto_save_memory": persona.auto_save_memory}
    return Result(changes, partial(recreate_persona, persona_id=persona_id, fields=kept, owned=owned,
                                   trashed=sorted(trashed), memories=memories))


def recreate_persona(store, *, persona_id: str, fields: dict, owned: list[str], trashed: list[str],
                     memories: str) -> Result:
    parts = []
    with store.write():
        _, created = store.create_persona(id=persona_id, **fields)
        parts.append(created)
        if trashed:
            parts.append(store.restore(trashed))
        for memory_id in owned:
            parts.append(store.update(memory_id, expected_version=None, reason="restore", persona_id=persona_id))
    return Result(merge(parts), partial(delete_persona, persona_id=persona_id, memories=memories))


# ---- import -------------------------------------------------------------------------------
def import_plan(store, *, plan: ImportPlan, on_conflict: str = "skip") -> Result:
    """Apply a previewed import; undo removes what it added and puts back what it changed."""
    statuses = {"updated"} | ({"conflict"} if on_conflict == "theirs" else set())
    touched = [item for item in plan.items if item.status in statuses and item.memory_id]
    before = store.get_many([item.memory_id for item in touched])
    existing = {p.id for p in store.personas()}
    created_personas = [pid for pid in plan.new_personas if pid not in existing]
    changes = apply_import(store, plan, on_conflict=on_conflict)
    back = {}
    for item in touched:
        record = before.get(item.memory_id)
        if record is not None and item.memory_id in changes.updated:
            back[item.memory_id] = {k: getattr(record, k) for k in item.fields if k in EDITABLE}
    steps = []
    if back:
        steps.append(partial(update_memories, edits=back, reason="import"))
    if changes.added:
        steps.append(partial(remove_memories, ids=list(changes.added)))
    steps.extend(partial(delete_persona, persona_id=pid, memories="global") for pid in created_personas)
    return Result(changes, partial(sequence, steps=steps), value=len(changes.added) + len(changes.updated))


# ---- saved searches (kept in the database, beside the memories they find) --------------------
def saved_searches(store) -> list[dict]:
    value = store.setting(SAVED_SEARCHES_KEY, [])
    if not isinstance(value, list):
        return []
    return [s for s in value if isinstance(s, dict) and s.get("name") and "query" in s]


def set_saved_searches(store, *, searches: list[dict]) -> Result:
    before = saved_searches(store)
    store.set_setting(SAVED_SEARCHES_KEY, list(searches))
    return Result(Changes(), partial(set_saved_searches, searches=before), flags=frozenset({"saved_searches"}))


# ---- assistants: the tool-call log and the memory switch ------------------------------------
GLOBAL_SWITCH_KEY = "global.auto_save_memory"


def revert_tool_call(store, *, call_id: int) -> Result:
    """Undo one assistant tool call (all or nothing; run with undoable=False: the log is the history)."""
    from ..core.tools import log

    with store.write():
        changes = log.revert(call_id)
    return Result(changes, undo=None, value=call_id)


def set_global_memory_switch(store, *, on: bool) -> Result:
    """The autoSaveMemory switch for global memories (personas keep theirs on the persona)."""
    before = bool(store.setting(GLOBAL_SWITCH_KEY, True))
    store.set_setting(GLOBAL_SWITCH_KEY, bool(on))
    # personas=True: the views that show the switches refresh from the one change channel.
    return Result(Changes(personas=True), partial(set_global_memory_switch, on=before))


# ---- the review inbox (consolidation proposals) ------------------------------------------------
def merge_proposal(store, *, proposal_id: str, content: str, title: str | None = None, tags=None) -> Result:
    """Merge a proposal's memories into one (originals superseded with history; run with undoable=False)."""
    from ..core.maintenance import merge_proposal as merge_it

    merged_id, changes = merge_it(store, proposal_id, content=content, title=title, tags=tags)
    return Result(changes, undo=None, value=merged_id, flags=frozenset({"proposals"}))


def keep_both_proposal(store, *, proposal_id: str) -> Result:
    """These memories are different: the proposal goes and never comes back."""
    from ..core.maintenance import keep_both

    keep_both(store, proposal_id)
    return Result(Changes(), undo=None, value=proposal_id, flags=frozenset({"proposals"}))


def dismiss_proposal(store, *, proposal_id: str) -> Result:
    """Not now: the proposal goes (a later run may find it again)."""
    from ..core.maintenance import dismiss

    dismiss(store, proposal_id)
    return Result(Changes(), undo=None, value=proposal_id, flags=frozenset({"proposals"}))


def merge_stale_proposal(store, *, proposal_id: str, ids: list[str], content: str, title: str = "",
                         tags=None) -> Result:
    """Merge a proposal whose members were edited since, after the user confirmed (their current versions)."""
    from ..core.maintenance import dismiss, merge

    merged_id, changes = merge(store, ids, content=content, title=title, tags=tags,
                               after=lambda: dismiss(store, proposal_id))
    return Result(changes, undo=None, value=merged_id, flags=frozenset({"proposals"}))
