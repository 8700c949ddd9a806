"""Every window and dialog reads as finished work: no English left under zh_CN, no Chinese
interface text or internal names under en, no placeholder left unfilled.

The screens are the tour's (docs/screenshots/scenes.py): the real App on a real
SQLite file with the example memories, a merge proposal, a maintenance report and
an assistant's calls (one failed, one reverted).
"""

from __future__ import annotations

import html
import importlib.util
import re
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QWidget,
)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# Latin words a Chinese screen may show: names of things, formats, and what the user types.
ALLOWED = {
    "MemDesk",
    "MCP",
    "JSON",
    "CSV",
    "ONNX",
    "bge",
    "Hugging",
    "Face",
    "English",
    "Ctrl",
    "Esc",
    "Shift",
    "Del",
    "int8",
    "fp32",
    "HF_ENDPOINT",
    "https",
    "http",
    "OR",
    "zip",
    "json",
    # an assistant's client as it calls itself (Assistant activity)
    "Claude",
    "Desktop",
    # the search language (Help › Search syntax): operators and their values are typed as written
    "persona",
    "group",
    "tag",
    "type",
    "scope",
    "tier",
    "is",
    "id",
    "importance",
    "created",
    "updated",
    "deleted",
    "expired",
    "superseded",
    "fact",
    "preference",
    "project",
    "task",
    "note",
    "short_term",
    "long_term",
    "hot",
    "warm",
    "cold",
    "archive",
}


# Shown as it is on purpose: the brief is the assistant's input, in the model's format (the dialog says so);
# the texts being compared are the user's.
VERBATIM = {"previewText", "memberContent", "memberDiff"}


def scenes_module():
    spec = importlib.util.spec_from_file_location("memdesk_tour_scenes", SCREENSHOTS / "scenes.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def visible_texts(top: QWidget) -> list[str]:
    """What a person sees in ``top``: labels, buttons, titles, tabs, table cells and headers, pages."""
    texts = [top.windowTitle()]
    for widget in [top, *top.findChildren(QWidget)]:
        if widget is not top and not widget.isVisibleTo(top):
            continue
        if isinstance(widget, QLabel):
            text = widget.text()
            texts.append(html.unescape(re.sub(r"<[^>]+>", " ", text)) if "<" in text else text)
        elif isinstance(widget, QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
        elif isinstance(widget, QGroupBox):
            texts.append(widget.title())
        elif isinstance(widget, QTabWidget):
            texts += [widget.tabText(i) for i in range(widget.count())]
        elif isinstance(widget, QComboBox):
            texts.append(widget.currentText())
        elif (
            isinstance(widget, (QTextEdit, QPlainTextEdit))
            and widget.isReadOnly()
            and widget.objectName() not in VERBATIM
        ):
            texts.append(widget.toPlainText())
        if (
            isinstance(widget, QAbstractItemView)
            and widget.model() is not None
            and not isinstance(widget.parent(), QComboBox)
            and not isinstance(widget, QTreeWidget)
        ):
            model, root = widget.model(), QModelIndex()
            try:
                columns = model.columnCount(root)
            except TypeError:  # a list model: one column, its columnCount private
                columns = 1
            texts += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(columns)]
            for row in range(min(model.rowCount(root), 30)):
                texts += [str(model.index(row, c, root).data() or "") for c in range(columns)]
        if isinstance(widget, QTreeWidget) and widget.isVisibleTo(top):
            header = widget.headerItem()
            texts += [header.text(c) for c in range(widget.columnCount())]
    if isinstance(top, QMainWindow):
        for menu in top.menuBar().findChildren(QMenu):
            texts += [a.text() for a in menu.actions() if a.isVisible()]
        texts += [a.text() for a in top.menuBar().actions()]
    return [t for t in texts if t]


def user_data(tour) -> str:
    """Everything the user or an assistant wrote: shown as it is, in any language."""
    store = tour.window.session.store
    parts = [str(store.path), "claude-desktop", "助手导出.json", "seed-1", "seed-2", "seed-3"]
    for memory in store.list(state="all"):
        parts += [memory.title or "", memory.content or "", memory.group or "", " ".join(memory.tags), memory.id]
    parts += [p.name for p in store.personas()] + tour.written
    return "\n".join(parts)


def allowed_word(word: str, data: str) -> bool:
    return (
        word in ALLOWED
        or word in data
        or re.fullmatch(r"memory_[a-z_]+", word) is not None  # a tool name
        or re.fullmatch(r"[0-9a-f]{4,}", word) is not None  # an id
        or "." in word
    )  # a file name, a web address, a version (model.onnx, hf-mirror.com, v1.5)


def english_words(text: str, data: str) -> list[str]:
    words = re.findall(r"[A-Za-z][A-Za-z0-9_]*(?:[.-][A-Za-z0-9_]+)*", text)
    return [
        w
        for w in words
        if len(re.sub(r"[^A-Za-z]", "", w)) >= 3
        and not allowed_word(w, data)
        and not any(w in token for token in re.findall(r"\S+", data))
    ]


def chinese_runs(text: str, data: str, extra: str) -> list[str]:
    """Chinese that is not user data (a diff joins pieces of two texts: a run made of pieces is known)."""

    def known(run: str) -> bool:
        if run in data or run in extra:
            return True
        ends = {0}  # where a split of run into pieces of user data (two characters or more) can end
        for end in range(2, len(run) + 1):
            if any(start in ends and run[start:end] in data for start in range(0, end - 1)):
                ends.add(end)
        return len(run) in ends

    return [run for run in re.findall(r"[\u4e00-\u9fff]+", text) if not known(run)]


@pytest.fixture
def tour_in(tmp_path, qtbot, isolated_qsettings):
    tours = []

    def start(language: str):
        QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
            "ui/language", language
        )
        from memdesk.gui.main import application

        application()
        scenes = scenes_module()
        tour = scenes.Tour(tmp_path / f"tour-{language}.db")
        tours.append(tour)
        return scenes, tour

    yield start
    for tour in tours:
        session = tour.window.session
        tour.shutdown()
        assert not session.unexpected_errors, session.unexpected_errors


