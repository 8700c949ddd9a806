"""Operations on memories: add, edit, tag, delete, restore, purge, revert to a revision."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import NotFoundError
from memdesk.core.views.listing import memory_ids
from memdesk.core.writes.memories import EDITABLE

from .base import (
    ABSENT,
    Result,
    check_memories,
    fingerprint,
    fingerprints,
    require_memories,
    snapshot,
    update_restorable,
)


# ---- memories ---------------------------------------------------------------------------
def add_memory(store, *, fields: dict) -> Result:
    with store.write():
        changes = store.add(**fields)
        new_id = changes.added[0]
        left = fingerprints(store, [new_id])
    return Result(changes, partial(remove_memories, ids=[new_id], expect=left), value=new_id)


def _rows_to_readd(store, ids: list[str], expect: dict | None) -> tuple[dict, list[dict]]:
    """(records, their snapshots) of ``ids`` once the step is known not to be stale; inside a write."""
    check_memories(store, expect)
    records = store.get_many(ids)
    require_memories(records, ids)
    return records, [snapshot(records[i]) for i in ids]


def remove_memories(store, *, ids: list[str], expect: dict | None = None) -> Result:
    """Delete and purge (the inverse of adding); remembers the rows to re-add them."""
    ids = list(dict.fromkeys(ids))
    with store.write():
        records, rows = _rows_to_readd(store, ids, expect)
        live = [i for i in ids if records[i].deleted_at is None]
        if live:
            store.delete(live)
        store.purge(ids)
    return Result(Changes(purged=tuple(ids)), partial(readd_memories, rows=rows))


def readd_memories(store, *, rows: list[dict]) -> Result:
    ids = [r["id"] for r in rows]
    with store.write():
        check_memories(store, dict.fromkeys(ids, ABSENT))
        changes = store.add_many([dict(r) for r in rows], source="manual")
        left = fingerprints(store, ids)
    return Result(changes, partial(remove_memories, ids=ids, expect=left))


def update_memories(
    store,
    *,
    edits: dict[str, dict],
    versions: dict[str, int | None] | None = None,
    expect: dict | None = None,
    reason: str = "edit",
) -> Result:
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
        require_memories(before, ids)
        for memory_id in ids:
            fields = edits[memory_id]
            record = before[memory_id]
            back = {name: getattr(record, name) for name in fields}
            if "importance" in fields or "importance_set" in fields:
                # setting importance marks it chosen by hand, unsetting re-estimates it: undo puts both back
                back["importance"], back["importance_set"] = record.importance, record.importance_set
            inverse[memory_id] = back
            if update_restorable(store, memory_id, fields, expected_version=versions.get(memory_id), reason=reason):
                updated.append(memory_id)
        left = fingerprints(store, ids)
    return Result(Changes(updated=tuple(updated)), partial(update_memories, edits=inverse, expect=left, reason=reason))


def set_fields(store, *, ids: list[str], **fields) -> Result:
    """The same new values for every memory (move to a group or persona, set type...)."""
    return update_memories(store, edits={i: dict(fields) for i in dict.fromkeys(ids)})


def edit_tags(store, *, ids: list[str], add: Iterable[str] = (), remove: Iterable[str] = ()) -> Result:
    add, remove = list(add), set(remove)
    with store.write():
        records = store.get_many(ids)
        require_memories(records, list(ids))
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
            update_restorable(store, memory_id, fields, reason="restore")
        changes = store.delete(list(ids))
        left = fingerprints(store, changes.deleted)
    return Result(changes, partial(restore_memories, ids=list(changes.deleted), expect=left))


def restore_memories(store, *, ids: list[str], expect: dict | None = None) -> Result:
    with store.write():
        check_memories(store, expect)
        before = store.get_many(ids)
        changes = store.restore(list(ids))
        after = store.get_many(changes.restored)
        cleared = {
            i: {"expires_at": before[i].expires_at}
            for i in changes.restored
            if after[i].expires_at != before[i].expires_at
        }
        left = {i: fingerprint(after[i]) for i in changes.restored}
    return Result(changes, partial(delete_memories, ids=list(changes.restored), expect=left, put_back=cleared))


def purge_memories(store, *, ids: list[str], expect: dict | None = None) -> Result:
    ids = list(dict.fromkeys(ids))
    with store.write():
        _records, rows = _rows_to_readd(store, ids, expect)
        changes = store.purge(ids)
    return Result(changes, partial(readd_memories, rows=rows))


def empty_trash(store) -> Result:
    return purge_memories(store, ids=memory_ids(store, state="deleted"))


def revert_to_revision(store, *, memory_id: str, revision_id: int, expected_version: int | None) -> Result:
    """Put back what a revision replaced, as an ordinary (undoable) edit."""
    revision = next((r for r in store.revisions(memory_id) if r.id == revision_id), None)
    if revision is None:
        raise NotFoundError(code="no_revision", id=memory_id, revision=revision_id)
    fields = {k: v for k, v in revision.before.items() if k in EDITABLE}
    return update_memories(store, edits={memory_id: fields}, versions={memory_id: expected_version}, reason="restore")
