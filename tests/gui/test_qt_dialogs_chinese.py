"""Qt's own dialogs under zh_CN: file dialogs (Qt's, not the platform's), message boxes with every
standard button, the colour picker. No label, button, tool tip, menu entry or column header may
show Latin letters, apart from file names, filters' extensions and the "(&X)" keyboard accelerators."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QColorDialog,
    QComboBox,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QWidget,
)

from memdesk.gui import i18n
from memdesk.gui.main import application

LATIN = re.compile(r"[A-Za-z]")
ACCELERATOR = re.compile(r"\(&[A-Za-z]\)|&(?=\S)")


@pytest.fixture
def chinese(qtbot):
    application()
    i18n.install("zh_CN")
    yield
    i18n.install("en")


def labels(dialog: QWidget) -> list[str]:
    """Every text the dialog shows a user (labels, buttons, tool tips, menus, headers, titles)."""
    found = [dialog.windowTitle()]
    for widget in dialog.findChildren(QWidget):
        if isinstance(widget, (QLabel, QAbstractButton)):
            found.append(widget.text())
        if isinstance(widget, QLineEdit):
            found.append(widget.placeholderText())
        found.append(widget.toolTip())
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            found += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(model.columnCount())]
    found += [action.text() for action in dialog.findChildren(QAction)]
    return [ACCELERATOR.sub("", text) for text in found if text]


def latin(texts, allowed=()) -> list[str]:
    return [t for t in texts if LATIN.search(t) and t not in allowed]


def test_the_file_dialogs_are_chinese(chinese, qtbot, tmp_path):
    (tmp_path / "memories.json").write_text("{}", encoding="utf-8")
    filters = [QCoreApplication.translate("MainWindow", "MemDesk JSON (*.json)"), "所有文件 (*)"]
    for mode in (QFileDialog.AcceptMode.AcceptOpen, QFileDialog.AcceptMode.AcceptSave):
        dialog = QFileDialog(None, "", str(tmp_path), ";;".join(filters))
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        dialog.setAcceptMode(mode)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        texts = labels(dialog)
        assert {"查找范围：", "文件类型："} <= set(texts), texts  # the strings Qt's own catalogue lacks
        assert not latin(texts), latin(texts)
        combos = [c for c in dialog.findChildren(QComboBox)]
        items = [c.itemText(i) for c in combos for i in range(c.count())]
        # only the folder's path and the filters (a file-type name with its extensions) are Latin
        assert not [t for t in latin(items) if t not in filters and not t.startswith(str(tmp_path)[:4])], items
        dialog.close()


def test_message_boxes_and_every_standard_button_are_chinese(chinese, qtbot):
    buttons = QMessageBox.StandardButton.NoButton
    for name in (
        "Ok",
        "Open",
        "Save",
        "Cancel",
        "Close",
        "Discard",
        "Apply",
        "Reset",
        "RestoreDefaults",
        "Help",
        "SaveAll",
        "Yes",
        "YesToAll",
        "No",
        "NoToAll",
        "Abort",
        "Retry",
        "Ignore",
    ):
        buttons |= getattr(QMessageBox.StandardButton, name)
    box = QMessageBox(QMessageBox.Icon.Question, "记忆台", "要导入这个文件吗？", buttons)
    box.setDetailedText("细节")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    texts = labels(box)
    assert len([b for b in box.findChildren(QAbstractButton)]) >= 18
    assert not latin(texts), latin(texts)
    assert "否" in texts and "取消" in texts


def test_the_colour_picker_is_chinese(chinese, qtbot):
    dialog = QColorDialog()
    dialog.setOption(QColorDialog.ColorDialogOption.DontUseNativeDialog)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    texts = labels(dialog)
    assert not latin(texts, allowed={"HTML："}), latin(texts, allowed={"HTML："})  # HTML: the colour notation's name


def test_the_catalogue_for_qt_is_compiled_and_current():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "resources" / "i18n"
    ts, qm = folder / "qt_extra_zh_CN.ts", folder / "qt_extra_zh_CN.qm"
    assert qm.exists() and qm.stat().st_mtime >= ts.stat().st_mtime - 1, "run pyside6-lrelease on qt_extra_zh_CN.ts"
    assert QApplication.translate("QFileDialog", "&Look in:") == "&Look in:"  # without the translator: English
