"""Seed 001's clean-up: expired short-term memories go to the trash; old trash is purged.

Long-term memories past expires_at are hidden by the store but kept: seed
001 expires only short-term ones, and a long-term expiry is usually a note
to re-check, not a request to delete.
"""
from __future__ import annotations

from datetime import timedelta

from ..changes import Changes
from ..models import Memory
from ..queries import state_condition
from ..times import now_utc
from .report import TaskReport
from .steps import batches, check

TRASH_DAYS = 30


def expire(store, *, cancel, progress, now=None, **_) -> TaskReport:
    now = now or now_utc()
    query = Memory.select(Memory.id).where(state_condition("expired", now) & (Memory.scope == "short_term"))
    with store.write():  # read inside: a memory restored meanwhile must stay restored
        ids = [row.id for row in query]
        _each_batch(ids, cancel, progress, "expiry", lambda chunk: Memory.update(
            deleted_at=now, version=Memory.version + 1).where(
            Memory.id.in_(chunk) & Memory.deleted_at.is_null()).execute())
    return TaskReport("expire", counts={"expired_to_trash": len(ids)}, details={"ids": ids},
                      changes=Changes(deleted=tuple(ids)))


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
    days = TRASH_DAYS if trash_days is None else trash_days
    cutoff = now - timedelta(days=days)
    query = Memory.select(Memory.id).where(state_condition("deleted", now) & (Memory.deleted_at < cutoff))
    with store.write():  # read inside: a memory restored meanwhile must not be purged
        ids = [row.id for row in query]
        _each_batch(ids, cancel, progress, "purging the trash", lambda chunk: Memory.delete().where(
            Memory.id.in_(chunk) & Memory.deleted_at.is_null(False)).execute())
    return TaskReport("purge_trash", counts={"purged": len(ids)}, details={"trash_days": days, "ids": ids},
                      changes=Changes(purged=tuple(ids)))
