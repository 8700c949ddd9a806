"""The real window: pick a persona, write and edit memories in Chinese, conflicts."""

from __future__ import annotations

from PySide6.QtCore import Qt

from memdesk.core.store import Store


def seed(path):
    store = Store.open(path)
    pid, _ = store.create_persona(name="工作助手", colour="#3a7bd5")
    store.add(content="用户喜欢喝绿茶", title="饮品偏好", group="生活/饮食", tags=["习惯"], type="preference")
    store.add(content="周三下午开项目例会", title="例会", group="工作", persona_id=pid, tags=["会议"])
    store.close()
    return pid


def leaf_titles(window):
    tree = window.browser.tree.model.tree
    return {b.title: b for b in tree.briefs.values()}


def test_pick_persona_shows_its_memories_and_the_global_ones(launch, db_path, qtbot):
    pid = seed(db_path)
    window = launch(db_path)
    assert set(leaf_titles(window)) == {"饮品偏好", "例会"}
    combo = window.persona_combo
    combo.setCurrentIndex(combo.findData("__global__"))
    qtbot.waitUntil(lambda: not window.browser.tree.building)
    assert set(leaf_titles(window)) == {"饮品偏好"}
    combo.setCurrentIndex(combo.findData(pid))
    qtbot.waitUntil(lambda: not window.browser.tree.building)
    briefs = leaf_titles(window)
    assert set(briefs) == {"饮品偏好", "例会"}
    model = window.browser.tree.model
    index = model.leaf_index(briefs["饮品偏好"].id)
    assert "Global memory" in index.data(Qt.ItemDataRole.ToolTipRole)  # marked as global


def test_create_edit_and_save_with_chinese_input(launch, db_path, qtbot, type_text):
    pid = seed(db_path)
    window = launch(db_path)
    combo = window.persona_combo
    combo.setCurrentIndex(combo.findData(pid))
    qtbot.waitUntil(lambda: not window.browser.tree.building)

    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    editor = window.editor
    assert editor.is_new and editor.form.persona.currentData() == pid
    type_text(editor.form.title, "不喝咖啡因")
    type_text(editor.form.content, "用户下午以后不喝含咖啡因的饮品。")
    type_text(editor.form.tags, "习惯，健康")
    assert editor.dirty and window.windowTitle().startswith("●")
    qtbot.keyClick(editor.form.content, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    window.settle()
    assert not editor.is_new and not editor.dirty
    record = window.session.store.get(editor.memory_id)
    assert (record.title, record.content, record.tags, record.persona_id) == (
        "不喝咖啡因",
        "用户下午以后不喝含咖啡因的饮品。",
        ("习惯", "健康"),
        pid,
    )
    assert window.browser.tree.current_memory_id() == record.id  # the tree follows

    editor.form.content.selectAll()
    type_text(editor.form.content, "用户晚上八点以后不喝含咖啡因的饮品。")
    editor.form.importance.setValue(8)
    assert editor.dirty
    qtbot.keyClick(editor.form.content, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    window.settle()
    record = window.session.store.get(record.id)
    assert record.content == "用户晚上八点以后不喝含咖啡因的饮品。" and record.importance == 8
    assert record.version == 2
    assert editor.history.list.count() == 1
    assert "八点" in editor.history.view.toPlainText()


def test_leaving_unsaved_edits_asks_first(launch, db_path, qtbot, asker, type_text):
    seed(db_path)
    window = launch(db_path)
    ids = {b.title: b.id for b in window.browser.tree.model.tree.briefs.values()}
    window.browser.tree.select_memory(ids["例会"], quiet=False)
    window.open_memory(ids["例会"])
    type_text(window.editor.form.title, "！")
    assert window.editor.dirty
    asker.choices = ["cancel"]
    window.open_memory(ids["饮品偏好"])
    assert window.editor.memory_id == ids["例会"] and window.editor.dirty
    asker.choices = ["save"]
    window.open_memory(ids["饮品偏好"])  # saves on the db lane, then goes on to the other memory
    window.settle()
    qtbot.waitUntil(lambda: window.editor.memory_id == ids["饮品偏好"])
    assert window.browser.tree.current_memory_id() == ids["饮品偏好"]
    assert window.session.store.get(ids["例会"]).title == "例会！"


def _edit_then_conflict(window, qtbot, type_text, other_writer):
    store = window.session.store
    memory_id = next(b.id for b in window.browser.tree.model.tree.briefs.values() if b.title == "饮品偏好")
    window.open_memory(memory_id)
    window.editor.form.content.selectAll()
    type_text(window.editor.form.content, "用户喜欢喝乌龙茶")
    # Meanwhile another writer (an assistant, the CLI) changes the same memory.
    other_writer(store.path, memory_id, title="饮品偏好（助手）")
    window.editor.save()  # or the change feed got there first: either way both versions are shown
    qtbot.waitUntil(lambda: window.editor.conflict_dialog is not None)
    window.settle()
    return memory_id


def test_conflict_keep_mine(launch, db_path, qtbot, type_text, other_writer):
    seed(db_path)
    window = launch(db_path)
    memory_id = _edit_then_conflict(window, qtbot, type_text, other_writer)
    dialog = window.editor.conflict_dialog
    assert dialog is not None and dialog.isVisible()
    assert set(dialog.differing) == {"title", "content"}
    assert window.session.store.get(memory_id).content == "用户喜欢喝绿茶"  # nothing overwritten yet
    dialog.keep_mine.click()
    window.settle()
    record = window.session.store.get(memory_id)
    assert (record.title, record.content) == ("饮品偏好", "用户喜欢喝乌龙茶")
    assert not window.editor.dirty


def test_conflict_take_theirs(launch, db_path, qtbot, type_text, other_writer):
    seed(db_path)
    window = launch(db_path)
    memory_id = _edit_then_conflict(window, qtbot, type_text, other_writer)
    window.editor.conflict_dialog.take_theirs.click()
    window.settle()
    record = window.session.store.get(memory_id)
    assert (record.title, record.content) == ("饮品偏好（助手）", "用户喜欢喝绿茶")
    assert window.editor.form.title.text() == "饮品偏好（助手）" and not window.editor.dirty


def test_conflict_merge_by_editing(launch, db_path, qtbot, type_text, other_writer):
    seed(db_path)
    window = launch(db_path)
    memory_id = _edit_then_conflict(window, qtbot, type_text, other_writer)
    dialog = window.editor.conflict_dialog
    dialog.merge_button.click()
    assert dialog.merge_edit.isVisible()
    dialog.merge_edit.selectAll()
    type_text(dialog.merge_edit, "用户喜欢喝乌龙茶和绿茶")
    dialog.save_merged.click()
    window.settle()
    record = window.session.store.get(memory_id)
    # Their title (only they changed it) and the merged content.
    assert (record.title, record.content) == ("饮品偏好（助手）", "用户喜欢喝乌龙茶和绿茶")
