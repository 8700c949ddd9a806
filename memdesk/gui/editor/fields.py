"""Field widgets the editor needs beyond Qt's own: tags with completion of
the last tag being typed, an importance that says when it is automatic, an
optional expiry time, and a highlighter for the words a search matched."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from PySide6.QtCore import QDateTime, QStringListModel, Qt, QTimeZone, Signal
from PySide6.QtGui import QColor, QSyntaxHighlighter, QTextCharFormat
from PySide6.QtWidgets import (
    QCheckBox,
    QCompleter,
    QDateTimeEdit,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

_SEPARATORS = re.compile(r"[,，、;；]")


class TagsEdit(QLineEdit):
    """Comma-separated tags; the completer offers known tags for the last one."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._names = QStringListModel(self)
        self.completer_ = QCompleter(self._names, self)
        self.completer_.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer_.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer_.setWidget(self)
        self.completer_.activated.connect(self._insert)
        self.textEdited.connect(self._suggest)

    def set_names(self, names: list[str]) -> None:
        self._names.setStringList(names)

    def _last_token(self) -> tuple[int, str]:
        text = self.text()[: self.cursorPosition()]
        parts = list(_SEPARATORS.finditer(text))
        start = parts[-1].end() if parts else 0
        return start, text[start:].strip()

    def _suggest(self, _text: str) -> None:
        _, token = self._last_token()
        if not token:
            self.completer_.popup().hide()
            return
        self.completer_.setCompletionPrefix(token)
        if self.completer_.completionCount():
            self.completer_.complete()
        else:
            self.completer_.popup().hide()

    def _insert(self, name: str) -> None:
        start, _ = self._last_token()
        rest = self.text()[self.cursorPosition() :]
        head = self.text()[:start]
        if head and not head.endswith(" "):
            head += " "
        self.setText(f"{head}{name}, {rest.lstrip(', ')}".rstrip())
        self.setCursorPosition(len(head) + len(name) + 2)


class ImportanceEdit(QSpinBox):
    """Importance 1–10, or automatic: the store estimates it from the text until a person sets it.

    Automatic shows as “Automatic (estimated 6)” (the value 0 below 1); the first
    step from there starts at the estimate, so ▲ on an estimated 6 gives 7.
    ``importance()`` is None while automatic.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setRange(0, 10)
        self.estimate: int | None = None
        self.set_estimate(None)

    def set_estimate(self, estimate: int | None) -> None:
        """The store's estimate (None: not known yet, e.g. a memory not saved)."""
        self.estimate = estimate
        if estimate is None:
            self.setSpecialValueText(self.tr("Automatic (estimated on saving)"))
        else:
            self.setSpecialValueText(self.tr("Automatic (estimated {n})").format(n=estimate))

    def importance(self) -> int | None:
        return self.value() or None

    def set_importance(self, value: int | None) -> None:
        self.setValue(value or 0)

    def stepBy(self, steps: int) -> None:
        if self.value() == 0 and steps > 0:
            self.setValue(max(1, min(10, (self.estimate or 5) + steps)))
        else:
            super().stepBy(steps)


class ExpiryEdit(QWidget):
    """'Expires' checkbox plus a date and time; value() is an aware UTC datetime or None."""

    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.check = QCheckBox(self)
        self.when = QDateTimeEdit(self)
        self.when.setCalendarPopup(True)
        self.when.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.when.setEnabled(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.check)
        layout.addWidget(self.when, 1)
        self.check.toggled.connect(self.when.setEnabled)
        self.check.toggled.connect(self.changed)
        self.when.dateTimeChanged.connect(self.changed)

    def set_value(self, value: datetime | None) -> None:
        self.blockSignals(True)
        if value is None:
            self.check.setChecked(False)
            self.when.setDateTime(QDateTime.currentDateTime().addDays(30))
        else:
            seconds = int(value.timestamp())
            self.when.setDateTime(QDateTime.fromSecsSinceEpoch(seconds, QTimeZone.systemTimeZone()))
            self.check.setChecked(True)
        self.blockSignals(False)

    def value(self) -> datetime | None:
        if not self.check.isChecked():
            return None
        seconds = self.when.dateTime().toSecsSinceEpoch()
        return datetime.fromtimestamp(seconds - seconds % 60, timezone.utc)  # the field shows minutes


class TermHighlighter(QSyntaxHighlighter):
    """Marks the words of the search that opened this memory."""

    def __init__(self, document):
        super().__init__(document)
        self._pattern = None
        self._format = QTextCharFormat()
        self._format.setBackground(QColor("#ffe066"))

    def set_terms(self, terms) -> None:
        terms = sorted({t for t in terms if t and t.strip()}, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(t) for t in terms), re.IGNORECASE) if terms else None
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        if self._pattern is None:
            return
        for match in self._pattern.finditer(text):
            self.setFormat(match.start(), match.end() - match.start(), self._format)
