"""Search words marked in the table's title and content cells.

The delegate paints text runs itself instead of laying out rich text: a
QTextDocument per cell cost ~1 ms, which a keystroke's repaint cannot afford.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate

MARK_COLOUR = QColor("#ffe066")
SNIPPET_CHARS = 80
RUNS_ROLE = Qt.ItemDataRole.UserRole + 3  # [(piece, is_match)] of a searched cell, else None


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
    """Runs of the part of the content around the first match, on one line."""
    text = " ".join(content.split())
    folded = text.casefold()
    hits = [folded.find(t.casefold()) for t in terms if t]
    hits = [h for h in hits if h >= 0]
    start = max(0, min(hits) - 12) if hits else 0
    piece = ("…" if start else "") + text[start : start + width] + ("…" if start + width < len(text) else "")
    return runs(piece, terms)


class MarkedDelegate(QStyledItemDelegate):
    """A cell with RUNS_ROLE data is painted run by run, the matches on a yellow ground."""

    MARGIN = 4

    def paint(self, painter, option, index):
        pieces = index.data(RUNS_ROLE)
        if not pieces:
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        widget = option.widget
        option.text = ""
        if widget is not None:
            widget.style().drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        colour = option.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        metrics = QFontMetrics(option.font)
        rect = option.rect.adjusted(self.MARGIN, 0, -self.MARGIN, 0)
        x, right = rect.left(), rect.right()
        painter.save()
        painter.setFont(option.font)
        for piece, marked in pieces:
            if x >= right:
                break
            width = metrics.horizontalAdvance(piece)
            if x + width > right:
                piece = metrics.elidedText(piece, Qt.TextElideMode.ElideRight, right - x)
                width = metrics.horizontalAdvance(piece)
            box = QRect(x, rect.top(), width, rect.height())
            if marked:
                painter.fillRect(box, MARK_COLOUR)
            painter.setPen(QColor("#000000") if marked else colour)
            painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, piece)
            x += width
        painter.restore()
