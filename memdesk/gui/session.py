"""One open database as the window sees it: the store, the task manager,
the undo stack and the one change channel (``changes_applied``).

Views never call each other after a change: they all listen to
``changes_applied(Changes)`` and refresh themselves from it.
"""
from __future__ import annotations

import logging
import traceback
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from ..core.errors import CancelledError, MemDeskError
from .taskman import TaskManager
from .undo import OpCommand

log = logging.getLogger(__name__)
EXTERNAL_POLL_MS = 2000  # how often to look for commits by the CLI or an assistant
UNDO_LIMIT = 200  # steps kept; a purge step holds its memories' rows, so the history is bounded


class Session(QObject):
    changes_applied = Signal(object)  # Changes
    saved_searches_changed = Signal()
    external_change = Signal()  # another process wrote; which memories is unknown
    error_raised = Signal(str)
    notice = Signal(str)  # worth a line in the status bar, not a dialog (a cancelled job)
    busy_changed = Signal(bool)  # an undo/redo is running in the background

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
        self._data_version = store.data_version()
        self._poll = QTimer(self)
        self._poll.setInterval(EXTERNAL_POLL_MS)
        self._poll.timeout.connect(self.check_external)
        self._poll.start()

    # ---- running operations ---------------------------------------------------------------
    def perform(self, op: Callable, *, label: str, undoable: bool = True, background: bool = False,
                on_done: Callable | None = None, on_error: Callable | None = None):
        """Run ``op(store) -> Result``, push its undo step and broadcast its changes.

        Runs right here when it is one short write; on the db lane when asked,
        or when the lane is busy (a UI-thread write would wait for its lock).
        ``on_error(exc)`` may return True to say it handled the error itself.
        Returns the Result when it ran synchronously, else None.
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

        if background or self.taskman.lane_busy("db"):
            self.taskman.run(lambda cancel, progress: op(self.store), label=label, lane="db",
                             on_done=finish, on_failed=fail, cancellable=False)
            return None
        try:
            result = op(self.store)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a crash
            fail(exc)
            return None
        finish(result)
        return result

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

        if command.heavy or self.taskman.lane_busy("db"):
            self._set_busy(+1)

            def ok(result):
                self._set_busy(-1)
                done(result)

            def bad(exc):
                self._set_busy(-1)
                refused(exc)

            self.taskman.run(lambda cancel, progress: step(self.store), label=command.text(), lane="db",
                             on_done=ok, on_failed=bad, cancellable=False)
            return
        try:
            result = step(self.store)
        except Exception as exc:  # noqa: BLE001
            # Put back once QUndoStack has moved its index: undo()/redo() below, else a moment later.
            self._refused = (command, undoing, exc)
            if not self._stepping:
                QTimer.singleShot(0, self._settle)
            return
        done(result)

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
        what = (self.tr("Could not undo “{step}”:") if undoing else self.tr("Could not redo “{step}”:"))
        where = (self.tr("The step stays in the undo history: it works again once the memory is as the "
                         "step left it.") if kept else self.tr("The step is no longer in the undo history."))
        reason = str(exc).rstrip()
        self.error_raised.emit(f"{what.format(step=command.text())} {reason}{'' if reason.endswith('.') else '.'} "
                               f"{where}")

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
        # Our own worker threads commit through other connections; don't mistake them for outsiders.
        self._data_version = self.store.data_version()
        # An inbox answer (or its undo) may change no memory, yet the inbox and its count must follow.
        if result.changes or "proposals" in result.flags:
            self.changes_applied.emit(result.changes)
        if "saved_searches" in result.flags:
            self.saved_searches_changed.emit()

    def broadcast(self, changes) -> None:
        """Changes made outside an operation (maintenance runs): refresh views, no undo step."""
        self._data_version = self.store.data_version()
        if changes:
            self.changes_applied.emit(changes)

    def report(self, exc: BaseException) -> None:
        if isinstance(exc, CancelledError):
            self.notice.emit(str(exc))
            return
        if isinstance(exc, MemDeskError):
            message = str(exc)
        else:
            self.unexpected_errors.append(exc)
            log.error("unexpected error: %s", getattr(exc, "__traceback_text__", None)
                      or "".join(traceback.format_exception(exc)))
            message = f"{type(exc).__name__}: {exc}"
        self.error_raised.emit(message)

    # ---- other writers ------------------------------------------------------------------------
    def check_external(self) -> bool:
        """Notice commits by other processes (PRAGMA data_version); True if there were some."""
        if self.taskman.lane_busy("db"):
            return False  # our own writer is committing; its result refreshes the views
        try:
            version = self.store.data_version()
        except Exception:  # noqa: BLE001 - a closed or vanished file; the next open reports it
            return False
        if version == self._data_version:
            return False
        self._data_version = version
        self.external_change.emit()
        return True

    def close(self) -> None:
        self._poll.stop()
        self.taskman.shutdown()
        self.undo_stack.clear()
        self.store.close()
