"""The line above the editor's fields that says what state the open memory is in (in the trash,
replaced, expired: with Restore for the trash) or why an edit was not saved."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget


class StateBanner(QWidget):
    restore_clicked = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.label = QLabel(self)
        self.label.setObjectName("editorBanner")
        self.label.setWordWrap(True)
        self.label.setStyleSheet(
            "QLabel#editorBanner { background:#fff4d6; border:1px solid #e7c66b; border-radius:4px; padding:6px; }"
        )
        self.button = QPushButton(self)
        self.button.clicked.connect(self.restore_clicked)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)

    def retranslate(self) -> None:
        self.button.setText(self.tr("Restore"))

    def text(self) -> str:
        return self.label.text()

    def show_record(self, record) -> None:
        """The state of ``record`` (None: a new memory, nothing to say)."""
        text, button = "", False
        if record is not None and record.is_deleted:
            text, button = self.tr("This memory is in the trash."), True
        elif record is not None and record.is_superseded:
            text = self.tr("This memory was replaced by a newer one (see the supersede chain).")
        elif record is not None and record.is_expired():
            text = self.tr("This memory has expired; assistants no longer receive it.")
        self.label.setText(text)
        self.setVisible(bool(text))
        self.button.setVisible(button)

    def warn(self, text: str) -> None:
        self.label.setText(text)
        self.setVisible(True)
        self.button.setVisible(False)
