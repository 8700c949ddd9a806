"""The tool-call log: what each assistant call did, and reverting it.

Each entry keeps the arguments, the result and its effects — which memories
it added, updated, deleted or restored, with the version it left them at —
so a revert can undo exactly that call and refuses to overwrite later edits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import MemDeskError, NotFoundError
from memdesk.core.domain.times import now_utc, to_iso
from memdesk.core.storage.models import Memory, Revision, ToolCall
from memdesk.core.writes import memories as memory_writes


@dataclass(frozen=True)
class ToolCallRecord:
    id: int
    at: datetime
    persona_id: str | None
    client: str
    tool: str
    arguments: dict
    result: dict
    ok: bool
    effects: list
    reverted_at: datetime | None

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "at": to_iso(self.at),
            "persona_id": self.persona_id,
            "client": self.client,
            "tool": self.tool,
            "arguments": self.arguments,
            "result": self.result,
            "ok": self.ok,
            "effects": self.effects,
            "reverted_at": to_iso(self.reverted_at),
        }


def effects_of(changes: Changes) -> list[dict]:
    """Describe a call's Changes with the state it left each memory in."""
    effects = []
    for action in ("added", "updated", "deleted", "restored"):
        for memory_id in getattr(changes, action):
            row = Memory.get_or_none(Memory.id == memory_id)
            revision = (
                Revision.select(Revision.id).where(Revision.memory == memory_id).order_by(Revision.id.desc()).first()
            )
            effects.append(
                {
                    "id": memory_id,
                    "action": action,
                    "version": row.version if row else None,
                    "revision": revision.id if (revision and action == "updated") else None,
                }
            )
    return effects


def record(*, tool: str, persona_id, client: str, arguments, result, ok: bool, effects) -> int:
    row = ToolCall.create(
        at=now_utc(),
        persona_id=persona_id,
        client=client or "",
        tool=tool,
        arguments=json.dumps(arguments, ensure_ascii=False, default=str),
        result=json.dumps(result, ensure_ascii=False, default=str),
        ok=ok,
        effects=json.dumps(effects, ensure_ascii=False),
    )
    return row.id


def _to_record(row: ToolCall) -> ToolCallRecord:
    return ToolCallRecord(
        row.id,
        row.at,
        row.persona_id,
        row.client,
        row.tool,
        json.loads(row.arguments),
        json.loads(row.result),
        bool(row.ok),
        json.loads(row.effects),
        row.reverted_at,
    )


def calls(*, limit: int = 200, persona_id=None, only_changes: bool = False) -> list[ToolCallRecord]:
    query = ToolCall.select().order_by(ToolCall.id.desc()).limit(limit)
    if persona_id is not None:
        query = query.where(ToolCall.persona_id == persona_id)
    if only_changes:
        query = query.where(ToolCall.effects != "[]")
    return [_to_record(r) for r in query]


def get(call_id: int) -> ToolCallRecord:
    row = ToolCall.get_or_none(ToolCall.id == call_id)
    if row is None:
        raise NotFoundError(code="no_tool_call", call=call_id)
    return _to_record(row)


def revert(call_id: int) -> Changes:
    """Undo one call (run inside a write transaction). Later edits are never overwritten."""
    row = ToolCall.get_or_none(ToolCall.id == call_id)
    if row is None:
        raise NotFoundError(code="no_tool_call", call=call_id)
    if row.reverted_at is not None:
        raise MemDeskError(code="call_reverted", call=call_id)
    effects = json.loads(row.effects)
    if not effects:
        raise MemDeskError(code="call_changed_nothing", call=call_id, tool=row.tool)
    # Check everything first: a revert is all or nothing.
    final = {e["id"]: e["version"] for e in effects}
    for memory_id, version in final.items():
        memory = Memory.get_or_none(Memory.id == memory_id)
        if memory is not None and version is not None and memory.version != version:
            raise MemDeskError(code="call_later_edit", id=memory_id, call=call_id)
    changes = Changes()
    for effect in reversed(effects):
        if Memory.get_or_none(Memory.id == effect["id"]) is None:
            continue  # purged since: nothing left to undo
        action = effect["action"]
        if action in ("added", "restored"):
            changes = changes | memory_writes.delete([effect["id"]])
        elif action == "deleted":
            changes = changes | memory_writes.restore([effect["id"]])
        elif action == "updated" and effect.get("revision"):
            changes = changes | memory_writes.revert(effect["id"], effect["revision"], expected_version=None)
    ToolCall.update(reverted_at=now_utc()).where(ToolCall.id == call_id).execute()
    return changes
