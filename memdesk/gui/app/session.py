"""One open database as the window sees it: the store, the task manager,
the undo stack and the one change channel (``changes_applied``).

Views never call each other after a change: they all listen to
``changes_applied(Changes)`` and refresh themselves from it.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QUndoStack

from memdesk.core.domain.errors import CancelledError, DatabaseUnavailableError, MemDeskError
from memdesk.core.feed.reader import FeedReader
from memdesk.gui.reasons import error_text

from .feed_wake import FeedWaker
from .taskman import TaskManager
from .undo import OpCommand

log = logging.getLogger(__name__)
FEED_POLL_MS = 250  # SQLite: how often to read the change feed for commits by the CLI or an assistant
FEED_FALLBACK_MS = 5000  # PostgreSQL: NOTIFY wakes the window (feed_wake.py); this poll catches a missed one
UNDO_LIMIT = 200  # steps kept; a purge step holds its memories' rows, so the history is bounded


def _lock_held_elsewhere(store) -> bool:
    """Does another connection hold the write lock right now? (db lane; does not wait)"""
    return store.write_lock_held_elsewhere()


class Session(QObject):
    changes_applied = Signal(object)  # Changes
    saved_searches_changed = Signal()
    external_change = Signal()  # another process wrote something besides memories (settings, tool log)
    waiting_changed = Signal(bool)  # a write of ours is waiting (another process holds the lock)
    _lock_wait = Signal(bool)
    error_raised = Signal(str)
    notice = Signal(str)  # worth a line in the status bar, not a dialog (a cancelled job)
    busy_changed = Signal(bool)  # an undo/redo is running in the background
    connection_changed = Signal(bool)  # PostgreSQL: False when the server connection is lost, True when back
    database_dropped = Signal()  # PostgreSQL: the database itself is gone from the server (said once)

    def __init__(self, store, parent=None):
        super().__init__(parent)
        self.store = store
        self.taskman = TaskManager(self)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(UNDO_LIMIT)
        self.unexpected_errors: list[BaseException] = []  # bugs, not user errors; tests assert none
        self._busy = 0
        self._restoring = False  # putting the stack back after a refused step
        self._refused = None  # (command, undoing, error) until the stack is put back
        self._stepping = False  # inside undo_stack.undo()/redo() called by undo()/redo()
        # Where the views start reading: before the tree's first snapshot, so nothing falls between.
        store.on_connection(self.connection_changed.emit)  # from any thread; delivered on the UI thread
        self.feed = FeedReader(store)
        self.feed.begin_at(store.change_marker())
        self._polling = False
        self._again = False  # woken while the db lane was busy: poll once it is free
        self._feed_held = False  # hold_feed: the first poll waits for the window's start-up
        self._closed = False
        self._dropped_said = False  # the dialog about a dropped database is shown once
        self._writes = 0  # our writes queued or running on the db lane
        self._waiting = False
        self._lock_wait.connect(self._set_waiting)  # emitted on the db lane, delivered here (queued)
        self._waker = FeedWaker(store, self) if store.is_postgres else None
        self._poll = QTimer(self)
        self._poll.setInterval(FEED_POLL_MS if self._waker is None else FEED_FALLBACK_MS)
        self._poll.timeout.connect(self.check_external)
        self._poll.start()
        if self._waker is not None:
            self.taskman.task_finished.connect(self._lane_freed)
            self._waker.woken.connect(self._woken, Qt.ConnectionType.QueuedConnection)
            self._waker.start()  # it wakes us once LISTENing: the first poll reads the fingerprints

    # ---- running operations ---------------------------------------------------------------
    def perform(
        self,
        op: Callable,
        *,
        label: str,
        undoable: bool = True,
        background: bool = False,
        on_done: Callable | None = None,
        on_error: Callable | None = None,
    ):
        """Run ``op(store) -> Result``, push its undo step and broadcast its changes.

        Always on the db lane: the UI thread never waits for SQLite's write lock
        (another process may hold it for seconds) or for a commit's fsync.
        ``on_error(exc)`` may return True to say it handled the error itself.
        ``background`` is kept for callers; every write runs in the background.
        """

        def finish(result):
            if undoable and (result.changes or result.flags):  # nothing changed: nothing to undo
                self.undo_stack.push(OpCommand(self, label, result))
            self._after(result)
            if on_done is not None:
                on_done(result)

        def fail(exc):
            if on_error is not None and on_error(exc):
                return
            self.report(exc)

        self.write(op, label=label, on_done=finish, on_failed=fail)

    def write(self, op: Callable, *, label: str, on_done: Callable, on_failed: Callable):
        """Run ``op(store) -> Result`` (or a RunReport) on the db lane; the feed takes in what it
        changed before the next poll, so our own writes are not reported back as someone else's."""
        store, feed = self.store, self.feed

        def job(cancel, progress):
            if _lock_held_elsewhere(store):
                self._lock_wait.emit(True)  # the status bar says so; op() below waits for the lock
            result = op(store)
            changes = getattr(result, "changes", None)
            if changes:
                feed.absorb(changes.memory_ids)
            return result

        def settle(callback):
            def run(value):
                self._writes -= 1
                if not self._writes:
                    self._set_waiting(False)
                callback(value)

            return run

        self._writes += 1
        return self.taskman.run(
            job, label=label, lane="db", on_done=settle(on_done), on_failed=settle(on_failed), cancellable=False
        )

    @property
    def waiting(self) -> bool:
        return self._waiting

    def _set_waiting(self, waiting: bool) -> None:
        if waiting and not self._writes:
            return  # the write finished before this news arrived
        if waiting != self._waiting:
            self._waiting = waiting
            self.waiting_changed.emit(waiting)

    @property
    def writing(self) -> bool:
        """A write of ours is queued or running."""
        return self._writes > 0

    def replay(self, command: OpCommand) -> None:
        """Undo or redo one command (called by QUndoStack through OpCommand).

        A refused step (changed elsewhere meanwhile) is never dropped: QUndoStack
        has already moved past it, so the stack is put back where it was, the
        step stays in the history, and the user is told which step and why.
        """
        if self._restoring:  # setIndex() below, putting the stack back: nothing to run
            return
        step = command.next_step
        undoing = command.done  # done now, so this call undoes it

        def done(result):
            command.next_step = result.undo
            command.done = not undoing
            self._after(result)

        def refused(exc):
            self._report_refused(command, undoing, exc, kept=self._keep(command, undoing))

        self._set_busy(+1)  # on the db lane, always: the UI thread never waits for the lock

        def ok(result):
            self._set_busy(-1)
            done(result)

        def bad(exc):
            self._set_busy(-1)
            refused(exc)

        self.write(lambda store: step(store), label=command.text(), on_done=ok, on_failed=bad)

    def _settle(self) -> None:
        if self._refused is not None:
            command, undoing, exc = self._refused
            self._refused = None
            self._report_refused(command, undoing, exc, kept=self._keep(command, undoing))

    def _keep(self, command: OpCommand, undoing: bool) -> bool:
        """Put the stack back where it stood before the refused step, without running anything."""
        stack = self.undo_stack
        index = next((i for i in range(stack.count()) if stack.command(i) is command), None)
        if index is None:  # the history was cut meanwhile (a new step pushed): nothing to keep it in
            return False
        self._restoring = True
        try:
            stack.setIndex(index + 1 if undoing else index)
        finally:
            self._restoring = False
        return True

    def _report_refused(self, command: OpCommand, undoing: bool, exc: BaseException, *, kept: bool) -> None:
        if not isinstance(exc, MemDeskError) or isinstance(exc, CancelledError):
            self.report(exc)  # a bug or a cancel: logged/shown as such; the step was kept all the same
            return
        what = self.tr("Could not undo “{step}”:") if undoing else self.tr("Could not redo “{step}”:")
        where = (
            self.tr("The step stays in the undo history: it works again once the memory is as the step left it.")
            if kept
            else self.tr("The step is no longer in the undo history.")
        )
        reason = error_text(exc).rstrip()
        self.error_raised.emit(
            f"{what.format(step=command.text())} {reason}{'' if reason.endswith('.') else '.'} {where}"
        )

    def undo(self) -> None:
        if not self.busy:
            self._step(self.undo_stack.undo)

    def redo(self) -> None:
        if not self.busy:
            self._step(self.undo_stack.redo)

    def _step(self, move) -> None:
        self._settle()
        self._stepping = True
        try:
            move()
        finally:
            self._stepping = False
        self._settle()

    @property
    def busy(self) -> bool:
        return self._busy > 0

    def _set_busy(self, delta: int) -> None:
        before = self.busy
        self._busy += delta
        if self.busy != before:
            self.busy_changed.emit(self.busy)

    def _after(self, result) -> None:
        # An inbox answer (or its undo) may change no memory, yet the inbox and its count must follow.
        if result.changes or "proposals" in result.flags:
            self.changes_applied.emit(result.changes)
        if "saved_searches" in result.flags:
            self.saved_searches_changed.emit()

    def broadcast(self, changes) -> None:
        """Changes made outside an operation (maintenance runs): refresh views, no undo step."""
        if changes:
            self.changes_applied.emit(changes)

    def report(self, exc: BaseException) -> None:
        if getattr(exc, "code", None) == "database_dropped":
            self._dropped(exc)
            return
        if isinstance(exc, CancelledError) or (
            isinstance(exc, DatabaseUnavailableError) and self.store.connection_lost
        ):
            # a lost server: the status bar says "reconnecting…", no dialog per failure
            self.notice.emit(error_text(exc))
            return
        if isinstance(exc, MemDeskError):
            message = error_text(exc)
        else:
            self.unexpected_errors.append(exc)
            log.error(
                "unexpected error: %s",
                getattr(exc, "__traceback_text__", None) or "".join(traceback.format_exception(exc)),
            )
            message = f"{type(exc).__name__}: {exc}"
        self.error_raised.emit(message)

    # ---- other writers ------------------------------------------------------------------------
    def check_external(self) -> bool:
        """Read the change feed on the db lane (after our own writes, never beside them).

        What another process changed arrives on ``changes_applied`` like our own
        changes (``note`` says "external"); access-count touches change nothing a
        person sees and are dropped by the reader. Returns True if a read started.
        """
        if self._closed or self._polling or self._feed_held or self.taskman.lane_busy("db"):
            return False  # our own write runs; the next tick (or _lane_freed) reads what it left behind
        self._polling = True
        feed = self.feed
        self.taskman.run(
            lambda cancel, progress: feed.poll(),
            label="",
            lane="db",
            visible=False,
            cancellable=False,
            on_done=self._feed_read,
            on_failed=self._feed_failed,
        )
        return True

    def hold_feed(self) -> None:
        """Put off the feed's first poll until release_feed. That poll reads every memory's
        fingerprint (at 100k, a third of a second of Python and a row fetch that lets the GIL
        go and takes it back per row), which beside the window's own start-up work kept the
        UI thread from the interpreter for 50-90 ms at a time. Nothing is missed: the first
        poll reports everything the feed holds since the marker taken at open."""
        if not self.feed.started:
            self._feed_held = True

    def release_feed(self) -> None:
        """Let the feed be read again (now, and on every tick after)."""
        if self._feed_held:
            self._feed_held = False
            self._again = not self.check_external()

    def _woken(self) -> None:
        """Another process may have committed (NOTIFY): poll now, or as soon as the lane is free
        (a poll already running may have read before that commit)."""
        if not self.check_external():
            self._again = True

    def _lane_freed(self, task) -> None:
        if self._again and task.lane == "db":
            self._again = not self.check_external()

    @property
    def feed_waker(self) -> FeedWaker | None:
        """PostgreSQL: the thread woken by NOTIFY (None on SQLite, which polls)."""
        return self._waker

    def _feed_read(self, found) -> None:
        self._polling = False
        if found is None:
            return
        changes, other = found
        if changes:
            self.changes_applied.emit(changes)
        if other:
            self.external_change.emit()

    def _dropped(self, exc) -> None:
        """The database was dropped on the server: say so once, in the user's language (by the
        error's code); later failures only reach the status bar."""
        message = self.tr(
            "The database {where} no longer exists on the server (it was dropped or renamed). Nothing more "
            "can be saved to it; what you have not saved stays open. Open another database, or create it "
            "again and copy or import a backup into it."
        ).format(where=exc.where)
        if self._dropped_said:
            self.notice.emit(message)
            return
        self._dropped_said = True
        self.database_dropped.emit()
        self.error_raised.emit(message)

    def _feed_failed(self, exc) -> None:
        self._polling = False
        if getattr(exc, "code", None) == "database_dropped":
            self._dropped(exc)  # noticed by the feed's poll before any save of ours
            return
        log.warning("reading the change feed failed: %s", exc)  # a vanished file; the next open reports it

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True  # a wake-up already queued must not start a poll on the closed store
        self._poll.stop()
        if self._waker is not None:
            self._waker.stop()
        self.taskman.shutdown()
        self.undo_stack.clear()
        self.store.close()
