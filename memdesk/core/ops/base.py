"""Every change the window makes to the store, each returning its own inverse.

An operation is a small keyword-only function ``op(store, **args) -> Result``.
``Result.undo`` is another operation, already bound to its arguments, that
reverses this one and returns a Result whose ``undo`` redoes it; so an undo
command only ever alternates between two callables. Ids stay stable across
undo/redo (a purged memory comes back under its own id), so later commands
in the undo stack still find their memories.

How an undo/redo step knows the store is still as it left it: each inverse
carries ``expect``, the *fingerprint* of every memory (and persona, setting)
it will touch, taken right after the step ran: the fields a person can see
(EDITABLE, importance_set, superseded_by and whether it is in the trash), not
the version counter. Why not versions: undoing a later step puts the same
fields back but bumps the version again, so a version-based step deeper in the
stack would always look stale (the bug in issue 14); and carrying new versions
forward would have to rewrite every other command in the stack. A fingerprint
is the same after any exact undo/redo of later steps, so undo works to any
depth, while any visible change by another process (or by something outside
the undo history: an assistant, maintenance) still makes the step refuse with
StaleStepError, before anything is written. Access counters, heat and times are
left out: an assistant's search must not make the history unusable.

Nothing here touches Qt: the window runs operations on the UI thread (one
short write) or on the task manager's db lane (imports, bulk edits), and keeps
the Results on its undo stack (gui/undo.py).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from . import memory_ops
from .changes import Changes
from .errors import ConflictError, MemDeskError, NotFoundError
from .io.personas import ALIASES_KEY
from .io.plan import ImportPlan, apply_import
from .listing import memory_ids
from .memory_ops import EDITABLE, IMPORTABLE
from .records import MemoryRecord

SAVED_SEARCHES_KEY = "gui.saved_searches"
# What a memory's fingerprint compares (plus "in the trash"): everything a person sees or sets.
VISIBLE = EDITABLE + ("importance_set", "superseded_by")
# Fields an undo may write back on an existing memory (allowed by memory_ops.update).
RESTORABLE = tuple(name for name in IMPORTABLE if name not in ("id", "created_at"))
PERSONA_FIELDS = ("name", "description", "colour", "auto_save_memory")
_ABSENT = None  # the fingerprint of a memory or persona that does not exist


@dataclass(frozen=True)
class Result:
    changes: Changes
    undo: Callable[..., Result] | None
    value: object = None  # e.g. the id of a new memory
    flags: frozenset = field(default_factory=frozenset)  # extra things that changed ("saved_searches")


class StaleStepError(ConflictError):
    """An undo/redo step found a memory (persona, setting) not as the step left it; nothing was written."""

    def __init__(self, what: str, key: str, differences: list[str], current=None):
        self.memory_id = key
        self.expected_version = None
        self.current = current
        self.differences = differences
        version = f"; the store has version {current.version}" if isinstance(current, MemoryRecord) else ""
        MemDeskError.__init__(
            self, f"{what} was changed elsewhere since this step ({'; '.join(differences)}{version}); "
                  "nothing was changed")


def merge(changes: Iterable[Changes]) -> Changes:
    """Changes | Changes for many values without the quadratic re-copying."""
    parts: dict[str, dict[str, None]] = {"added": {}, "updated": {}, "deleted": {}, "restored": {}, "purged": {}}
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


# ---- fingerprints: "is this still as the step left it?" --------------------------------------
def fingerprint(record: MemoryRecord | None) -> tuple | None:
    if record is None:
        return _ABSENT
    return tuple(getattr(record, name) for name in VISIBLE) + (record.deleted_at is not None,)


def fingerprints(store, ids: Iterable[str]) -> dict[str, tuple | None]:
    ids = list(dict.fromkeys(ids))
    found = store.get_many(ids)
    return {i: fingerprint(found.get(i)) for i in ids}


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…'"


def _differences(expected: tuple | None, current: tuple | None) -> list[str]:
    if expected is _ABSENT:
        return ["it exists again"]
    if current is _ABSENT:
        return ["it no longer exists"]
    names = VISIBLE + ("in the trash",)
    return [f"{name}: this step left {_short(a)}, the store has {_short(b)}"
            for name, a, b in zip(names, expected, current) if a != b]


def check_memories(store, expect: dict[str, tuple | None] | None) -> None:
    """Raise StaleStepError unless every memory is as ``expect`` says (call inside the write)."""
    if not expect:
        return
    found = store.get_many(list(expect))
    for memory_id, expected in expect.items():
        record = found.get(memory_id)
        if fingerprint(record) != expected:
            title = record.display_title if record is not None else ""
            what = f"memory {memory_id}" + (f" “{title}”" if title else "")
            raise StaleStepError(what, memory_id, _differences(expected, fingerprint(record)), record)


def persona_fingerprint(store, persona_id: str) -> tuple | None:
    try:
        persona = store.persona(persona_id)
    except NotFoundError:
        return _ABSENT
    return tuple(getattr(persona, name) for name in PERSONA_FIELDS)


def check_persona(store, persona_id: str, expected) -> None:
    current = persona_fingerprint(store, persona_id)
    if current != expected:
        if current is _ABSENT:
            differences = ["it no longer exists"]
        elif expected is _ABSENT:
            differences = ["it exists again"]
        else:
            differences = [f"{name}: this step left {_short(a)}, the store has {_short(b)}"
                           for name, a, b in zip(PERSONA_FIELDS, expected, current) if a != b]
        raise StaleStepError(f"persona {persona_id}", persona_id, differences)


def _owned(store, persona_id: str) -> list[str]:
    return memory_ids(store, persona=persona_id, merge_global=False, state="all")


def _update(store, memory_id: str, fields: dict, *, expected_version=None, reason: str = "edit") -> Changes:
    """store.update that may also put back importance_set and the other stored fields an undo needs."""
    with store.write():
        return memory_ops.update(memory_id, fields, expected_version=expected_version, reason=reason,
                                 allowed=RESTORABLE)


# ---- memories ---------------------------------------------------------------------------
def add_memory(store, *, fields: dict) -> Result:
    with store.write():
        changes = store.add(**fields)
        new_id = changes.added[0]
        left = fingerprints(store, [new_id])
    return Result(changes, partial(remove_memories, ids=[new_id], expect=left), value=new_id)


def remove_memories(store, *, ids: list[str], expect: dict | None = None) -> Result:
    """Delete and purge (the inverse of adding); remembers the rows to re-add them."""
    ids = list(dict.fromkeys(ids))
    with store.write():
        check_memories(store, expect)
        records = store.get_many(ids)
        _require(records, ids)
        rows = [snapshot(records[i]) for i in ids]
        live = [i for i in ids if records[i].deleted_at is None]
        if live:
            store.delete(live)
        store.purge(ids)
    return Result(Changes(purged=tuple(ids)), partial(readd_memories, rows=rows))


def readd_memories(store, *, rows: list[dict]) -> Result:
    ids = [r["id"] for r in rows]
    with store.write():
        check_memories(store, dict.fromkeys(ids, _ABSENT))
        changes = store.add_many([dict(r) for r in rows], source="manual")
        left = fingerprints(store, ids)
    return Result(changes, partial(remove_memories, ids=ids, expect=left))


def update_memories(store, *, edits: dict[str, dict], versions: dict[str, int | None] | None = None,
                    expect: dict | None = None, reason: str = "edit") -> Result:
    """Change fields of several memories in one transaction.

    ``versions`` holds the version each edit was based on (the editor's save);
    ``expect`` the fingerprints an undo/redo step left. A memory changed
    meanwhile raises ConflictError and nothing is written.
    """
    versions = versions or {}
    ids = list(edits)
    updated, inverse = [], {}
    with store.write():
        check_memories(store, expect)
        before = store.get_many(ids)
        _require(before, ids)
        for memory_id in ids:
            fields = edits[memory_id]
            record = before[memory_id]
            back = {name: getattr(record, name) for name in fields}
            if "importance" in fields:  # setting importance marks it chosen by hand; undo puts that back too
                back["importance_set"] = record.importance_set
            inverse[memory_id] = back
            if _update(store, memory_id, fields, expected_version=versions.get(memory_id), reason=reason):
                updated.append(memory_id)
        left = fingerprints(store, ids)
    return Result(Changes(updated=tuple(updated)),
                  partial(update_memories, edits=inverse, expect=left, reason=reason))


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


def delete_memories(store, *, ids: list[str], expect: dict | None = None, put_back: dict | None = None) -> Result:
    """To the trash. ``put_back``: fields a restore cleared (an expired expiry), set again first."""
    with store.write():
        check_memories(store, expect)
        for memory_id, fields in (put_back or {}).items():
            _update(store, memory_id, fields, reason="restore")
        changes = store.delete(list(ids))
        left = fingerprints(store, changes.deleted)
    return Result(changes, partial(restore_memories, ids=list(changes.deleted), expect=left))


def restore_memories(store, *, ids: list[str], expect: dict | None = None) -> Result:
    with store.write():
        check_memories(store, expect)
        before = store.get_many(ids)
        changes = store.restore(list(ids))
        after = store.get_many(changes.restored)
        cleared = {i: {"expires_at": before[i].expires_at} for i in changes.restored
                   if after[i].expires_at != before[i].expires_at}
        left = {i: fingerprint(after[i]) for i in changes.restored}
    return Result(changes, partial(delete_memories, ids=list(changes.restored), expect=left, put_back=cleared))


def purge_memories(store, *, ids: list[str], expect: dict | None = None) -> Result:
    ids = list(dict.fromkeys(ids))
    with store.write():
        check_memories(store, expect)
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
    with store.write():
        new_id, changes = store.create_persona(name=name, description=description, colour=colour,
                                               auto_save_memory=auto_save_memory, id=persona_id)
        left: tuple = (persona_fingerprint(store, new_id), {})  # a new persona owns no memories
    return Result(changes, partial(delete_persona, persona_id=new_id, memories="global", expect=left),
                  value=new_id)


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
        owned = _owned(store, persona_id)
        if expect is not None:
            persona_left, memories_left = expect
            check_persona(store, persona_id, persona_left)
            extra = sorted(set(owned) - set(memories_left))
            if extra:
                raise StaleStepError(f"persona {persona_id}", persona_id,
                                     [f"memory {extra[0]} was moved to it"])
            check_memories(store, memories_left)
        persona = store.persona(persona_id)
        trashed = (set(owned) - set(memory_ids(store, persona=persona_id, merge_global=False,
                                                 state="deleted"))) if memories == "trash" else set()
        changes = store.delete_persona(persona_id, memories=memories)
        left = fingerprints(store, owned)
    kept = {"name": persona.name, "description": persona.description, "colour": persona.colour,
            "auto_save_memory": persona.auto_save_memory}
    return Result(changes, partial(recreate_persona, persona_id=persona_id, fields=kept, owned=owned,
                                   trashed=sorted(trashed), memories=memories, expect=left))


def recreate_persona(store, *, persona_id: str, fields: dict, owned: list[str], trashed: list[str],
                     memories: str, expect: dict | None = None) -> Result:
    parts = []
    with store.write():
        check_persona(store, persona_id, _ABSENT)
        check_memories(store, expect)
        _, created = store.create_persona(id=persona_id, **fields)
        parts.append(created)
        if trashed:
            parts.append(store.restore(trashed))
        for memory_id in owned:
            parts.append(store.update(memory_id, expected_version=None, reason="restore", persona_id=persona_id))
        left = (persona_fingerprint(store, persona_id), fingerprints(store, owned))
    return Result(merge(parts), partial(delete_persona, persona_id=persona_id, memories=memories, expect=left))


# ---- import -------------------------------------------------------------------------------
def import_plan(store, *, plan: ImportPlan, on_conflict: str = "skip") -> Result:
    """Apply a previewed import; undo removes what it added and puts back what it changed."""
    statuses = {"updated"} | ({"conflict"} if on_conflict == "theirs" else set())
    touched = [item for item in plan.items if item.status in statuses and item.memory_id]
    before = store.get_many([item.memory_id for item in touched])
    existing = {p.id for p in store.personas()}
    created_personas = [pid for pid in plan.new_personas if pid not in existing]
    aliases_before = store.setting(ALIASES_KEY, None)
    changes = apply_import(store, plan, on_conflict=on_conflict)
    with store.write():  # what the import left, read before anyone else can write
        back = {}
        for item in touched:
            record = before.get(item.memory_id)
            if record is not None and item.memory_id in changes.updated:
                back[item.memory_id] = {k: getattr(record, k) for k in item.fields if k in RESTORABLE}
        steps: list[Callable[..., Result]] = []
        aliases_left = store.setting(ALIASES_KEY, None)
        if aliases_left != aliases_before:  # undo forgets the persona choices this import remembered
            steps.append(partial(set_import_aliases, value=aliases_before, expect=aliases_left))
        if back:
            steps.append(partial(update_memories, edits=back, reason="import",
                                 expect=fingerprints(store, back)))
        if changes.added:
            steps.append(partial(remove_memories, ids=list(changes.added),
                                 expect=fingerprints(store, changes.added)))
        # By the time these run, the steps above took the persona's memories away again.
        steps.extend(partial(delete_persona, persona_id=pid, memories="global",
                             expect=(persona_fingerprint(store, pid), {})) for pid in created_personas)
    return Result(changes, partial(sequence, steps=steps), value=len(changes.added) + len(changes.updated))


def set_import_aliases(store, *, value, expect=...) -> Result:
    """Put the remembered persona choices of imports (source id -> persona) back to ``value``."""
    with store.write():
        if expect is not ...:
            _check_setting(store, ALIASES_KEY, expect)
        before = store.setting(ALIASES_KEY, None)
        store.set_setting(ALIASES_KEY, value if value is not None else {})
        left = store.setting(ALIASES_KEY, None)
    return Result(Changes(), partial(set_import_aliases, value=before, expect=left))


# ---- saved searches (kept in the database, beside the memories they find) --------------------
def saved_searches(store) -> list[dict]:
    value = store.setting(SAVED_SEARCHES_KEY, [])
    if not isinstance(value, list):
        return []
    return [s for s in value if isinstance(s, dict) and s.get("name") and "query" in s]


def _check_setting(store, key: str, expect) -> None:
    current = store.setting(key, None)
    if current != expect:
        raise StaleStepError(f"setting {key}", key, [f"this step left {_short(expect)}, "
                                                     f"the store has {_short(current)}"])


def set_saved_searches(store, *, searches: list[dict], expect=...) -> Result:
    with store.write():
        if expect is not ...:
            _check_setting(store, SAVED_SEARCHES_KEY, expect)
        before = store.setting(SAVED_SEARCHES_KEY, None)
        store.set_setting(SAVED_SEARCHES_KEY, list(searches))
        left = store.setting(SAVED_SEARCHES_KEY, None)
    return Result(Changes(), partial(set_saved_searches, searches=before if before is not None else [], expect=left),
                  flags=frozenset({"saved_searches"}))


# ---- put back a recorded state (steps that are not a simple inverse: merges, inbox answers, tool reverts)
_NOT_PUT_BACK = {"access_count", "mention_count", "last_access_at", "heat", "tier"}  # an assistant's use stays


def _recorded(store, ids, keys, calls) -> dict:
    from .models import ToolCall

    records = store.get_many(ids)
    return {"memories": {i: snapshot(records[i]) if i in records else None for i in ids},
            "settings": {k: store.setting(k, None) for k in keys},
            "calls": {c: ToolCall.get_by_id(c).reverted_at for c in calls}}


def _left(store, state: dict) -> dict:
    return {"memories": fingerprints(store, state["memories"]), "settings": dict(state["settings"]),
            "calls": dict(state["calls"])}


def put_back(store, *, state: dict, expect: dict) -> Result:
    """Make memories, settings and tool-call marks what ``state`` recorded (None: absent)."""
    from .models import Setting, ToolCall

    with store.write():
        check_memories(store, expect["memories"])
        for key, value in expect["settings"].items():
            _check_setting(store, key, value)
        now = _recorded(store, list(state["memories"]), list(state["settings"]), list(state["calls"]))
        for call_id, value in expect["calls"].items():
            if now["calls"][call_id] != value:
                raise StaleStepError(f"tool call {call_id}", str(call_id), ["it was reverted or put back"])
        gone = [i for i, row in state["memories"].items() if row is None and now["memories"][i] is not None]
        if gone:
            live = [i for i in gone if now["memories"][i]["deleted_at"] is None]
            if live:
                store.delete(live)
            store.purge(gone)
        updated = []
        for memory_id, row in state["memories"].items():
            if row is not None and now["memories"][memory_id] is not None:
                fields = {k: v for k, v in row.items() if k in RESTORABLE and k not in _NOT_PUT_BACK}
                if _update(store, memory_id, fields, reason="restore"):
                    updated.append(memory_id)
        back = [dict(row) for i, row in state["memories"].items() if row is not None and now["memories"][i] is None]
        added = store.add_many(back, source="manual").added if back else ()
        for key, value in state["settings"].items():
            if value is None:
                Setting.delete().where(Setting.key == key).execute()
            else:
                store.set_setting(key, value)
        for call_id, value in state["calls"].items():
            ToolCall.update(reverted_at=value).where(ToolCall.id == call_id).execute()
        left = _left(store, state)
    return Result(Changes(added=tuple(added), updated=tuple(updated), purged=tuple(gone)),
                  partial(put_back, state=now, expect=left), flags=frozenset({"proposals"}))


def _recorded_step(store, run, *, ids=(), keys=(), calls=()) -> Result:
    """Run ``run() -> (value, Changes)`` in one write; its undo puts back what it touched."""
    with store.write():
        before = _recorded(store, list(ids), list(keys), list(calls))
        value, changes = run()
        for memory_id in changes.memory_ids:
            before["memories"].setdefault(memory_id, None)  # new (a merge's result): absent before
        after = _recorded(store, list(before["memories"]), list(keys), list(calls))
        left = _left(store, after)
    return Result(changes, partial(put_back, state=before, expect=left), value=value,
                  flags=frozenset({"proposals"}))


# ---- assistants: the tool-call log and the memory switch ------------------------------------
GLOBAL_SWITCH_KEY = "global.auto_save_memory"


def revert_tool_call(store, *, call_id: int) -> Result:
    """Undo one assistant tool call (all or nothing). Its own undo puts the call's effects back
    and clears the call's 'reverted' mark."""
    import json

    from .models import ToolCall
    from .tools import log

    row = ToolCall.get_or_none(ToolCall.id == call_id)
    ids = [e["id"] for e in json.loads(row.effects)] if row is not None else []
    return _recorded_step(store, lambda: (call_id, log.revert(call_id)), ids=ids, calls=[call_id])


def set_global_memory_switch(store, *, on: bool, expect=...) -> Result:
    """The autoSaveMemory switch for global memories (personas keep theirs on the persona)."""
    with store.write():
        if expect is not ...:
            _check_setting(store, GLOBAL_SWITCH_KEY, expect)
        before = bool(store.setting(GLOBAL_SWITCH_KEY, True))
        store.set_setting(GLOBAL_SWITCH_KEY, bool(on))
    # personas=True: the views that show the switches refresh from the one change channel.
    return Result(Changes(personas=True), partial(set_global_memory_switch, on=before, expect=bool(on)))


# ---- the review inbox (consolidation proposals) ------------------------------------------------
def _proposal_members(store, proposal_id: str) -> list[str]:
    from .maintenance.consolidation import PROPOSALS_KEY

    for p in store.setting(PROPOSALS_KEY, []) or []:
        if isinstance(p, dict) and p.get("id") == proposal_id:
            return list(p.get("memory_ids") or [])
    return []


def _inbox_keys():
    from .maintenance.consolidation import KEPT_KEY, PROPOSALS_KEY

    return [PROPOSALS_KEY, KEPT_KEY]


def merge_proposal(store, *, proposal_id: str, content: str, title: str | None = None, tags=None) -> Result:
    """Merge a proposal's memories into one (originals superseded with history); undo takes the
    merged memory away, un-supersedes the originals and puts the proposal back."""
    from .maintenance import merge_proposal as merge_it

    return _recorded_step(store, lambda: merge_it(store, proposal_id, content=content, title=title, tags=tags),
                          ids=_proposal_members(store, proposal_id), keys=_inbox_keys())


def keep_both_proposal(store, *, proposal_id: str) -> Result:
    """These memories are different: the proposal goes and never comes back (until undone)."""
    from .maintenance import keep_both

    def run():
        keep_both(store, proposal_id)
        return proposal_id, Changes()

    return _recorded_step(store, run,
                          keys=_inbox_keys())


def dismiss_proposal(store, *, proposal_id: str) -> Result:
    """Not now: the proposal goes (a later run may find it again)."""
    from .maintenance import dismiss

    def run():
        dismiss(store, proposal_id)
        return proposal_id, Changes()

    return _recorded_step(store, run,
                          keys=_inbox_keys())


def merge_stale_proposal(store, *, proposal_id: str, ids: list[str], content: str, title: str = "",
                         tags=None) -> Result:
    """Merge a proposal whose members were edited since, after the user confirmed (their current versions)."""
    from .maintenance import dismiss, merge

    return _recorded_step(store, lambda: merge(store, ids, content=content, title=title, tags=tags,
                                               after=lambda: dismiss(store, proposal_id)),
                          ids=ids, keys=_inbox_keys())
