"""Exact duplicates: memories in use with the same content hash (same normalised
text and persona). Reported in groups, never merged here: the user decides,
through the consolidation inbox, which also proposes these."""

from __future__ import annotations

from peewee import fn

from memdesk.core.domain.times import now_utc
from memdesk.core.storage.models import Memory
from memdesk.core.views.queries import state_condition

from .report import TaskReport
from .steps import check


def find_groups(store, *, now=None) -> list[list[str]]:
    """Groups of ids (oldest first) of active memories sharing a content hash."""
    store.bind()
    now = now or now_utc()
    active = state_condition("active", now)
    repeated = (
        Memory.select(Memory.content_hash).where(active).group_by(Memory.content_hash).having(fn.COUNT(Memory.id) > 1)
    )
    groups: dict[str, list[str]] = {}
    query = (
        Memory.select(Memory.id, Memory.content_hash)
        .where(active & Memory.content_hash.in_(repeated))
        .order_by(Memory.created_at, Memory.id)
        .tuples()
    )
    for memory_id, hash_ in query:
        groups.setdefault(hash_, []).append(memory_id)
    return sorted(groups.values(), key=lambda ids: (-len(ids), ids[0]))


def find_duplicates(store, *, cancel, progress, now=None, **_) -> TaskReport:
    progress(0, 1)
    check(cancel, "duplicate search")
    groups = find_groups(store, now=now)
    progress(1, 1)
    return TaskReport(
        "duplicates",
        counts={"groups": len(groups), "redundant": sum(len(g) - 1 for g in groups)},
        details={"groups": groups},
    )
