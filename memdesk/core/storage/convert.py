"""Row ↔ record conversion (the only place that knows both shapes)."""

from __future__ import annotations

import json

from memdesk.core.domain.records import MemoryRecord, PersonaRecord, RevisionRecord
from memdesk.core.storage.models import Memory, Persona, Revision


def memory_record(row: Memory) -> MemoryRecord:
    return MemoryRecord(
        id=row.id,
        persona_id=row.persona_id,
        group=row.group,
        title=row.title,
        content=row.content,
        summary=row.summary,
        tags=tuple(json.loads(row.tags)),
        type=row.type,
        scope=row.scope,
        importance=row.importance,
        importance_set=bool(row.importance_set),
        source=row.source,
        dedup_key=row.dedup_key,
        content_hash=row.content_hash,
        created_at=row.created_at,
        updated_at=row.updated_at,
        last_access_at=row.last_access_at,
        access_count=row.access_count,
        mention_count=row.mention_count,
        expires_at=row.expires_at,
        deleted_at=row.deleted_at,
        superseded_by=row.superseded_by,
        tier=row.tier,
        heat=row.heat,
        version=row.version,
    )


def persona_record(row: Persona) -> PersonaRecord:
    return PersonaRecord(
        id=row.id,
        name=row.name,
        description=row.description,
        colour=row.colour,
        auto_save_memory=bool(row.auto_save_memory),
        created_at=row.created_at,
    )


def revision_record(row: Revision) -> RevisionRecord:
    return RevisionRecord(
        id=row.id,
        memory_id=row.memory_id,
        at=row.at,
        reason=row.reason,
        version=row.version,
        before=json.loads(row.before),
        after=json.loads(row.after),
    )
