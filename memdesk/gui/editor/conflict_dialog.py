"""Saving met a newer version of the memory: show both, let the user choose.

Nothing has been written when this opens. The dialog only decides; the
editor then writes (keep mine / merge: an update based on the store's
current version) or reloads (take theirs). Opened with open(), answered
through the ``resolved`` signal, so it never blocks the event loop.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
)

from memdesk.gui import labels

from .form import FIELDS, changed_fields, merge_suggestion, same
from .history import diff_html, local_time


class ConflictDialog(QDialog):
    resolved = Signal(str, dict)  # "mine" | "theirs" | "merge", the values to save

    def __init__(self, *, mine: dict, base: dict, theirs: dict, theirs_record, persona_names: dict, parent=None):
        super().__init__(parent)
        self.setObjectName("conflictDialog")
        self.setWindowTitle(self.tr("Changed elsewhere"))
        self.mine, self.base, self.theirs = mine, base, theirs
        self.theirs_record = theirs_record
        self._names = persona_names
        self.differing = [f for f in FIELDS if not same(f, mine.get(f), theirs.get(f))]

        intro = QLabel(
            self.tr(
                "While you were editing, this memory was changed somewhere else (now version {version}, "
                "changed {when}). Nothing has been overwritten. Choose what to keep."
            ).format(version=theirs_record.version, when=local_time(theirs_record.updated_at)),
            self,
        )
        intro.setWordWrap(True)
        self._build_table()
        self._build_diff()
        self.merge_label = QLabel(
            self.tr(
                "Merged content (edit freely). Other fields: the side that changed them wins; where both did, yours."
            ),
            self,
        )
        self.merge_label.setWordWrap(True)
        self.merge_edit = QPlainTextEdit(self)
        self.merge_edit.setObjectName("mergeEdit")
        self.merge_label.hide()
        self.merge_edit.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table)
        layout.addWidget(self.diff, 1)
        layout.addWidget(self.merge_label)
        layout.addWidget(self.merge_edit, 1)
        layout.addLayout(self._build_buttons())
        self.resize(720, 520)

    def _build_table(self) -> None:
        """The differing fields, one row each: yours beside the version saved meanwhile."""
        self.table = QTableWidget(len(self.differing), 3, self)
        self.table.setObjectName("conflictTable")
        self.table.setHorizontalHeaderLabels(
            [self.tr("Field"), self.tr("Your version"), self.tr("Version saved meanwhile")]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)  # both texts whole: telling them apart is the point
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        names = labels.fields()
        for row, field in enumerate(self.differing):
            self.table.setItem(row, 0, QTableWidgetItem(names.get(field, field)))
            self.table.setItem(row, 1, QTableWidgetItem(self._text(field, self.mine.get(field))))
            self.table.setItem(row, 2, QTableWidgetItem(self._text(field, self.theirs.get(field))))

    def _build_diff(self) -> None:
        self.diff = QTextBrowser(self)
        self.diff.setObjectName("conflictDiff")
        if "content" in self.differing:
            self.diff.setHtml(
                "<p>{}</p>{}".format(
                    html.escape(self.tr("Content: from the saved version to yours")),
                    diff_html(self.theirs.get("content") or "", self.mine.get("content") or ""),
                )
            )
        else:
            self.diff.hide()

    def _build_buttons(self) -> QHBoxLayout:
        # Worded as the table's columns, so which button keeps which text is never a guess.
        self.keep_mine = QPushButton(self.tr("Keep your version"), self)
        self.take_theirs = QPushButton(self.tr("Take the version saved meanwhile"), self)
        self.merge_button = QPushButton(self.tr("Merge by editing…"), self)
        self.save_merged = QPushButton(self.tr("Save merged"), self)
        self.save_merged.hide()
        self.cancel_button = QPushButton(self.tr("Keep editing"), self)
        self.keep_mine.setToolTip(self.tr("Save your version over the one saved meanwhile"))
        self.take_theirs.setToolTip(self.tr("Drop your edits and show the saved version"))
        self.keep_mine.clicked.connect(lambda: self._finish("mine", dict(self.mine)))
        self.take_theirs.clicked.connect(lambda: self._finish("theirs", dict(self.theirs)))
        self.merge_button.clicked.connect(self.start_merge)
        self.save_merged.clicked.connect(self._save_merged)
        self.cancel_button.clicked.connect(self.reject)
        # Keep mine overwrites the other text and take theirs drops the user's: Enter takes neither.
        for button in (self.keep_mine, self.take_theirs, self.merge_button, self.save_merged):
            button.setAutoDefault(False)
        self.cancel_button.setDefault(True)
        buttons = QHBoxLayout()
        for button in (self.keep_mine, self.take_theirs, self.merge_button, self.save_merged):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        return buttons

    def _text(self, field: str, value) -> str:
        if field == "importance" and value is None:
            return self.tr("Automatic")
        if value is None or value == "":
            return "—"
        if field == "persona_id":
            return self._names.get(value, value)
        if field == "expires_at":
            return local_time(value)
        if field in ("type", "scope"):
            return labels.label(field, value)
        return str(value)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit_table)  # once the columns have their new widths

    def _fit_table(self) -> None:
        """Rows as tall as their wrapped text, the table as tall as its rows (up to half the dialog)."""
        table = self.table
        table.resizeRowsToContents()
        rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
        height = table.horizontalHeader().height() + rows + 2 * table.frameWidth() + 2
        table.setFixedHeight(min(height, max(120, self.height() // 2)))

    def start_merge(self) -> None:
        merged = merge_suggestion(self.base, self.mine, self.theirs)
        self.merge_edit.setPlainText(merged.get("content") or "")
        self._merged = merged
        for widget in (self.merge_label, self.merge_edit, self.save_merged):
            widget.show()
        self.merge_button.hide()
        self.save_merged.setAutoDefault(False)  # Enter in the editor is a new line, never "save"
        self.merge_edit.setFocus()

    def _save_merged(self) -> None:
        merged = dict(self._merged)
        merged["content"] = self.merge_edit.toPlainText()
        self._finish("merge", merged)

    def _finish(self, choice: str, values: dict) -> None:
        self.accept()
        self.resolved.emit(choice, values)

    def fields_to_write(self, values: dict) -> dict:
        """What an update based on the saved version must change to reach ``values``."""
        return changed_fields(self.theirs, values)
