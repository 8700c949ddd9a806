"""Seed 001's clean-up: expired short-term memories go to the trash; old trash is purged.

The one home of both steps and of how long the trash keeps memories: maintenance runs them as
tasks, Store.clean() (`memdesk clean`) runs the same two in one transaction.

Long-term memories past expires_at are hidden by the store but kept: seed
001 expires only short-term ones, and a long-term expiry is usually a note
to re-check, not a request to delete.
"""

from __future__ import annotations

from datetime import timedelta

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import MemDeskError
from memdesk.core.domain.times import now_utc
from memdesk.core.storage.models import Memory
from memdesk.core.views.queries import state_condition

from .report import TaskReport
from .steps import batches, check, ignore, never

TRASH_DAYS = 30  # when the store has no setting
TRASH_DAYS_SETTING = "maintenance.trash_days"  # the window's Settings dialog writes it


def trash_days(store, days=None) -> int:
    """How many days the trash keeps memories: ``days`` when given, else the store's setting,
    else 30. A whole number ≥ 0, or MemDeskError."""
    if days is None:
        days = store.setting(TRASH_DAYS_SETTING, None)
    if days is None:
        return TRASH_DAYS
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise MemDeskError(code="trash_days_range")
    return days


def clean(store, *, trash_days: int, now=None) -> Changes:
    """Both steps at once, in one transaction, not cancellable (Store.clean)."""
    now = now or now_utc()
    with store.write():
        expired = expire(store, cancel=never, progress=ignore, now=now)
        purged = purge_trash(store, cancel=never, progress=ignore, now=now, trash_days=trash_days)
    return expired.changes | purged.changes


def expire(store, *, cancel, progress, now=None, **_) -> TaskReport:
    now = now or now_utc()
    query = Memory.select(Memory.id).where(state_condition("expired", now) & (Memory.scope == "short_term"))
    with store.write():  # read inside: a memory restored meanwhile must stay restored
        ids = [row.id for row in query]
        _each_batch(
            ids,
            cancel,
            progress,
            "expiry",
            lambda chunk: (
                Memory.update(deleted_at=now, version=Memory.version + 1)
                .where(Memory.id.in_(chunk) & Memory.deleted_at.is_null())
                .execute()
            ),
        )
    return TaskReport(
        "expire", counts={"expired_to_trash": len(ids)}, details={"ids": ids}, changes=Changes(deleted=tuple(ids))
    )


def _each_batch(ids, cancel, progress, what, write) -> None:
    progress(0, len(ids))
    done = 0
    for chunk in batches(ids):
        check(cancel, what)
        write(chunk)
        done += len(chunk)
        progress(done, len(ids))
    check(cancel, what)


def purge_trash(store, *, cancel, progress, now=None, trash_days=None, **_) -> TaskReport:
    now = now or now_utc()
    days = TRASH_DAYS if trash_days is None else trash_days  # run_maintenance passes trash_days(store)
    cutoff = now - timedelta(days=days)
    query = Memory.select(Memory.id).where(state_condition("deleted", now) & (Memory.deleted_at < cutoff))
    with store.write():  # read inside: a memory restored meanwhile must not be purged
        ids = [row.id for row in query]
        _each_batch(
            ids,
            cancel,
            progress,
            "purging the trash",
            lambda chunk: Memory.delete().where(Memory.id.in_(chunk) & Memory.deleted_at.is_null(False)).execute(),
        )
    return TaskReport(
        "purge_trash",
        counts={"purged": len(ids)},
        details={"trash_days": days, "ids": ids},
        changes=Changes(purged=tuple(ids)),
    )
