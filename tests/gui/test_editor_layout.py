"""The editor puts the content first: a large title and content, one compact block of fields, the internals
folded under 详细信息, a form that fits at 800×600, and an importance that says when it is automatic."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings

from memdesk.core.store import Store


def use_language(language: str) -> None:
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )


def seed(path):
    store = Store.open(path)
    store.create_persona(name="工作助手")
    auto = store.add(content="用户对花生严重过敏，点菜时必须避开花生", title="对花生过敏", tags=["健康"]).added[0]
    chosen = store.add(content="用户喜欢喝绿茶", title="饮品偏好", importance=3).added[0]
    store.close()
    return auto, chosen


def test_importance_says_automatic_with_its_estimate_until_a_person_sets_it(launch, db_path, qtbot, type_text):
    auto, chosen = seed(db_path)
    use_language("zh_CN")
    window = launch(db_path)
    store = window.session.store
    estimate = store.get(auto).importance
    window.open_memory(auto)
    importance = window.editor.form.importance
    assert importance.text() == f"自动（估计为 {estimate}）"
    assert importance.importance() is None
    window.open_memory(chosen)
    assert importance.text() == "3" and importance.importance() == 3

    window.open_memory(auto)  # an edit of the text, importance untouched: it stays automatic
    type_text(window.editor.form.content, "，也不吃花生酱")
    window.editor.save()
    window.settle()
    record = store.get(auto)
    assert "也不吃花生酱" in record.content and not record.importance_set
    assert importance.text() == f"自动（估计为 {record.importance}）"


def test_a_new_memory_saved_without_touching_importance_stays_automatic(launch, db_path, qtbot, type_text):
    seed(db_path)
    use_language("zh_CN")
    window = launch(db_path)
    window.editor.new_memory()
    assert window.editor.form.importance.text() == "自动（保存时估计）"
    type_text(window.editor.form.content, "用户每周三下午开部门例会")
    window.editor.save()
    window.settle()
    record = window.session.store.get(window.editor.memory_id)
    assert not record.importance_set
    assert window.editor.form.importance.text() == f"自动（估计为 {record.importance}）"


def test_importance_set_by_hand_and_back_to_automatic_and_undone(launch, db_path, qtbot):
    auto, _chosen = seed(db_path)
    window = launch(db_path)
    store = window.session.store
    estimate = store.get(auto).importance
    window.open_memory(auto)
    importance = window.editor.form.importance
    importance.stepBy(1)  # ▲ from automatic starts at the estimate
    assert importance.importance() == min(10, estimate + 1)
    window.editor.save()
    window.settle()
    record = store.get(auto)
    assert record.importance_set and record.importance == min(10, estimate + 1)
    assert importance.text() == str(record.importance)

    importance.set_importance(None)  # the lowest step is “Automatic” again
    assert importance.text() == "Automatic (estimated on saving)"
    window.editor.save()
    window.settle()
    record = store.get(auto)
    assert not record.importance_set and record.importance == estimate
    assert importance.text() == f"Automatic (estimated {estimate})"

    window.session.undo()
    window.settle()
    record = store.get(auto)
    assert record.importance_set and record.importance == min(10, estimate + 1)


def test_details_are_folded_away_and_the_window_remembers_them_open(launch, db_path, qtbot):
    auto, _chosen = seed(db_path)
    use_language("zh_CN")
    window = launch(db_path)
    window.open_memory(auto)
    editor = window.editor
    details = editor.details_box
    assert details.toggle.text() == "详细信息" and not details.is_open
    for internal in (editor.form.dedup, details.values["heat"], details.values["tier"], details.values["version"]):
        assert not internal.isVisibleTo(editor)
    assert not editor.chain.isVisibleTo(editor)
    details.toggle.click()
    assert editor.form.dedup.isVisibleTo(editor) and details.values["heat"].isVisibleTo(editor)
    assert editor.chain.isVisibleTo(editor)
    window = launch(db_path)  # a new window: still open
    window.open_memory(auto)
    assert window.editor.details_box.is_open and window.editor.form.dedup.isVisibleTo(window.editor)
    window.editor.details_box.toggle.click()
    window = launch(db_path)
    assert not window.editor.details_box.is_open


def test_the_expiry_shows_for_short_term_memories_only(launch, db_path, qtbot):
    auto, _chosen = seed(db_path)
    window = launch(db_path)
    window.open_memory(auto)
    form = window.editor.form
    assert not form.expiry.isVisibleTo(form)
    form.scope.setCurrentIndex(form.scope.findData("short_term"))
    assert form.expiry.isVisibleTo(form)


def in_view(widget, viewport) -> bool:
    top_left = widget.mapTo(viewport, QPoint(0, 0))
    return viewport.rect().contains(QRect(top_left, widget.size()))


@pytest.mark.parametrize("size", [(800, 600), (1280, 800)])
def test_every_row_of_the_form_is_in_sight_and_the_content_is_the_largest(launch, db_path, qtbot, size):
    auto, _chosen = seed(db_path)
    use_language("zh_CN")
    window = launch(db_path)
    window.resize(*size)
    window.open_memory(auto)
    qtbot.wait(50)  # one turn of the event loop for the layout
    editor, form = window.editor, window.editor.form
    viewport = form.parentWidget().parentWidget()  # the scroll area's viewport
    shown = [form.title, form.content, form.group, form.tags, form.type, form.scope, form.importance, form.persona]
    for widget in [*shown, editor.details_box.toggle]:
        assert in_view(widget, viewport), (widget.objectName() or type(widget).__name__, size)
    for name in ("group", "tags", "type", "scope", "importance", "persona_id"):
        label = form.form_labels[name]
        assert label.isVisibleTo(window) and in_view(label, viewport), name
    lines = form.content.height() / form.content.fontMetrics().lineSpacing()
    assert lines >= (4 if size == (800, 600) else 8), lines
    assert form.content.height() > max(w.height() for w in shown[2:]) * 3
    assert form.title.font().pointSizeF() > form.group.font().pointSizeF()
