"""Search results: a list model holding hit ids, rows filled lazily in blocks
(Anki's browser table), drawn with the matched words highlighted.

The delegate paints text runs itself instead of laying out rich text: a
QTextDocument per row cost ~1 ms, which a keystroke's repaint cannot afford.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QAbstractListModel, QModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from ...core.listing import brief_of, contents, load_briefs
from .. import labels
from .search_backend import Outcome
from .tree_model import MIME_IDS, mime_for_ids

BLOCK = 50  # rows read from the store at a time, when first shown
ID_ROLE = Qt.ItemDataRole.UserRole + 1
PARTS_ROLE = Qt.ItemDataRole.UserRole + 2  # {"title": runs, "snippet": runs, "meta": str}
MARK_COLOUR = QColor("#ffe066")
SNIPPET_CHARS = 90


def runs(text: str, terms) -> list[tuple[str, bool]]:
    """The text cut into (piece, is_match) runs."""
    terms = sorted({t for t in terms if t and t.strip()}, key=len, reverse=True)
    if not terms:
        return [(text, False)]
    pattern = re.compile("|".join(re.escape(t) for t in terms), re.IGNORECASE)
    out, last = [], 0
    for match in pattern.finditer(text):
        if match.start() > last:
            out.append((text[last : match.start()], False))
        out.append((match.group(0), True))
        last = match.end()
    if last < len(text):
        out.append((text[last:], False))
    return out


def snippet(content: str, terms, width: int = SNIPPET_CHARS) -> list[tuple[str, bool]]:
    """Runs of the part of the content around the first match."""
    text = " ".join(content.split())
    folded = text.casefold()
    hits = [folded.find(t.casefold()) for t in terms if t]
    hits = [h for h in hits if h >= 0]
    start = max(0, min(hits) - 20) if hits else 0
    piece = ("…" if start else "") + text[start : start + width] + ("…" if start + width < len(text) else "")
    return runs(piece, terms)


class ResultsModel(QAbstractListModel):
    def __init__(self, store, parent=None):
        super().__init__(parent)
        self.store = store
        self.outcome = Outcome("", [], ())
        self._rows: dict[str, tuple] = {}  # id -> (brief, content) for rows already shown
        self.persona_names: dict[str, str] = {}

    def set_outcome(self, outcome: Outcome) -> None:
        self.beginResetModel()
        self.outcome = outcome
        self._rows.clear()
        self.endResetModel()

    def hit(self, row: int):
        hits = self.outcome.hits
        return hits[row] if 0 <= row < len(hits) else None

    def row_of(self, memory_id: str) -> int:
        return next((i for i, h in enumerate(self.outcome.hits) if h.id == memory_id), -1)

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.outcome.hits)

    def _row(self, row: int):
        hit = self.outcome.hits[row]
        memory_id = hit.id
        if memory_id not in self._rows and hit.record is not None:
            self._rows[memory_id] = (brief_of(hit.record), hit.record.content)
        if memory_id not in self._rows:
            start = row - row % BLOCK
            ids = [h.id for h in self.outcome.hits[start : start + BLOCK] if h.id not in self._rows]
            briefs, texts = load_briefs(self.store, ids=ids), contents(self.store, ids)
            for i in ids:
                self._rows[i] = (briefs.get(i), texts.get(i, ("", ""))[1])
        return self._rows[memory_id]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.outcome.hits):
            return None
        hit = self.outcome.hits[index.row()]
        if role == ID_ROLE:
            return hit.id
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, PARTS_ROLE):
            return None
        brief, content = self._row(index.row())
        if brief is None:
            gone = self.tr("(gone)")
            return {"title": [(gone, False)], "snippet": [], "meta": ""} if role == PARTS_ROLE else gone
        if role == Qt.ItemDataRole.DisplayRole:
            return brief.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return content[:500]
        terms = tuple(hit.terms) + tuple(self.outcome.terms)
        meta = [brief.group or self.tr("(no group)"), labels.label("type", brief.type)]
        meta.append(self.persona_names.get(brief.persona_id, "") if brief.persona_id else self.tr("Global"))
        if brief.state != "active":
            meta.append(labels.label("state", brief.state))
        return {
            "title": runs(brief.title, terms),
            "snippet": snippet(content, terms),
            "meta": " · ".join(m for m in meta if m),
        }

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled

    def mimeData(self, indexes):
        return mime_for_ids([self.outcome.hits[i.row()].id for i in indexes if i.isValid()])

    def mimeTypes(self):
        return [MIME_IDS]

    def supportedDragActions(self):
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction


class ResultDelegate(QStyledItemDelegate):
    """Three lines: the title (bold), a snippet, where the memory lives; matches marked."""

    MARGIN = 6

    def paint(self, painter, option, index):
        self.initStyleOption(option, index)
        widget = option.widget
        style = widget.style() if widget else None
        option.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, widget)
        parts = index.data(PARTS_ROLE)
        if not parts:
            return
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text = option.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        dim = text if selected else option.palette.color(QPalette.ColorRole.PlaceholderText)
        bold = QFont(option.font)
        bold.setBold(True)
        line = QFontMetrics(option.font).lineSpacing()
        rect = option.rect.adjusted(self.MARGIN, 3, -self.MARGIN, -3)
        painter.save()
        self._runs(painter, bold, rect.left(), rect.top(), rect.right(), line, parts["title"], text)
        self._runs(painter, option.font, rect.left(), rect.top() + line, rect.right(), line, parts["snippet"], text)
        painter.setFont(option.font)
        painter.setPen(dim)
        meta = QFontMetrics(option.font).elidedText(parts["meta"], Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(
            QRect(rect.left(), rect.top() + 2 * line, rect.width(), line),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            meta,
        )
        painter.restore()

    @staticmethod
    def _runs(painter, font, x, y, right, height, pieces, colour) -> None:
        metrics = QFontMetrics(font)
        painter.setFont(font)
        for piece, marked in pieces:
            if x >= right:
                break
            width = metrics.horizontalAdvance(piece)
            if x + width > right:
                piece = metrics.elidedText(piece, Qt.TextElideMode.ElideRight, right - x)
                width = metrics.horizontalAdvance(piece)
            box = QRect(x, y, width, height)
            if marked:
                painter.fillRect(box, MARK_COLOUR)
            painter.setPen(QColor("#000000") if marked else colour)
            painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, piece)
            x += width

    def sizeHint(self, option, index):
        return QSize(200, QFontMetrics(option.font).lineSpacing() * 3 + 8)


class ResultsPane(QWidget):
    memory_selected = Signal(str)

    def __init__(self, store, parent=None):
        super().__init__(parent)
        self.model = ResultsModel(store, self)
        self.header = QLabel(self)
        self.header.setObjectName("resultsHeader")
        self.header.setWordWrap(True)
        self.view = QListView(self)
        self.view.setObjectName("resultsList")
        self.view.setModel(self.model)
        self.view.setItemDelegate(ResultDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setDragEnabled(True)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.view)
        self.view.selectionModel().currentChanged.connect(self._on_current)
        self._quiet = 0

    def show_outcome(self, outcome: Outcome) -> None:
        current = self.current_id()
        self._quiet += 1
        try:
            self.model.set_outcome(outcome)
            row = self.model.row_of(current) if current else -1
            if row >= 0:
                self.view.setCurrentIndex(self.model.index(row))
        finally:
            self._quiet -= 1
        if outcome.error:
            self.header.setText(self.tr("Cannot read the search: {error}").format(error=outcome.error))
        elif not outcome.hits:
            self.header.setText(self.tr("Nothing found. Esc clears the search."))
        else:
            self.header.setText(self.tr("%n found · Esc clears the search", "", len(outcome.hits)))

    def current_id(self) -> str | None:
        index = self.view.currentIndex()
        return index.data(ID_ROLE) if index.isValid() else None

    def selected_ids(self) -> list[str]:
        rows = sorted(i.row() for i in self.view.selectionModel().selectedRows())
        return [self.model.outcome.hits[r].id for r in rows if self.model.hit(r)]

    def step(self, delta: int) -> str | None:
        """Move to the next (+1) or previous (-1) result; returns its id."""
        count = self.model.rowCount()
        if not count:
            return None
        row = self.view.currentIndex().row()
        row = 0 if row < 0 else max(0, min(count - 1, row + delta))
        self.view.setCurrentIndex(self.model.index(row))
        return self.current_id()

    def select_id(self, memory_id: str | None) -> None:
        self._quiet += 1
        try:
            row = self.model.row_of(memory_id) if memory_id else -1
            if row >= 0:
                self.view.setCurrentIndex(self.model.index(row))
        finally:
            self._quiet -= 1

    def _on_current(self, current, previous) -> None:
        if not self._quiet and current.isValid():
            self.memory_selected.emit(current.data(ID_ROLE))
