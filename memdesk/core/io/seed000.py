"""Seed 000's JSON: {"memories": [...]} or a bare array of camelCase records.

Legacy files carry only id/personaId/content/tags/createdAt; times may be
epoch milliseconds.
"""
from __future__ import annotations

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
    items = data.get("memories") if isinstance(data, dict) else data
    return isinstance(items, list) and all(isinstance(i, dict) for i in items[:50])


def records(data) -> list:
    items = data.get("memories") if isinstance(data, dict) else data
    out = []
    for item in items:
        if not isinstance(item, dict):
            out.append(item)  # planned as invalid, with a reason
            continue
        record = {KEYS[k]: value for k, value in item.items() if k in KEYS}
        record["_unknown"] = sorted(k for k in item if k not in KEYS)
        out.append(record)
    return out
