"""MemDesk's own JSON format: every field, personas and revisions (lossless)."""
from __future__ import annotations

from ... import __version__
from ..times import now_utc, to_iso

FORMAT = "memdesk"
VERSION = 1


def export_data(store, *, persona=None, include_deleted: bool = True) -> dict:
    """Everything needed to rebuild the store (or one persona's view of it)."""
    state = "all" if include_deleted else "active"
    memories = store.list(persona=persona, state=state, sort="created_at", descending=False)
    used = {m.persona_id for m in memories if m.persona_id}
    personas = [p for p in store.personas() if persona is None or p.id in used]
    out = []
    for memory in memories:
        item = memory.to_json()
        item["revisions"] = [r.to_json() for r in store.revisions(memory.id)]
        out.append(item)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": to_iso(now_utc()),
        "app_version": __version__,
        "personas": [p.to_json() for p in personas],
        "memories": out,
    }


def is_native(data) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def records(data) -> tuple[list[dict], list]:
    """(persona dicts, memory dicts) in store field names; revisions ride along."""
    personas = data.get("personas") or []
    memories = data.get("memories")
    if not isinstance(memories, list):
        raise ValueError("'memories' must be a list")
    if not isinstance(personas, list):
        raise ValueError("'personas' must be a list")
    return personas, memories
