"""Seed 000's JSON: {"memories": [...]} or a bare array of camelCase records.

Legacy files carry only id/personaId/content/tags/createdAt; times may be
epoch milliseconds. build() writes the same shape for export.
"""

from __future__ import annotations

from typing import Any

KEYS = {
    "id": "id",
    "personaId": "persona_id",
    "persona_id": "persona_id",
    "group": "group",
    "title": "title",
    "content": "content",
    "tags": "tags",
    "createdAt": "created_at",
    "created_at": "created_at",
    "updatedAt": "updated_at",
    "updated_at": "updated_at",
}


def looks_like(data) -> bool:
    """A list of objects of which at least one has content (or no objects at all)."""
    items = data.get("memories") if isinstance(data, dict) else data
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items[:50]):
        return False
    return not items or any("content" in i for i in items[:50])


def records(data) -> list:
    items: Any = data.get("memories") if isinstance(data, dict) else data  # sniff() said a list
    out = []
    for item in items:
        if not isinstance(item, dict):
            out.append(item)  # planned as invalid, with a reason
            continue
        record = {KEYS[k]: value for k, value in item.items() if k in KEYS}
        record["_unknown"] = sorted(k for k in item if k not in KEYS)
        out.append(record)
    return out


def _ms(value) -> int | None:
    return None if value is None else int(round(value.timestamp() * 1000))


def build(memories) -> dict:
    """Seed 000's own shape: camelCase keys, epoch-millisecond times, "" = global."""
    return {
        "memories": [
            {
                "id": m.id,
                "personaId": m.persona_id or "",
                "group": m.group,
                "title": m.title,
                "content": m.content,
                "tags": list(m.tags),
                "createdAt": _ms(m.created_at),
                "updatedAt": _ms(m.updated_at),
            }
            for m in memories
        ]
    }
