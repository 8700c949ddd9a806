"""The one task manager: background work off the UI thread (Anki's taskman).

Three lanes: "db" runs one task at a time, so store writes never queue up
behind each other inside SQLite's busy timeout; "search" runs one at a time
too, so index updates and the searches after them keep their order; "work"
runs in parallel (tree builds, building the search index, embedding). A task is a plain callable
``fn(cancel=..., progress=...)`` that never touches Qt; its result or
exception comes back to the UI thread through one queued signal.

The lanes' threads are Python's own (lanes.py), not a QThreadPool's: Python gives a
pool thread a fresh thread state for each task, so what a thread keeps (its SQLite
connection, with that connection's page cache) was made anew for every task.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
import traceback
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal, Slot

from .lanes import Lane

PROGRESS_INTERVAL_S = 0.1  # ~10 progress updates a second are plenty for a bar


class Task(QObject):
    """A running background job as the UI sees it (lives on the UI thread)."""

    progressed = Signal(int, int)  # done, total (total 0 = unknown)
    succeeded = Signal(object)
    failed = Signal(object)  # the exception
    finished = Signal()  # after succeeded/failed

    def __init__(self, label: str, lane: str, cancellable: bool, visible: bool, parent=None):
        super().__init__(parent)
        self.task_id = next(_ids)
        self.label = label
        self.lane = lane
        self.cancellable = cancellable
        self.visible = visible  # shown in the status bar
        self.done, self.total = 0, 0
        self.result = None
        self.error: BaseException | None = None
        self._cancel = threading.Event()
        self.is_finished = False

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def _set_progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self.progressed.emit(done, total)


_ids = itertools.count(1)


class _Runnable:
    def __init__(self, manager: TaskManager, task: Task, fn: Callable):
        self._manager, self._task, self._fn = manager, task, fn
        self._last_progress = 0.0
        self._last_done = 0

    def _progress(self, done: int, total: int = 0) -> None:
        now = time.monotonic()
        # A step of 1% or more always shows: a download that stalls right after
        # its first chunk must not leave the bar at 0 until the next chunk.
        big_step = total > 0 and done - self._last_done >= total / 100
        if now - self._last_progress < PROGRESS_INTERVAL_S and done != total and not big_step:
            return
        self._last_progress, self._last_done = now, done
        task = self._task
        self._post(lambda: task._set_progress(done, total))

    def _post(self, fn) -> None:
        try:
            self._manager._post.emit(fn)
        except RuntimeError:  # the manager is gone (the app is quitting): nobody is waiting
            pass

    def run(self) -> None:
        task = self._task
        try:
            result = self._fn(cancel=task._cancel.is_set, progress=self._progress)
        except BaseException as exc:  # noqa: BLE001 - every failure must reach the UI
            exc.__traceback_text__ = traceback.format_exc()
            self._post(lambda error=exc: self._manager._finish(task, None, error))
        else:
            self._post(lambda: self._manager._finish(task, result, None))


class TaskManager(QObject):
    task_started = Signal(object)
    task_finished = Signal(object)
    _post = Signal(object)  # a callable to run on the UI thread

    def __init__(self, parent=None):
        super().__init__(parent)
        self._lanes = {
            "db": Lane("db", 1),
            "search": Lane("search", 1),
            "work": Lane("work", max(2, (os.cpu_count() or 1) - 1)),
        }
        self._running: dict[int, Task] = {}
        self._orphans: set[int] = set()  # tasks under way at shutdown: their results reach no one
        self._post.connect(self._run_posted, Qt.ConnectionType.QueuedConnection)

    @Slot(object)
    def _run_posted(self, fn) -> None:
        fn()

    def run(
        self,
        fn: Callable,
        *,
        label: str,
        lane: str = "work",
        on_done: Callable | None = None,
        on_failed: Callable | None = None,
        cancellable: bool = True,
        visible: bool = True,
    ) -> Task:
        """Start ``fn(cancel=, progress=)``; callbacks run on the UI thread."""
        task = Task(label, lane, cancellable, visible, self)
        if on_done is not None:
            task.succeeded.connect(on_done)
        if on_failed is not None:
            task.failed.connect(on_failed)
        self._running[task.task_id] = task
        self.task_started.emit(task)
        self._lanes[lane].start(_Runnable(self, task, fn).run)
        return task

    def _finish(self, task: Task, result, error) -> None:
        self._running.pop(task.task_id, None)
        task.result, task.error, task.is_finished = result, error, True
        if task.task_id in self._orphans:  # shut down meanwhile: the store and views it reported to are gone
            self._orphans.discard(task.task_id)
            task.deleteLater()
            return
        try:
            if error is None:
                task.succeeded.emit(result)
            else:
                task.failed.emit(error)
        finally:
            task.finished.emit()
            self.task_finished.emit(task)
            task.deleteLater()

    def tasks(self, *, visible_only: bool = False) -> list[Task]:
        return [t for t in self._running.values() if t.visible or not visible_only]

    def lane_busy(self, lane: str) -> bool:
        return any(t.lane == lane for t in self._running.values())

    def cancel_all(self) -> None:
        for task in list(self._running.values()):
            task.cancel()

    def shutdown(self, timeout_ms: int = 10000) -> bool:
        """On quit (or a switch to another database): ask every task to stop, wait for the
        threads; the results of the tasks under way are dropped."""
        self._orphans.update(self._running)
        self.cancel_all()
        ok = self.wait_idle(timeout_ms)
        for lane in self._lanes.values():
            lane.stop()  # their threads end, and with them the connections they kept
        self._running.clear()
        return ok

    def wait_idle(self, timeout_ms: int = 30000) -> bool:
        """Block until every lane is empty (used by tests and the benchmark)."""
        deadline = time.monotonic() + timeout_ms / 1000
        return all(lane.wait(max(0.0, deadline - time.monotonic())) for lane in self._lanes.values())
