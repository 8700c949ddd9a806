"""Screenshots of the real window with the example memories, in Chinese and English.

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python docs/screenshots/take.py

Needs a CJK font (fonts-wqy-microhei on Debian/Ubuntu). Writes main-zh.png,
main-en.png, search-zh.png and search-en.png next to this file.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))


def wait(app, condition, timeout_s=60):
    import time

    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("gave up waiting")
        loop = QEventLoop()
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def shoot(language: str, suffix: str) -> None:
    from PySide6.QtCore import QSettings

    settings_dir = tempfile.mkdtemp()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )
    from memdesk.gui.main import App, application

    qt_app = application()
    db = Path(tempfile.mkdtemp()) / "memdesk.db"
    app = App(maintenance_delay_ms=10**9)
    app.open(db, create=True)
    window = app.window
    window.resize(1280, 800)
    imported = []
    window.importer.imported.connect(imported.append)
    window.examples_banner.yes_button.click()
    wait(qt_app, lambda: imported and not window.browser.tree.building)
    wait(qt_app, lambda: window.browser.backend.engine_ready and not app.session.taskman.tasks())

    store = window.session.store
    project = next(m for m in store.list() if m.title == "项目：记忆台")
    # One edit by hand and one by an assistant, so the history has something to show.
    store.update(project.id, expected_version=project.version, importance=9)
    store.update(
        project.id, expected_version=None, reason="ai", content=project.content + "下一步：完成中文界面和导入预览。"
    )
    window.session.check_external()
    wait(qt_app, lambda: not window.browser.tree.building and not app.session.taskman.tasks())

    tree = window.browser.tree
    for place in (("group", "工作"), ("group", "工作/项目"), ("group", "生活")):
        node = tree.model.tree.containers.get(place)
        if node is not None:
            tree.view.expand(tree.model.index_of(node))
    tree.select_memory(project.id, quiet=False)
    window.editor.tabs.setCurrentIndex(0)
    wait(qt_app, lambda: window.editor.memory_id == project.id)
    qt_app.processEvents()
    window.grab().save(str(HERE / f"main-{suffix}.png"))

    finished = []
    window.browser.search_finished.connect(finished.append)
    window.search_bar.set_text("咖啡 OR 过敏" if language == "zh_CN" else "咖啡 OR 过敏")
    wait(qt_app, lambda: finished)
    window._open_current_result()
    window.editor.tabs.setCurrentWidget(window.editor.explain)
    qt_app.processEvents()
    window.grab().save(str(HERE / f"search-{suffix}.png"))
    app.shutdown()
    window.close()


def main() -> int:
    language = sys.argv[1] if len(sys.argv) > 1 else None
    if language is None:
        import subprocess

        for lang in ("zh_CN", "en"):  # one process per language: translators load once
            subprocess.run([sys.executable, __file__, lang], check=True)
        return 0
    shoot(language, "zh" if language == "zh_CN" else "en")
    return 0


if __name__ == "__main__":
    sys.exit(main())
