"""Recompute heat and move memories between tiers (seed 004's tiered formula, core/domain/heat.py).

Heat falls with age and rises with use: more accesses or mentions keep a
memory warmer, never colder. Only rows whose heat or tier actually changed
are written, so a daily run touches few rows (each write reaches the change
feed other windows watch).
"""

from __future__ import annotations

from collections import Counter

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.heat import heat_and_tier
from memdesk.core.domain.times import now_utc
from memdesk.core.storage.models import Memory

from .report import TaskReport
from .steps import batches, check


def recompute_heat(store, *, cancel, progress, now=None, **_) -> TaskReport:
    now = now or now_utc()
    with store.write():  # read and write under one lock: touch() counts may not slip in between
        rows = list(
            Memory.select(
                Memory.id, Memory.created_at, Memory.access_count, Memory.mention_count, Memory.heat, Memory.tier
            )
            .where(Memory.deleted_at.is_null())
            .tuples()
        )
        total = len(rows)
        progress(0, total)
        targets: dict[tuple[float, str], list[str]] = {}
        moves: Counter = Counter()
        for done, (memory_id, created, accesses, mentions, heat, tier) in enumerate(rows, start=1):
            if done % 2000 == 0:
                check(cancel, "heat recomputation")
                progress(done, total)
            new_heat, new_tier = heat_and_tier(created, accesses, mentions, now=now)
            if abs(new_heat - heat) > 1e-9 or new_tier != tier:
                targets.setdefault((new_heat, new_tier), []).append(memory_id)
                if new_tier != tier:
                    moves[f"{tier}→{new_tier}"] += 1
        changed = [memory_id for ids in targets.values() for memory_id in ids]
        for (new_heat, new_tier), ids in targets.items():
            for chunk in batches(ids):
                check(cancel, "heat recomputation")
                # heat is derived, not an edit: no version bump, no revision
                Memory.update(heat=new_heat, tier=new_tier).where(Memory.id.in_(chunk)).execute()
        check(cancel, "heat recomputation")
    progress(total, total)
    return TaskReport(
        "heat",
        counts={"checked": total, "heat_changed": len(changed), "tier_moves": sum(moves.values())},
        details={"moves": dict(moves)},
        changes=Changes(updated=tuple(changed)),
    )
