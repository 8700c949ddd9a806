"""The search field: search-as-you-type with a short debounce.

Typing restarts a 150 ms timer; only when it fires is ``query_changed``
emitted, so a fast typist starts one search, not one per key. Up/Down step
through the results without leaving the field; Enter opens the current one;
Esc clears the search and brings the tree back.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QToolButton, QWidget

from memdesk.gui import icons

DEBOUNCE_MS = 150


class SearchBar(QWidget):
    query_changed = Signal(str)  # debounced
    step_requested = Signal(int)  # +1 next result, -1 previous
    open_requested = Signal()
    save_requested = Signal()
    help_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.edit = QLineEdit(self)
        self.edit.setObjectName("searchField")
        self.edit.setClearButtonEnabled(True)
        self.edit.addAction(icons.icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.edit.setMinimumWidth(260)
        self.save_button = QToolButton(self)
        self.save_button.setIcon(icons.icon("saved-search"))
        self.save_button.setAutoRaise(True)
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self.save_requested)
        self.help_button = QToolButton(self)
        self.help_button.setObjectName("searchHelp")
        self.help_button.setText("?")
        self.help_button.setAutoRaise(True)
        self.help_button.clicked.connect(self.help_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.save_button)
        layout.addWidget(self.help_button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.fire)
        self._last = ""
        self.edit.textChanged.connect(self._typed)
        self.edit.installEventFilter(self)
        self.retranslate()

    def retranslate(self) -> None:
        self.edit.setPlaceholderText(self.tr('Search memories (Ctrl+F) — words, "phrases", tag:work, -exclude'))
        self.edit.setToolTip(self.tr("Search as you type. Click ? next to the box for the search syntax."))
        self.help_button.setToolTip(self.tr("Search syntax, with an example of each operator"))
        self.save_button.setToolTip(self.tr("Save this search in the tree"))

    def text(self) -> str:
        return self.edit.text()

    def set_text(self, text: str, *, now: bool = True) -> None:
        """Set the query (a saved search, a clicked tag); ``now`` skips the debounce."""
        self.edit.setText(text)
        if now:
            self.fire()

    def clear(self) -> None:
        self.set_text("")

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def _typed(self, text: str) -> None:
        self.save_button.setEnabled(bool(text.strip()))
        self._timer.start()

    def fire(self) -> None:
        self._timer.stop()
        text = self.edit.text()
        if text.strip() == self._last.strip() and text.strip():
            return
        self._last = text
        self.query_changed.emit(text)

    def pending(self) -> bool:
        """A keystroke is waiting out the debounce."""
        return self._timer.isActive()

    def set_error(self, message: str) -> None:
        self.edit.setStyleSheet("QLineEdit { border: 1px solid #d9534f; }" if message else "")
        if message:
            self.edit.setToolTip(message)
        else:
            self.retranslate()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.KeyPress:
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                self.step_requested.emit(1 if key == Qt.Key.Key_Down else -1)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.fire()
                self.open_requested.emit()
                return True
            if key == Qt.Key.Key_Escape and self.edit.text():
                self.clear()
                return True
        return super().eventFilter(watched, event)
