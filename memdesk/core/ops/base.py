"""What every operation shares: Result, the stale-step check (fingerprints) and sequence.

See the package docstring for how an operation and its inverse work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import ConflictError, MemDeskError, NotFoundError
from memdesk.core.domain.records import MemoryRecord
from memdesk.core.views.listing import memory_ids
from memdesk.core.writes import memories as memory_writes
from memdesk.core.writes.memories import EDITABLE, IMPORTABLE

SAVED_SEARCHES_KEY = "gui.saved_searches"
# What a memory's fingerprint compares (plus "in the trash"): everything a person sees or sets.
VISIBLE = EDITABLE + ("importance_set", "superseded_by")
# Fields an undo may write back on an existing memory (allowed by memory_writes.update).
RESTORABLE = tuple(name for name in IMPORTABLE if name not in ("id", "created_at"))
PERSONA_FIELDS = ("name", "description", "colour", "auto_save_memory")
ABSENT = None  # the fingerprint of a memory or persona that does not exist


@dataclass(frozen=True)
class Result:
    changes: Changes
    undo: Callable[..., Result] | None
    value: object = None  # e.g. the id of a new memory
    flags: frozenset = field(default_factory=frozenset)  # extra things that changed ("saved_searches")


class StaleStepError(ConflictError):
    """An undo/redo step found a memory (persona, setting) not as the step left it; nothing was written."""

    def __init__(self, kind: str, key: str, differences: list[str], current=None, *, title: str = ""):
        """``kind``: what changed ("memory", "persona", "tool call", "setting"), ``key`` its id."""
        self.memory_id = key
        self.expected_version = None
        self.current = current
        self.differences = differences
        version = f"; the store has version {current.version}" if isinstance(current, MemoryRecord) else ""
        detail = "; ".join(differences) + version
        MemDeskError.__init__(self, code="step_stale", kind=kind, key=key, title=title, detail=detail)


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


def require_memories(records: dict, ids: list[str]) -> None:
    missing = [i for i in ids if i not in records]
    if missing:
        raise NotFoundError(code="no_memory", id=missing[0])


# ---- fingerprints: "is this still as the step left it?" --------------------------------------
def fingerprint(record: MemoryRecord | None) -> tuple | None:
    if record is None:
        return ABSENT
    return tuple(getattr(record, name) for name in VISIBLE) + (record.deleted_at is not None,)


def fingerprints(store, ids: Iterable[str]) -> dict[str, tuple | None]:
    ids = list(dict.fromkeys(ids))
    found = store.get_many(ids)
    return {i: fingerprint(found.get(i)) for i in ids}


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…'"


def _differences(expected: tuple | None, current: tuple | None) -> list[str]:
    if expected is ABSENT:
        return ["it exists again"]
    if current is ABSENT:
        return ["it no longer exists"]
    names = VISIBLE + ("in the trash",)
    return [
        f"{name}: this step left {_short(a)}, the store has {_short(b)}"
        for name, a, b in zip(names, expected, current)
        if a != b
    ]


def check_memories(store, expect: dict[str, tuple | None] | None) -> None:
    """Raise StaleStepError unless every memory is as ``expect`` says (call inside the write)."""
    if not expect:
        return
    found = store.get_many(list(expect))
    for memory_id, expected in expect.items():
        record = found.get(memory_id)
        if fingerprint(record) != expected:
            title = record.display_title if record is not None else ""
            differences = _differences(expected, fingerprint(record))
            raise StaleStepError("memory", memory_id, differences, record, title=title)


def persona_fingerprint(store, persona_id: str) -> tuple | None:
    try:
        persona = store.persona(persona_id)
    except NotFoundError:
        return ABSENT
    return tuple(getattr(persona, name) for name in PERSONA_FIELDS)


def check_persona(store, persona_id: str, expected) -> None:
    current = persona_fingerprint(store, persona_id)
    if current != expected:
        if current is ABSENT:
            differences = ["it no longer exists"]
        elif expected is ABSENT:
            differences = ["it exists again"]
        else:
            differences = [
                f"{name}: this step left {_short(a)}, the store has {_short(b)}"
                for name, a, b in zip(PERSONA_FIELDS, expected, current)
                if a != b
            ]
        raise StaleStepError("persona", persona_id, differences)


def persona_memory_ids(store, persona_id: str) -> list[str]:
    return memory_ids(store, persona=persona_id, merge_global=False, state="all")


def update_restorable(store, memory_id: str, fields: dict, *, expected_version=None, reason: str = "edit") -> Changes:
    """store.update that may also put back importance_set and the other stored fields an undo needs."""
    with store.write():
        return memory_writes.update(
            memory_id, fields, expected_version=expected_version, reason=reason, allowed=RESTORABLE
        )


def check_setting(store, key: str, expect) -> None:
    current = store.setting(key, None)
    if current != expect:
        raise StaleStepError("setting", key, [f"this step left {_short(expect)}, the store has {_short(current)}"])


def sequence(store, *, steps: list[Callable]) -> Result:
    """Several operations as one atomic step; undone in reverse order."""
    results = []
    with store.write():
        for step in steps:
            results.append(step(store))
    return Result(
        merge(r.changes for r in results),
        partial(sequence, steps=[r.undo for r in reversed(results)]),
        flags=frozenset().union(*(r.flags for r in results)) if results else frozenset(),
    )
