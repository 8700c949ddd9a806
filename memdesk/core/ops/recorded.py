"""Steps that are not a simple inverse (merges, inbox answers, tool-call reverts): their undo
puts back the state recorded before them."""

from __future__ import annotations

from functools import partial

from memdesk.core.domain.changes import Changes

from .base import (
    RESTORABLE,
    Result,
    StaleStepError,
    check_memories,
    check_setting,
    fingerprints,
    snapshot,
    update_restorable,
)

# ---- put back a recorded state (steps that are not a simple inverse: merges, inbox answers, tool reverts)
_NOT_PUT_BACK = {"access_count", "mention_count", "last_access_at", "heat", "tier"}  # an assistant's use stays


def _recorded(store, ids, keys, calls) -> dict:
    from memdesk.core.storage.models import ToolCall

    records = store.get_many(ids)
    return {
        "memories": {i: snapshot(records[i]) if i in records else None for i in ids},
        "settings": {k: store.setting(k, None) for k in keys},
        "calls": {c: ToolCall.get_by_id(c).reverted_at for c in calls},
    }


def _left(store, state: dict) -> dict:
    return {
        "memories": fingerprints(store, state["memories"]),
        "settings": dict(state["settings"]),
        "calls": dict(state["calls"]),
    }


def put_back(store, *, state: dict, expect: dict) -> Result:
    """Make memories, settings and tool-call marks what ``state`` recorded (None: absent)."""
    from memdesk.core.storage.models import Setting, ToolCall

    with store.write():
        check_memories(store, expect["memories"])
        for key, value in expect["settings"].items():
            check_setting(store, key, value)
        now = _recorded(store, list(state["memories"]), list(state["settings"]), list(state["calls"]))
        for call_id, value in expect["calls"].items():
            if now["calls"][call_id] != value:
                raise StaleStepError("tool call", str(call_id), ["it was reverted or put back"])
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
                if update_restorable(store, memory_id, fields, reason="restore"):
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
    return Result(
        Changes(added=tuple(added), updated=tuple(updated), purged=tuple(gone)),
        partial(put_back, state=now, expect=left),
        flags=frozenset({"proposals"}),
    )


def _recorded_step(store, run, *, ids=(), keys=(), calls=()) -> Result:
    """Run ``run() -> (value, Changes)`` in one write; its undo puts back what it touched."""
    with store.write():
        before = _recorded(store, list(ids), list(keys), list(calls))
        value, changes = run()
        for memory_id in changes.memory_ids:
            before["memories"].setdefault(memory_id, None)  # new (a merge's result): absent before
        after = _recorded(store, list(before["memories"]), list(keys), list(calls))
        left = _left(store, after)
    return Result(changes, partial(put_back, state=before, expect=left), value=value, flags=frozenset({"proposals"}))


def revert_tool_call(store, *, call_id: int) -> Result:
    """Undo one assistant tool call (all or nothing). Its own undo puts the call's effects back
    and clears the call's 'reverted' mark."""
    import json

    from memdesk.core.storage.models import ToolCall
    from memdesk.core.tools import log

    row = ToolCall.get_or_none(ToolCall.id == call_id)
    ids = [e["id"] for e in json.loads(row.effects)] if row is not None else []
    return _recorded_step(store, lambda: (call_id, log.revert(call_id)), ids=ids, calls=[call_id])


# ---- the review inbox (consolidation proposals) ------------------------------------------------
def _proposal_members(store, proposal_id: str) -> list[str]:
    from memdesk.core.maintenance.consolidation import PROPOSALS_KEY

    for p in store.setting(PROPOSALS_KEY, []) or []:
        if isinstance(p, dict) and p.get("id") == proposal_id:
            return list(p.get("memory_ids") or [])
    return []


def _inbox_keys():
    from memdesk.core.maintenance.consolidation import KEPT_KEY, PROPOSALS_KEY

    return [PROPOSALS_KEY, KEPT_KEY]


def merge_proposal(store, *, proposal_id: str, content: str, title: str | None = None, tags=None) -> Result:
    """Merge a proposal's memories into one (originals superseded with history); undo takes the
    merged memory away, un-supersedes the originals and puts the proposal back."""
    from memdesk.core.maintenance import merge_proposal as merge_it

    return _recorded_step(
        store,
        lambda: merge_it(store, proposal_id, content=content, title=title, tags=tags),
        ids=_proposal_members(store, proposal_id),
        keys=_inbox_keys(),
    )


def _answer(store, proposal_id: str, answer) -> Result:
    """An inbox answer that changes no memory, only the inbox's settings."""

    def run():
        answer(store, proposal_id)
        return proposal_id, Changes()

    return _recorded_step(store, run, keys=_inbox_keys())


def keep_both_proposal(store, *, proposal_id: str) -> Result:
    """These memories are different: the proposal goes and never comes back (until undone)."""
    from memdesk.core.maintenance import keep_both

    return _answer(store, proposal_id, keep_both)


def dismiss_proposal(store, *, proposal_id: str) -> Result:
    """Not now: the proposal goes (a later run may find it again)."""
    from memdesk.core.maintenance import dismiss

    return _answer(store, proposal_id, dismiss)


def merge_stale_proposal(
    store, *, proposal_id: str, ids: list[str], content: str, title: str = "", tags=None
) -> Result:
    """Merge a proposal whose members were edited since, after the user confirmed (their current versions)."""
    from memdesk.core.maintenance import dismiss, merge

    return _recorded_step(
        store,
        lambda: merge(store, ids, content=content, title=title, tags=tags, after=lambda: dismiss(store, proposal_id)),
        ids=ids,
        keys=_inbox_keys(),
    )
