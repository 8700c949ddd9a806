"""Plain, immutable snapshots of stored rows.

These, never peewee model objects, cross thread boundaries and reach the GUI,
the search index and the tools.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

from memdesk.core.domain.times import now_utc, to_iso

TYPES = ("fact", "preference", "project", "task", "note")
SCOPES = ("long_term", "short_term")
TIERS = ("hot", "warm", "cold", "archive")
REVISION_REASONS = ("edit", "import", "ai", "merge", "supersede", "restore")
# Fields whose previous values a Revision keeps.
# A typed id prefix this long or longer names a memory (`memdesk list` shows 8 characters).
MIN_ID_PREFIX = 4

TRACKED_FIELDS = ("title", "content", "summary", "tags", "group", "type", "scope", "importance")


@dataclass(frozen=True)
class MemoryRecord:
    id: str
    persona_id: str | None  # None = global, merged into every persona's view
    group: str
    title: str
    content: str
    summary: str
    tags: tuple[str, ...]
    type: str
    scope: str
    importance: int
    importance_set: bool  # False while importance is automatic (maintenance may recompute it)
    source: str
    dedup_key: str | None
    content_hash: str
    created_at: datetime
    updated_at: datetime
    last_access_at: datetime | None
    access_count: int
    mention_count: int
    expires_at: datetime | None
    deleted_at: datetime | None
    superseded_by: str | None
    tier: str
    heat: float
    version: int

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def is_superseded(self) -> bool:
        return self.superseded_by is not None

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or now_utc())

    def is_active(self, now: datetime | None = None) -> bool:
        return not (self.is_deleted or self.is_superseded or self.is_expired(now))

    @property
    def display_title(self) -> str:
        """Title, or the start of the content when there is none."""
        if self.title:
            return self.title
        first = self.content.strip().splitlines()[0] if self.content.strip() else ""
        return first[:40] + ("…" if len(first) > 40 else "")

    def to_json(self) -> dict:
        data = asdict(self)
        data["tags"] = list(self.tags)
        for key, value in data.items():
            if isinstance(value, datetime):
                data[key] = to_iso(value)
        return data


@dataclass(frozen=True)
class PersonaRecord:
    id: str
    name: str
    description: str
    colour: str
    auto_save_memory: bool
    created_at: datetime

    def to_json(self) -> dict:
        data = asdict(self)
        data["created_at"] = to_iso(self.created_at)
        return data


@dataclass(frozen=True)
class RevisionRecord:
    id: int
    memory_id: str
    at: datetime
    reason: str
    version: int  # the memory's version after this change
    before: dict
    after: dict

    def to_json(self) -> dict:
        data = asdict(self)
        data["at"] = to_iso(self.at)
        return data
