"""The Chinese translation is complete, compiled, and what the window actually shows."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QWidget

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "i18n" / "memdesk_zh_CN.ts"
QM = TS.with_suffix(".qm")
EN_TS = TS.with_name("memdesk_en.ts")
GUI = ROOT / "memdesk" / "gui"


def messages(path):
    root = ET.parse(path).getroot()
    for context in root.findall("context"):
        for message in context.findall("message"):
            yield context.find("name").text, message.find("source").text, message.find("translation")


def texts(translation) -> list[str]:
    """The translation's text, or each of its plural forms (a <message numerus="yes">)."""
    forms = [f.text or "" for f in translation.findall("numerusform")]
    return forms or [translation.text or ""]


def lupdate():
    found = shutil.which("pyside6-lupdate", path=str(Path(__import__("sys").executable).parent))
    if found is None:
        pytest.skip("pyside6-lupdate is not installed")
    return found


def test_every_string_in_the_code_is_in_the_ts_file_and_translated(tmp_path):
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p) for p in GUI.rglob("*.py"))
    subprocess.run(
        [lupdate(), *sources, "-ts", str(fresh), "-no-obsolete", "-locations", "none"], check=True, capture_output=True
    )
    ours = {(ctx, src): tr for ctx, src, tr in messages(TS)}
    missing = [(ctx, src) for ctx, src, _ in messages(fresh) if (ctx, src) not in ours]
    assert not missing, f"run pyside6-lupdate and translate: {missing[:5]}"
    untranslated = [
        (ctx, src)
        for (ctx, src), tr in ours.items()
        if tr.get("type") in ("unfinished", "vanished", "obsolete") or not all(t.strip() for t in texts(tr))
    ]
    assert not untranslated, untranslated[:5]


def test_every_count_has_its_english_plural_forms(tmp_path):
    """tr("%n memories", "", 1) reads "1 memory" only through memdesk_en.qm (Qt's numerus forms)."""
    fresh = tmp_path / "fresh_en.ts"
    sources = sorted(str(p) for p in GUI.rglob("*.py"))
    subprocess.run(
        [
            lupdate(),
            *sources,
            "-ts",
            str(fresh),
            "-no-obsolete",
            "-locations",
            "none",
            "-pluralonly",
            "-source-language",
            "en",
            "-target-language",
            "en",
        ],
        check=True,
        capture_output=True,
    )
    ours = {(ctx, src): tr for ctx, src, tr in messages(EN_TS)}
    counted = [(ctx, src) for ctx, src, _ in messages(fresh)]
    assert counted, "no %n strings found: is lupdate reading the numerus forms?"
    missing = [key for key in counted if key not in ours]
    assert not missing, f"run pyside6-lupdate -pluralonly on memdesk_en.ts: {missing[:5]}"
    for key in counted:
        one, many = (texts(ours[key]) + ["", ""])[:2]
        assert "%n" in one and "%n" in many and ours[key].get("type") is None, key
    compiled = EN_TS.with_suffix(".qm")
    assert compiled.stat().st_mtime >= EN_TS.stat().st_mtime - 1, "run pyside6-lrelease on memdesk_en.ts"


def test_english_plurals_are_what_the_window_says(qapp):
    from PySide6.QtCore import QCoreApplication

    from memdesk.gui import i18n

    i18n.install("en")
    translate = QCoreApplication.translate
    assert translate("MemoryActions", "Delete %n memories", "", 1) == "Delete 1 memory"
    assert translate("MemoryActions", "Delete %n memories", "", 3) == "Delete 3 memories"
    i18n.install("zh_CN")
    assert translate("MemoryActions", "Delete %n memories", "", 1) == "删除 1 条记忆"
    i18n.install("en")


def test_placeholders_survive_translation():
    import re

    for _ctx, src, tr in [*messages(TS), *messages(EN_TS)]:
        for text in texts(tr):
            assert set(re.findall(r"{[a-z_]+[^}]*}", src)) == set(re.findall(r"{[a-z_]+[^}]*}", text)), src
            assert ("%n" in src) == ("%n" in text), src


def test_compiled_translation_is_current():
    assert QM.exists() and QM.stat().st_mtime >= TS.stat().st_mtime - 1, "run pyside6-lrelease on the .ts file"


def visible_texts(window):
    texts = []
    for widget in window.findChildren(QWidget):
        if isinstance(widget, (QLabel, QAbstractButton)) and widget.text():
            texts.append(widget.text())
        if isinstance(widget, QLineEdit) and widget.placeholderText():
            texts.append(widget.placeholderText())
    for action in window.findChildren(__import__("PySide6.QtGui", fromlist=["QAction"]).QAction):
        if action.text():
            texts.append(action.text())
    model = window.browser.tree.model
    texts += [model.index(r, 0).data() for r in range(model.rowCount())]
    return texts


def test_the_chinese_window_shows_no_english(launch, db_path, qtbot, isolated_qsettings):
    from PySide6.QtCore import QSettings

    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", "zh_CN"
    )
    window = launch(db_path)
    window.new_memory()
    sources = {src for _, src, _ in messages(TS)} - {"#", "MemDesk JSON (*.json)"}
    english = [t for t in visible_texts(window) if t.replace("&", "") in {s.replace("&", "") for s in sources}]
    assert not english, english
    assert window.acts.undo.text() == "撤销" and window.persona_combo.itemText(1) == "全局"
    assert window.browser.tree.model.index(1, 0).data().startswith("分组")
