"""MemDesk's own JSON format: every field, personas and revisions (lossless)."""

from __future__ import annotations

from memdesk import __version__
from memdesk.core.domain.times import now_utc, to_iso
from memdesk.core.storage.convert import revision_record
from memdesk.core.storage.models import Revision

from .common import bind
from .reading import FileContentError

FORMAT = "memdesk"
VERSION = 1


def revisions_by_memory(store, ids) -> dict[str, list]:
    """Every revision of these memories, oldest first (one query per 500 ids)."""
    bind(store)
    ids = list(ids)
    found: dict[str, list] = {}
    for start in range(0, len(ids), 500):
        rows = Revision.select().where(Revision.memory.in_(ids[start : start + 500])).order_by(Revision.id)
        for row in rows:
            found.setdefault(row.memory_id, []).append(revision_record(row))
    return found


def build(store, memories, *, all_personas: bool = False) -> dict:
    """The native document for these memories and the personas they use (or all)."""
    used = {m.persona_id for m in memories if m.persona_id}
    history = revisions_by_memory(store, [m.id for m in memories])
    out = []
    for memory in memories:
        item = memory.to_json()
        item["revisions"] = [r.to_json() for r in history.get(memory.id, [])]
        out.append(item)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": to_iso(now_utc()),
        "app_version": __version__,
        "personas": [p.to_json() for p in store.personas() if all_personas or p.id in used],
        "memories": out,
    }


def export_data(store, *, persona=None, include_deleted: bool = True) -> dict:
    """Everything needed to rebuild the store (or one persona's view of it)."""
    state = "all" if include_deleted else "active"
    memories = store.list(persona=persona, state=state, sort="created_at", descending=False)
    return build(store, memories, all_personas=persona is None)


def is_native(data) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def records(data) -> tuple[list[dict], list]:
    """(persona dicts, memory dicts) in store field names; revisions ride along."""
    personas = data.get("personas") or []
    memories = data.get("memories")
    if not isinstance(memories, list):
        raise FileContentError("native_not_list", key="memories")
    if not isinstance(personas, list):
        raise FileContentError("native_not_list", key="personas")
    return personas, memories
