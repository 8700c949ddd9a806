"""A memory's revision history (with a diff of each change) and its supersede chain."""

from __future__ import annotations

import difflib
import html

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.domain.times import parse_time
from memdesk.gui import labels

CHAR_DIFF_LIMIT = 4000  # longer texts are compared line by line
INS = '<span style="background-color:#d4f7d4;color:#145214">{}</span>'
DEL = '<span style="background-color:#fbd5d5;color:#7a1010;text-decoration:line-through">{}</span>'


def local_time(value) -> str:
    if value is None:
        return "—"
    return value.astimezone().strftime("%Y-%m-%d %H:%M")


def _show(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def diff_html(before: str, after: str) -> str:
    """Insertions and deletions marked; by character (Chinese has no spaces) or by line."""
    if len(before) + len(after) > CHAR_DIFF_LIMIT:
        a, b, joiner = before.splitlines(keepends=True), after.splitlines(keepends=True), ""
    else:
        a, b, joiner = list(before), list(after), ""
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        old, new = joiner.join(a[i1:i2]), joiner.join(b[j1:j2])
        if op == "equal":
            out.append(html.escape(old))
        if op in ("delete", "replace"):
            out.append(DEL.format(html.escape(old)))
        if op in ("insert", "replace"):
            out.append(INS.format(html.escape(new)))
    return "".join(out).replace("\n", "<br>")


def _value_text(field: str, value) -> str:
    if field == "expires_at" and value:
        try:
            return local_time(parse_time(value))
        except ValueError:
            return str(value)
    if field == "type":
        return labels.label("type", value)
    if field == "scope":
        return labels.label("scope", value)
    return _show(value)


def revision_html(revision, persona_names: dict) -> str:
    names = labels.fields()
    parts = []
    for field in sorted(
        set(revision.before) | set(revision.after), key=lambda f: list(names).index(f) if f in names else 99
    ):
        before, after = revision.before.get(field), revision.after.get(field)
        if field == "persona_id":
            everyone = QCoreApplication.translate("HistoryPanel", "Global")
            before = persona_names.get(before, before) if before else everyone
            after = persona_names.get(after, after) if after else everyone
        parts.append(
            f"<p><b>{html.escape(names.get(field, field))}</b><br>"
            f"{diff_html(_value_text(field, before), _value_text(field, after))}</p>"
        )
    return "".join(parts)


class HistoryPanel(QWidget):
    """Revisions newest first; the selected one's changes as a diff."""

    revert_requested = Signal(int)  # revision id

    def __init__(self, parent=None):
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setObjectName("revisionList")
        self.list.setWordWrap(True)
        self.view = QTextBrowser(self)
        self.view.setObjectName("revisionDiff")
        self.revert_button = QPushButton(self)
        self.revert_button.setEnabled(False)
        self.revert_button.clicked.connect(self._revert)
        self.empty = QLabel(self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.list)
        right = QWidget(split)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.view)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.revert_button)
        right_layout.addLayout(buttons)
        split.addWidget(right)
        split.setSizes([230, 370])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty)
        layout.addWidget(split)
        self._split = split
        self._revisions = []
        self._persona_names: dict = {}
        self.list.currentRowChanged.connect(self._show)
        self.retranslate()
        self.set_revisions([], {})

    def retranslate(self) -> None:
        self.revert_button.setText(self.tr("Put back the earlier values"))
        self.revert_button.setToolTip(self.tr("Undo this change by restoring what it replaced (can be undone)"))
        self.empty.setText(self.tr("No changes yet: this memory is as it was first saved."))

    def set_revisions(self, revisions, persona_names: dict) -> None:
        self._revisions = list(reversed(revisions))
        self._persona_names = persona_names
        reasons = labels.reasons()
        self.list.clear()
        for revision in self._revisions:
            text = self.tr("{when} · {reason} · version {version}").format(
                when=local_time(revision.at),
                reason=reasons.get(revision.reason, revision.reason),
                version=revision.version,
            )
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, revision.id)
            self.list.addItem(item)
        has = bool(self._revisions)
        self.empty.setVisible(not has)
        self._split.setVisible(has)
        if has:
            self.list.setCurrentRow(0)
        else:
            self.view.clear()
            self.revert_button.setEnabled(False)

    def _show(self, row: int) -> None:
        if 0 <= row < len(self._revisions):
            self.view.setHtml(revision_html(self._revisions[row], self._persona_names))
            self.revert_button.setEnabled(True)
        else:
            self.view.clear()
            self.revert_button.setEnabled(False)

    def _revert(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._revisions):
            self.revert_requested.emit(self._revisions[row].id)


class ChainPanel(QWidget):
    """The memories this one replaced, itself, and what replaced it (oldest first)."""

    open_requested = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setObjectName("supersedeChain")
        self.list.setMaximumHeight(self.list.fontMetrics().lineSpacing() * 6)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.list)
        self.list.itemActivated.connect(lambda item: self.open_requested.emit(item.data(Qt.ItemDataRole.UserRole)))
        self.set_chain([], None)

    def set_chain(self, chain, current_id) -> None:
        self.list.clear()
        self.list.setVisible(len(chain) > 1)  # under 详细信息: no empty box when there is no chain
        if len(chain) <= 1:
            self.note.setText(self.tr("This memory has not replaced another one, and nothing has replaced it."))
            return
        self.note.setText(self.tr("Oldest first. Double-click to open one."))
        position = next((i for i, m in enumerate(chain) if m.id == current_id), 0)
        for i, memory in enumerate(chain):
            if i < position:
                mark = self.tr("replaced by the next")
            elif i == position:
                mark = self.tr("this memory")
            else:
                mark = self.tr("replacement")
            item = QListWidgetItem(f"{memory.display_title}  —  {mark} · {local_time(memory.updated_at)}")
            item.setData(Qt.ItemDataRole.UserRole, memory.id)
            if i == position:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.list.addItem(item)
