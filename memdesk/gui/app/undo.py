"""Undo/redo: one QUndoCommand per operation, alternating between two callables.

The operation has already run when its command is pushed (so a failure never
reaches the stack); later undo()/redo() calls hand the stored inverse to the
session, which runs it and keeps the inverse of that. A step the store refuses
(changed elsewhere) stays in the stack: the session puts the index back.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

HEAVY_IDS = 200  # undoing more memories than this runs on the task manager's db lane


class OpCommand(QUndoCommand):
    def __init__(self, session, label: str, result):
        super().__init__(label)
        self._session = session
        self.next_step = result.undo
        self.heavy = len(result.changes.memory_ids) > HEAVY_IDS
        self._pushed = False
        self.done = True  # the operation's effect is in the store (so the next step undoes it)

    def redo(self) -> None:
        if not self._pushed:  # QUndoStack.push() calls redo(); the operation already ran
            self._pushed = True
            return
        self._session.replay(self)

    def undo(self) -> None:
        self._session.replay(self)
