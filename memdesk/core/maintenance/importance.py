"""The maintenance task that re-scores automatic importance (the scorer: search/language/importance.py).

Only memories whose importance the user never set (importance_set False) are
re-scored; a hand-set importance is never overwritten.
"""

from __future__ import annotations

from memdesk.core.domain.changes import Changes
from memdesk.core.maintenance.report import TaskReport
from memdesk.core.maintenance.steps import batches, check
from memdesk.core.search.language.importance import score_memory
from memdesk.core.storage.models import Memory


def recompute_importance(store, *, cancel, progress, **_) -> TaskReport:
    """Re-score every memory in use whose importance is automatic; write the ones that differ."""
    store.bind()
    rows = list(
        Memory.select(Memory.id, Memory.title, Memory.content, Memory.importance)
        .where(
            Memory.deleted_at.is_null() & Memory.superseded_by.is_null() & (Memory.importance_set == False)  # noqa: E712
        )
        .tuples()
    )
    total = len(rows)
    progress(0, total)
    targets: dict[int, list[str]] = {}
    for done, (memory_id, title, content, current) in enumerate(rows, start=1):
        if done % 200 == 0:
            check(cancel, "importance scoring")
            progress(done, total)
        value = score_memory(title, content)
        if value != current:
            targets.setdefault(value, []).append(memory_id)
    changed = [memory_id for ids in targets.values() for memory_id in ids]
    with store.write():
        for value, ids in targets.items():
            for chunk in batches(ids):
                check(cancel, "importance scoring")
                # still automatic: importance_set stays False, and no revision (not a user edit)
                Memory.update(importance=value).where(Memory.id.in_(chunk) & (Memory.importance_set == False)).execute()  # noqa: E712
        check(cancel, "importance scoring")
    progress(total, total)
    spread = {str(k): len(v) for k, v in sorted(targets.items())}
    return TaskReport(
        "importance",
        counts={"scored": total, "changed": len(changed)},
        details={"new_values": spread},
        changes=Changes(updated=tuple(changed)),
    )
