"""Icons from resources/icons, cached; persona colour dots drawn on the fly."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from .resources_path import resource


@lru_cache(maxsize=64)
def icon(name: str) -> QIcon:
    path = resource("icons", f"{name}.svg")
    return QIcon(str(path)) if path.exists() else QIcon()


def app_icon() -> QIcon:
    out = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        path = resource("icons", f"memdesk-{size}.png")
        if path.exists():
            out.addFile(str(path))
    return out if not out.isNull() else icon("memdesk")


@lru_cache(maxsize=256)
def colour_dot(colour: str, size: int = 14) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    fill = QColor(colour) if colour else QColor("#9aa5b1")
    painter.setBrush(fill)
    painter.setPen(fill.darker(130))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)
