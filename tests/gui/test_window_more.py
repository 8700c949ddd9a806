"""Saved searches, renaming a group, history and the supersede chain, expiry, validation."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from memdesk.core.store import Store


def test_save_a_search_and_run_it_from_the_tree(launch, db_path, qtbot, asker):
    store = Store.open(db_path)
    store.add(content="周会", group="工作")
    store.add(content="买菜", group="生活")
    store.close()
    window = launch(db_path)
    with qtbot.waitSignal(window.browser.search_finished):
        window.search_bar.set_text("group:工作")
    asker.texts = ["工作的"]
    window.search_bar.save_button.click()
    window.settle()
    tree = window.browser.tree.model.tree
    assert [n.label for n in tree.sections["saved"].children] == ["工作的"]
    window.search_bar.clear()
    node = tree.sections["saved"].children[0]
    with qtbot.waitSignal(window.browser.search_finished) as blocker:
        window.browser.tree.view.clicked.emit(window.browser.tree.model.index_of(node))
    assert window.search_bar.text() == "group:工作" and len(blocker.args[0].hits) == 1
    window.remove_saved_search(0)
    window.settle()
    assert not tree.sections["saved"].children
    window.session.undo()
    window.settle()
    assert [n.label for n in window.browser.tree.model.tree.sections["saved"].children] == ["工作的"]


def test_rename_a_group_moves_its_subgroups_too(launch, db_path, qtbot, asker):
    store = Store.open(db_path)
    ids = [store.add(content=str(i), group=g).added[0] for i, g in enumerate(["工作", "工作/甲", "工作甲"])]
    store.close()
    window = launch(db_path)
    asker.texts = ["职场"]
    window.actions_.rename_group("工作")
    window.settle()
    store = window.session.store
    assert [store.get(i).group for i in ids] == ["职场", "职场/甲", "工作甲"]
    assert ("group", "职场/甲") in window.browser.tree.model.tree.containers
    assert ("group", "工作") not in window.browser.tree.model.tree.containers


def test_history_diff_revert_and_supersede_chain(launch, db_path, qtbot):
    store = Store.open(db_path)
    old = store.add(content="用户住在北京", title="住址").added[0]
    store.update(old, expected_version=1, content="用户住在上海")
    new = store.supersede(old, content="用户住在杭州").added[0]
    store.close()
    window = launch(db_path)
    window.open_memory(old)
    editor = window.editor
    assert editor.banner.isVisible() and "replaced" in editor.banner.text()
    assert editor.chain.list.count() == 2
    assert editor.history.list.count() == 2
    editor.history.list.setCurrentRow(1)  # the content edit (newest first)
    diff = editor.history.view.toHtml()
    assert "北京" in diff and "上海" in diff and "line-through" in diff
    with qtbot.waitSignal(window.session.changes_applied):
        editor.history.revert_button.click()
    window.settle()
    assert window.session.store.get(old).content == "用户住在北京"
    window.session.undo()
    window.settle()
    assert window.session.store.get(old).content == "用户住在上海"
    editor.chain.open_requested.emit(new)
    assert editor.memory_id == new


def test_expiry_is_saved_and_blank_content_is_refused(launch, db_path, qtbot, type_text):
    store = Store.open(db_path)
    memory_id = store.add(content="临时", scope="short_term").added[0]
    store.close()
    window = launch(db_path)
    window.open_memory(memory_id)
    editor = window.editor
    when = datetime.now(timezone.utc) + timedelta(days=3)
    editor.form.expiry.set_value(when)
    editor.form.expiry.check.setChecked(False)
    editor.form.expiry.check.setChecked(True)
    assert editor.dirty
    editor.save()
    window.settle()
    saved = window.session.store.get(memory_id).expires_at
    assert abs((saved - when).total_seconds()) < 60
    editor.form.content.clear()
    editor.save()
    window.settle()
    assert editor.banner.isVisible() and "Content" in editor.banner.text()
    assert window.session.store.get(memory_id).content == "临时" and editor.dirty


def test_external_writes_show_up_without_a_restart(launch, db_path, qtbot, other_writer):
    store = Store.open(db_path)
    memory_id = store.add(content="原来的", title="原标题").added[0]
    store.close()
    window = launch(db_path)
    window.open_memory(memory_id)
    other_writer(db_path, memory_id, title="助手改的标题")  # the change feed's poll picks it up
    qtbot.waitUntil(lambda: window.browser.tree.model.tree.briefs[memory_id].title == "助手改的标题", timeout=3000)
    qtbot.waitUntil(lambda: window.editor.form.title.text() == "助手改的标题")  # not dirty: follows the store
    other_writer(db_path, memory_id, purge=True)
    qtbot.waitUntil(lambda: memory_id not in window.browser.tree.model.tree.briefs, timeout=3000)
    assert window.editor.memory_id is None


def test_export_writes_memdesk_json_in_the_background(launch, db_path, tmp_path, qtbot, asker):
    import json

    store = Store.open(db_path)
    store.add(content="导出我", title="导出")
    store.close()
    window = launch(db_path)
    target = tmp_path / "out.json"
    asker.files = [str(target)]
    with qtbot.waitSignal(window.importer.exported, timeout=10000) as blocker:
        window.acts.export.trigger()
    assert blocker.args == [1, str(target)]
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["format"] == "memdesk" and data["memories"][0]["content"] == "导出我"


def test_the_first_window_freezes_its_start_up_objects_and_lets_them_go_when_replaced(db_path, tmp_path, asker):
    """gc.freeze keeps the start's full collections short (main.App._new_window); a replaced
    window, and the app once shut down, leave nothing frozen, or their cycles would never be
    collected."""
    import gc

    from memdesk.gui.main import App, application

    application()
    app = App(ask=asker, maintenance_delay_ms=10**9)
    try:
        assert app.open(db_path, create=True)
        assert gc.get_freeze_count() > 0
        app.switch_database(str(tmp_path / "other.db"), new=True)
        assert app.window is not None and app.session.store.path == tmp_path / "other.db"
        assert gc.get_freeze_count() == 0  # the replacement does not freeze again
    finally:
        if app.window is not None:
            app.window.close()
        app.shutdown()
    assert gc.get_freeze_count() == 0
