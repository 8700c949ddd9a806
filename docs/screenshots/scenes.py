"""Every window and dialog of MemDesk, opened on a database that gives each something to show.

Used by tour.py (screenshots) and tests/gui/test_screens.py (no English left in the
Chinese screens, and the other way round). A Tour is the real App on a real SQLite file
with the example memories, two near-duplicates (a merge proposal and a maintenance
report), and an assistant's calls: one that worked, one reverted, one that failed.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

from memdesk.gui.dialogs.ask import Asker

SCENES = (
    "main",
    "search",
    "why-found",
    "settings-general",
    "settings-search",
    "settings-maintenance",
    "settings-model",
    "personas",
    "review-proposal",
    "review-report",
    "tool-log",
    "statistics",
    "context-preview",
    "syntax-help",
    "about",
    "import-preview",
    "conflict",
    "empty-trash",
)

TEA_SHORT = "用户喜欢喝乌龙茶，每天下午一杯，不加糖"
TEA_LONG = "用户喜欢喝乌龙茶，每天下午喝一杯，不加糖"


def wait(condition, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("gave up waiting")
        loop = QEventLoop()
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def settle_events(rounds: int = 5) -> None:
    for _ in range(rounds):
        QApplication.processEvents()


class TourAsker(Asker):
    """Shows a question without blocking and answers "cancel": the tour photographs it."""

    def __init__(self):
        self.box: QMessageBox | None = None

    def choose(self, parent, title, text, options, *, default=None, cancel=None, detail="", warning=False):
        self.box, _ = self.question_box(
            parent, title, text, options, default=default, cancel=cancel, detail=detail, warning=warning
        )
        self.box.show()
        return cancel

    def inform(self, parent, title, text):
        self.box = QMessageBox(QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok, parent)
        self.box.show()


class Tour:
    def __init__(self, db_path: Path, *, asker: Asker | None = None):
        from memdesk.gui.main import App

        self.db_path = Path(db_path)
        self.asker = asker or TourAsker()
        self.written: list[str] = []  # what the tour typed or imported: user data wherever it shows
        self.app = App(ask=self.asker, maintenance_delay_ms=10**9)
        assert self.app.open(self.db_path, create=True)
        self.window = self.app.window
        self.window.show()
        imported = []
        self.window.importer.imported.connect(imported.append)
        self.window.examples_banner.yes_button.click()
        wait(lambda: imported and not self.window.browser.tree.building)
        self.idle()
        self._seed()

    # ---- the data every screen needs ----------------------------------------------------------
    def idle(self) -> None:
        window = self.window
        wait(
            lambda: (
                window.browser.backend.engine_ready
                and not window.session.writing
                and not window.session.busy
                and not self.app.session.taskman.tasks()
                and not window.browser.tree.building
            )
        )
        settle_events()

    def _seed(self) -> None:
        from memdesk.core.maintenance import run_maintenance
        from memdesk.core.tools import log
        from memdesk.core.tools.service import MemoryTools, ToolError

        store = self.window.session.store
        life = next(p for p in store.personas() if p.name == "生活管家")
        store.add(content=TEA_SHORT, title="喝乌龙茶", tags=["饮食"], persona_id=life.id)
        store.add(content=TEA_LONG, title="下午茶", tags=["饮食", "习惯"], persona_id=life.id)
        run_maintenance(store)
        tools = MemoryTools(store, persona="工作助手", client="claude-desktop")
        tools.call("memory_save", {"content": "用户每周三下午有部门例会", "title": "部门例会"})
        saved = tools.call(
            "memory_upsert", {"content": "用户下个月去深圳出差三天", "title": "深圳出差", "dedup_key": "trip"}
        )
        calls = log.calls(limit=1)
        with store.write():
            log.revert(calls[0].id)
        assert saved
        try:
            tools.call("memory_save", {"title": "会议纪要"})  # no content: refused
        except ToolError:
            pass  # the failed call is what the tool log must show
        memory = next(m for m in store.list() if m.title == "学英语")
        store.delete([memory.id])  # something in the trash to empty
        self.window.session.check_external()
        self.idle()

    def memory(self, title: str):
        return next(m for m in self.window.session.store.list() if m.title == title)

    # ---- scenes -------------------------------------------------------------------------------
    def open(self, name: str, size: tuple[int, int]) -> QWidget:
        widget = getattr(self, "_" + name.replace("-", "_"))()
        if widget is not self.window:
            # A dialog never gets more room than the screen the window is sized for.
            hint = widget.size().expandedTo(widget.minimumSizeHint())
            widget.resize(min(hint.width(), size[0]), min(hint.height(), size[1] - 40))
        settle_events()
        return widget

    def close(self, name: str) -> None:
        for widget in QApplication.topLevelWidgets():
            if widget is not self.window and widget.isVisible() and isinstance(widget, (QDialog, QMessageBox)):
                widget.close()
        editor = self.window.editor
        if editor.conflict_dialog is not None:
            editor.conflict_dialog = None
        if editor.dirty:
            editor.revert()
        self.window.search_bar.clear()
        self.idle()

    def _open_memory(self, title: str) -> None:
        memory = self.memory(title)
        tree = self.window.browser.tree
        for place in (("group", "工作"), ("group", "工作/项目"), ("group", "生活")):
            node = tree.model.tree.containers.get(place)
            if node is not None:
                tree.view.expand(tree.model.index_of(node))
        tree.select_memory(memory.id, quiet=False)
        wait(lambda: self.window.editor.memory_id == memory.id)

    def _main(self) -> QWidget:
        self._open_memory("项目：记忆台")
        self.window.editor.tabs.setCurrentIndex(0)
        return self.window

    def _search(self) -> QWidget:
        finished = []
        self.window.browser.search_finished.connect(finished.append)
        self.window.search_bar.set_text("过敏 OR 咖啡")
        wait(lambda: finished)
        self.window.browser.search_finished.disconnect(finished.append)
        self.window._open_current_result()
        self.window.editor.tabs.setCurrentIndex(0)
        return self.window

    def _why_found(self) -> QWidget:
        self._search()
        self.window.editor.tabs.setCurrentWidget(self.window.editor.explain)
        return self.window

    def _settings(self, tab: int) -> QWidget:
        self.window.open_settings()
        dialog = self.window.settings_dialog
        dialog.tabs.setCurrentIndex(tab)
        return dialog

    def _settings_general(self) -> QWidget:
        return self._settings(0)

    def _settings_search(self) -> QWidget:
        return self._settings(1)

    def _settings_maintenance(self) -> QWidget:
        return self._settings(2)

    def _settings_model(self) -> QWidget:
        return self._settings(3)

    def _personas(self) -> QWidget:
        self.window.open_personas()
        return self.window.personas_dialog

    def _review(self, tab: int) -> QWidget:
        self.window.open_review_inbox()
        dialog = self.window.review_dialog
        dialog.tabs.setCurrentIndex(tab)
        return dialog

    def _review_proposal(self) -> QWidget:
        return self._review(0)

    def _review_report(self) -> QWidget:
        return self._review(1)

    def _tool_log(self) -> QWidget:
        self.window.open_tool_log()
        return self.window.tool_log_dialog

    def _statistics(self) -> QWidget:
        self.window.open_statistics()
        dialog = self.window.statistics_dialog
        wait(lambda: dialog.stats is not None)
        return dialog

    def _context_preview(self) -> QWidget:
        self.window.open_context_preview()
        return self.window.context_preview_dialog

    def _syntax_help(self) -> QWidget:
        self.window.show_syntax()
        return self.window.syntax_dialog

    def _about(self) -> QWidget:
        return self.window.show_about()

    def _import_preview(self) -> QWidget:
        data = {
            "memories": [
                {
                    "id": "seed-1",
                    "personaId": "3f2a9c1e-0000-4000-8000-000000000001",
                    "content": "用户喜欢爬山",
                    "title": "爱好",
                    "tags": ["运动"],
                },
                {"id": "seed-2", "content": "用户的生日是五月三日", "title": "生日"},
                {"id": "seed-3", "content": ""},
            ]
        }
        self.written += [json.dumps(data, ensure_ascii=False)]
        path = self.db_path.with_name("助手导出.json")
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        opened = []
        self.window.importer.preview_opened.connect(opened.append)
        self.window.importer.import_file(path)
        wait(lambda: opened)
        self.window.importer.preview_opened.disconnect(opened.append)
        return opened[0]

    def _conflict(self) -> QWidget:
        store = self.window.session.store
        memory = self.memory("猫的名字")
        base, tags = self._cat = getattr(self, "_cat", (memory.content, list(memory.tags)))
        if memory.content != base:  # the same story at each size
            store.update(memory.id, expected_version=None, content=base, tags=tags)
            self.window.session.check_external()
            self.idle()
        self._open_memory("猫的名字")
        editor = self.window.editor
        mine, theirs = base + "它三岁了，最爱吃鸡胸肉，晚上十点准时睡觉。", base + "它三岁，怕打雷，下雨天要陪着它。"
        self.written += [mine, theirs]
        editor.form.content.setPlainText(mine)
        store.update(memory.id, expected_version=None, reason="ai", content=theirs, tags=[*tags, "家"])
        editor.save()
        wait(lambda: editor.conflict_dialog is not None and editor.conflict_dialog.isVisible())
        return editor.conflict_dialog

    def _empty_trash(self) -> QWidget:
        self.window.acts.empty_trash.trigger()
        return self.asker.box

    def shutdown(self) -> None:
        self.window.editor._dirty = False
        self.app.shutdown()
        self.window.close()
