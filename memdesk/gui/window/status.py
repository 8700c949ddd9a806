"""The status bar's job indicator: the running background task, its progress
and a cancel button (for tasks that can stop between batches)."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget


class JobsWidget(QWidget):
    def __init__(self, taskman, parent=None):
        super().__init__(parent)
        self.taskman = taskman
        self.label = QLabel(self)
        self.bar = QProgressBar(self)
        self.bar.setMaximumWidth(160)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        self.cancel = QToolButton(self)
        self.cancel.setObjectName("cancelJob")
        self.cancel.setAutoRaise(True)
        self.cancel.clicked.connect(self._cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 0, 4, 0)  # apart from the counts beside it
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel)
        self.cancel.setText(self.tr("Cancel"))
        self._task = None
        taskman.task_started.connect(self._refresh)
        taskman.task_finished.connect(self._refresh)
        self._refresh()

    def _refresh(self, *_args) -> None:
        if self._task is not None:
            try:
                self._task.progressed.disconnect(self._progress)
            except (RuntimeError, TypeError):
                pass
        tasks = self.taskman.tasks(visible_only=True)
        self._task = tasks[0] if tasks else None
        self.setVisible(self._task is not None)
        if self._task is None:
            return
        more = len(tasks) - 1
        text = self._task.label + (self.tr(" (+{n} more)").format(n=more) if more else "")
        self.label.setText(text)
        self.cancel.setEnabled(self._task.cancellable)
        self._task.progressed.connect(self._progress)
        self._progress(self._task.done, self._task.total)

    def _progress(self, done: int, total: int) -> None:
        if total:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
        else:
            self.bar.setRange(0, 0)  # busy indicator

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.label.setText(self.tr("Cancelling…"))
