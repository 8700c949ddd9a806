"""Render resources/icons/memdesk.svg into the PNG sizes, .ico and .icns the installers use.

Run: python packaging/make_icons.py  (needs PySide6 and Pillow, the `package` extra).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)


def render_pngs() -> list[Path]:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 - needed for painting
    renderer = QSvgRenderer(str(ICONS / "memdesk.svg"))
    if not renderer.isValid():
        raise SystemExit("memdesk.svg could not be read")
    made = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format_ARGB32)
        image.fill(Qt.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = ICONS / f"memdesk-{size}.png"
        image.save(str(target))
        made.append(target)
    return made


def main() -> int:
    pngs = render_pngs()
    from PIL import Image

    big = Image.open(ICONS / "memdesk-1024.png")
    big.save(ICONS / "memdesk.ico", sizes=[(s, s) for s in (16, 24, 32, 48, 64, 128, 256)])
    big.save(ICONS / "memdesk.icns")
    print("wrote", ", ".join(p.name for p in pngs), "memdesk.ico, memdesk.icns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
