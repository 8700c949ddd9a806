"""Running maintenance tasks: one after another, each timed, each in its own transaction.

A cancelled task rolls back (the store is as it was before that task) and
ends the run; the tasks before it stay done. A task that fails is recorded
and the run goes on. Every run's report is stored (see report.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from memdesk.core.domain.errors import CancelledError, MemDeskError
from memdesk.core.domain.times import now_utc

from . import consolidation, decay, duplicates, expiry, importance, optimize
from .report import RunReport, TaskReport, new_run, save_report
from .steps import ignore, never


def _reembed(store, *, cancel, progress, embedder=None, **_) -> TaskReport:
    from memdesk.core.embed.reembed import reembed  # local: pulls in numpy/onnx helpers only when used

    if embedder is None:
        return TaskReport("reembed", status="skipped", message="no embedding model in use")
    done = reembed(store, embedder, cancel=cancel, progress=progress)
    return TaskReport("reembed", counts={"embedded": done}, details={"model_id": embedder.model_id})


FEED_KEEP = 20_000  # change-feed rows kept: open windows that fell further behind reload in full
FEED_KEEP_SETTING = "maintenance.feed_keep"


def _prune_feed(store, *, cancel, progress, feed_keep: int | None = None, **_) -> TaskReport:
    """Drop all but the newest change-feed rows (every assistant search adds some).

    A reader (an open window) whose last-read row is among those dropped sees
    that its marker fell behind the oldest row kept and reloads in full, so
    nothing it had not read yet is lost to it.
    """
    keep = feed_keep if feed_keep is not None else store.setting(FEED_KEEP_SETTING, FEED_KEEP)
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise MemDeskError(code="feed_keep_range")
    progress(0, 1)
    removed = store.prune_change_log(keep=keep)
    progress(1, 1)
    return TaskReport("prune_feed", counts={"removed": removed, "kept_at_most": keep})


# name -> (task, what it does). Order is the run order.
TASKS: dict[str, tuple[Callable[..., TaskReport], str]] = {
    "expire": (expiry.expire, "move expired short-term memories to the trash"),
    "purge_trash": (expiry.purge_trash, "delete memories that have been in the trash too long"),
    "heat": (decay.recompute_heat, "recompute heat and move memories between tiers"),
    "importance": (importance.recompute_importance, "re-score automatic importance"),
    "duplicates": (duplicates.find_duplicates, "report exact duplicates"),
    "reembed": (_reembed, "embed memories whose vectors are missing or stale (needs a model)"),
    "consolidate": (consolidation.find_proposals, "propose merges of near-duplicates for review"),
    "search_index": (optimize.compact_search, "rewrite the search index's part-empty postings blocks"),
    "prune_feed": (_prune_feed, "drop old change-feed rows (windows behind them reload)"),
    "optimize": (optimize.optimize, "refresh SQLite's statistics"),
}
DEFAULT_TASKS = tuple(TASKS)
TRASH_DAYS_SETTING = expiry.TRASH_DAYS_SETTING


def run_maintenance(
    store,
    tasks=None,
    *,
    cancel: Callable[[], bool] = never,
    progress: Callable[[int, int], None] = ignore,
    on_task: Callable[[str], None] | None = None,
    embedder=None,
    now=None,
    trash_days: int | None = None,
    save: bool = True,
    **options,
) -> RunReport:
    """Run ``tasks`` (names; default all, re-embedding only with an ``embedder``) and return the report.

    ``progress(done, total)`` is per task; ``on_task(name)`` says which task it is.
    ``report.changes`` is what the search index and the views must apply.
    """
    names = list(tasks) if tasks else [n for n in DEFAULT_TASKS if n != "reembed" or embedder is not None]
    unknown = [n for n in names if n not in TASKS]
    if unknown:
        raise MemDeskError(code="unknown_task", task=unknown[0], tasks=", ".join(TASKS))
    trash_days = expiry.trash_days(store, trash_days)
    report = new_run()
    stop = False
    for name in names:
        if stop:
            report.tasks.append(TaskReport(name, status="skipped", message="the run was cancelled"))
            continue
        if on_task is not None:
            on_task(name)
        task, _ = TASKS[name]
        started = time.perf_counter()
        try:
            result = task(
                store, cancel=cancel, progress=progress, now=now, trash_days=trash_days, embedder=embedder, **options
            )
        except CancelledError as exc:
            result, stop = TaskReport(name, status="cancelled", message=str(exc)), True
        except MemDeskError as exc:
            result = TaskReport(name, status="failed", message=str(exc))
        result.seconds = time.perf_counter() - started
        report.tasks.append(result)
    report.finished_at = now_utc()
    if save:
        save_report(store, report)
    return report
