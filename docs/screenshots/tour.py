"""A tour of every window and dialog, in Chinese and English, at 1280×800 and 800×600.

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python docs/screenshots/tour.py [zh_CN|en]

Needs a CJK font (fonts-wqy-microhei). Writes tour/<screen>-<size>.png (Chinese) and
tour/en/<screen>-<size>.png (English, not committed). The README's gallery links the
Chinese ones; looking through them is how a screen is checked for unfinished work.
The scenes themselves (scenes.py) are shared with tests/gui/test_screens.py.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

SIZES = ((1280, 800), (800, 600))


def shoot(language: str) -> None:
    from PySide6.QtCore import QSettings

    settings_dir = tempfile.mkdtemp()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )
    from scenes import SCENES, Tour

    from memdesk.gui.main import application

    application()
    out = HERE / "tour" if language == "zh_CN" else HERE / "tour" / "en"
    out.mkdir(parents=True, exist_ok=True)
    tour = Tour(Path(tempfile.mkdtemp()) / "memdesk.db")
    try:
        for width, height in SIZES:
            tour.window.resize(width, height)
            for name in SCENES:
                widget = tour.open(name, (width, height))
                save(widget.grab().toImage(), out / f"{name}-{width}x{height}.png")
                tour.close(name)
    finally:
        tour.shutdown()


def save(image, path: Path) -> None:
    """Screens are flat colours and text: 8-bit colour keeps them sharp at a fraction of the size."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    small = image.convertToFormat(
        QImage.Format.Format_Indexed8, Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.PreferDither
    )
    small.save(str(path), "PNG", 0)


def main() -> int:
    languages = sys.argv[1:] or ["zh_CN", "en"]
    if len(languages) > 1:
        for language in languages:  # one process per language: translators load once
            subprocess.run([sys.executable, __file__, language], check=True)
        return 0
    shoot(languages[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
