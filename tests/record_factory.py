"""A MemoryRecord with plain defaults, for tests and benches that feed the search index directly."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from memdesk.core.domain.records import MemoryRecord
from memdesk.core.domain.times import UTC

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def make_record(id: str, content: str, **fields) -> MemoryRecord:
    """Created three days before NOW unless ``created_at`` says otherwise; any field may be given."""
    created = fields.pop("created_at", NOW - timedelta(days=3))
    base = MemoryRecord(
        id=id,
        persona_id=None,
        group="",
        title="",
        content=content,
        summary="",
        tags=(),
        type="note",
        scope="long_term",
        importance=5,
        importance_set=False,
        source="manual",
        dedup_key=None,
        content_hash="",
        created_at=created,
        updated_at=created,
        last_access_at=None,
        expires_at=None,
        deleted_at=None,
        access_count=0,
        mention_count=0,
        superseded_by=None,
        tier="hot",
        heat=90.0,
        version=1,
    )
    return replace(base, **fields)
