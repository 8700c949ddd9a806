"""mcp-memory-service exports (doobidoo/mcp-memory-service).

Three shapes, all {"memories": [...]}:
- its CLI exporter: {"export_metadata": {...}, "memories": [{content,
  content_hash, tags, created_at, updated_at (epoch seconds), memory_type,
  metadata, export_source}]}
- its web dashboard's export: {"export_date", "total_memories", "memories":
  [...]} whose items add created_at_iso / updated_at_iso
- older ChromaDB backups: {"memories": [{id, document, metadata}]} where
  metadata holds content_hash, tags (comma text or JSON text), type and
  timestamps.

The service identifies a memory by its content hash, so that is its id here;
importing the same export twice merges instead of duplicating.
"""

from __future__ import annotations

from . import common

FORMAT = "mcp-memory-service"
_MARKERS = ("content_hash", "document", "memory_type", "created_at_iso")


def looks_like(data) -> bool:
    if not isinstance(data, dict) or not isinstance(data.get("memories"), list):
        return False
    if isinstance(data.get("export_metadata"), dict):
        return True
    sample = [m for m in data["memories"][:20] if isinstance(m, dict)]
    return bool(sample) and all(any(k in m for k in _MARKERS) for m in sample)


def records(data) -> list:
    return [_record(item) if isinstance(item, dict) else item for item in data["memories"]]


def _first(*values):
    return next((v for v in values if v not in (None, "")), None)


def _record(item: dict) -> dict:
    meta = item.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    content = item.get("content") if "content" in item else item.get("document")
    record = {"content": content}
    memory_id = _first(item.get("content_hash"), meta.get("content_hash"), item.get("id"))
    if isinstance(memory_id, str):
        record["id"] = memory_id
    record["tags"] = common.tags_from(_first(item.get("tags"), meta.get("tags")) or [])
    kind, extra, type_note = common.type_from(
        _first(item.get("memory_type"), meta.get("memory_type"), meta.get("type"))
    )
    record["type"] = kind
    common.add_tags(record, extra)
    common.note(record, type_note)
    created = _first(
        item.get("created_at"),
        item.get("created_at_iso"),
        meta.get("created_at"),
        meta.get("created_at_iso"),
        meta.get("timestamp"),
    )
    updated = _first(
        item.get("updated_at"), item.get("updated_at_iso"), meta.get("updated_at"), meta.get("updated_at_iso")
    )
    if created is not None:
        record["created_at"] = created
    if updated is not None:
        record["updated_at"] = updated
    title = _first(item.get("title"), meta.get("title"))
    if isinstance(title, str):
        record["title"] = title
    return record