def every_screen(scenes, tour):
    for name in scenes.SCENES:
        widget = tour.open(name, (1280, 800))
        yield name, widget, visible_texts(widget)
        tour.close(name)


def test_the_chinese_screens_show_no_english(tour_in):
    scenes, tour = tour_in("zh_CN")
    found, seen = [], set()
    for name, _widget, texts in every_screen(scenes, tour):
        seen.add(name)
        data = user_data(tour)  # as the scene left it
        for text in texts:
            words = english_words(text, data)
            if words:
                found.append((name, words, text[:80]))
            if re.search(r"\{[a-z_]+\}|%n", text):
                found.append((name, "placeholder", text[:80]))
    assert seen == set(scenes.SCENES)
    assert not found, "\n".join(map(str, found))


def test_the_english_screens_show_no_chinese_interface_and_no_internal_names(tour_in):
    scenes, tour = tour_in("en")
    # Chinese the English screens show on purpose: search examples that match the example memories,
    # the language's own name, the model tab's example of a meaning match.
    from memdesk.gui.dialogs.syntax_help import SyntaxHelpDialog

    # the search language's examples, English and Chinese filter words alike (typed as written)
    examples = [text for _s, english, chinese, _m in SyntaxHelpDialog().rows() for text in (english, chinese)]
    extra = "\n".join(["简体中文", "咖啡 过敏 茶", "type:偏好 类型:preference 类型:不存在", *examples])
    found = []
    for name, _widget, texts in every_screen(scenes, tour):
        data = user_data(tour)  # as the scene left it
        for text in texts:
            runs = chinese_runs(text, data, extra)
            if runs:
                found.append((name, runs, text[:80]))
            if re.search(r"\{[a-z_]+\}|%n", text):
                found.append((name, "placeholder", text[:80]))
            internal = [
                w
                for w in re.findall(r"\b[a-z]+_[a-z_]+\b", text)
                if not w.startswith("memory_") and w not in ("short_term", "long_term") and w not in data
            ]
            if internal or "examples_zh" in text or "import:" in text or '{"' in text:
                found.append((name, "internal name", text[:80]))
    assert not found, "\n".join(map(str, found))


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_dialog_fits_an_800_by_600_screen(tour_in, language):
    scenes, tour = tour_in(language)
    too_big = []
    for name in scenes.SCENES:
        widget = tour.open(name, (800, 600))
        if widget is not tour.window:
            need = widget.minimumSizeHint().expandedTo(widget.minimumSize())
            if need.width() > 800 or need.height() > 560:
                too_big.append((name, need.width(), need.height()))
        tour.close(name)
    tour.window.resize(800, 600)
    need = tour.window.minimumSizeHint()
    assert need.width() <= 800 and need.height() <= 600, need
    assert not too_big, too_big
