"""The status bar's parts: the job indicator (the running background task, its progress and a
cancel button for tasks that can stop between batches) and the notice of why search is
keyword-only."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget


class SearchNotice(QLabel):
    """Why search is keyword-only just now, if it is; hidden when there is nothing to say."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("searchNotice")
        self.hide()

    def say(self, model_state: str, notice: str) -> None:
        """``model_state``: the model job's word, said first; ``notice``: the search engine's
        (English, worded for the command line), said again in the user's words: short, as the
        status bar is shared with the notices beside it; the longer reason in the tooltip."""
        text, why = (model_state, "") if model_state else self._keyword_only(notice) if notice else ("", "")
        self.setText(text)
        self.setToolTip(why)
        self.setVisible(bool(text))

    def _keyword_only(self, notice: str) -> tuple[str, str]:
        missing = re.match(r"(\d+) memories have no vector yet", notice)
        if missing:
            n = int(missing.group(1))
            return (
                self.tr("%n not yet searchable by meaning", "", n),
                self.tr(
                    "%n memories are still being prepared for semantic search; until then only their words find them.",
                    "",
                    n,
                ),
            )
        if "no embedding model" in notice:
            return (
                self.tr("Words only (Settings → Model)"),
                self.tr("Search finds memories by their words. Searching by meaning needs a model: Settings → Model."),
            )
        if "no memory has a vector" in notice:
            return (
                self.tr("Preparing semantic search…"),
                self.tr("The memories are being prepared for semantic search; until then only their words find them."),
            )
        # e.g. the chosen model cannot be used: the core's words name CLI commands
        return (
            self.tr("Words only: the model cannot be used"),
            self.tr(
                "The semantic search model cannot be used; search finds memories by their words. See Settings → Model."
            ),
        )


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
