"""The real window: search and open hits, trash, undo/redo, drag and drop, keyboard."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt

from memdesk.core.store import Store
from memdesk.gui.browser.marked_text import RUNS_ROLE
from memdesk.gui.browser.tree_model import mime_for_ids


def seed(path):
    store = Store.open(path)
    ids = {}
    for title, content, group, tags in (
        ("咖啡", "用户下午不喝咖啡，早上可以喝一杯拿铁", "生活/饮食", ["习惯"]),
        ("绿茶", "用户喜欢喝绿茶", "生活/饮食", ["习惯"]),
        ("例会", "每周三下午两点开项目例会", "工作", ["会议"]),
        ("跑步", "每周二早上跑步五公里", "生活/运动", []),
    ):
        ids[title] = store.add(content=content, title=title, group=group, tags=tags).added[0]
    store.close()
    return ids


def search(window, qtbot, text):
    with qtbot.waitSignal(window.browser.search_finished, timeout=10000):
        window.search_bar.set_text(text)
    return window.browser.table.model.outcome


def test_search_opens_hits_and_leaves_access_counts_alone(launch, db_path, qtbot):
    ids = seed(db_path)
    window = launch(db_path, wait_index=True)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    window.settle()
    assert window.search_bar.edit.hasFocus()
    outcome = search(window, qtbot, "咖啡")
    assert outcome.engine == "engine" and outcome.hits[0].id == ids["咖啡"]
    assert window.browser.table.model.searching  # the table shows the hits instead of the tree's place
    model = window.browser.table.model
    title, snippet = model.index(0, 0).data(RUNS_ROLE), model.index(0, 1).data(RUNS_ROLE)
    assert ("咖啡", True) in title and ("咖啡", True) in snippet  # matches are marked

    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Return)  # opens the current (first) result
    window.settle()
    assert window.editor.memory_id == ids["咖啡"]
    explain = window.editor.explain
    assert "咖啡" in explain.note.text() and explain.tree.topLevelItemCount() > 0
    assert window.session.store.get(ids["咖啡"]).access_count == 0  # looking is not an access

    hits = [h.id for h in search(window, qtbot, "喝").hits]
    assert set(hits) >= {ids["咖啡"], ids["绿茶"]}
    results = window.browser.table
    results.view.setCurrentIndex(results.model.index(0, 0))
    assert window.editor.memory_id == hits[0]
    window.acts.next.trigger()
    window.settle()
    assert window.editor.memory_id == hits[1]
    window.acts.previous.trigger()
    window.settle()
    assert window.editor.memory_id == hits[0]

    # A new search that still finds the open memory explains it for the new query.
    search(window, qtbot, "绿茶 OR 喝")
    assert window.editor.memory_id == hits[0] and "绿茶 OR 喝" in explain.note.text()

    qtbot.keyClick(window.search_bar.edit, Qt.Key.Key_Escape)
    window.settle()
    assert not window.browser.table.model.searching  # the table shows the tree's place again
    assert "绿茶" not in explain.note.text()  # no search: nothing left from the last one


def test_search_syntax_error_is_shown_not_raised(launch, db_path, qtbot):
    seed(db_path)
    window = launch(db_path)
    outcome = search(window, qtbot, "importance>=abc")
    assert outcome.error and not outcome.hits
    assert "Cannot read the search" in window.browser.table.header.text()


def test_search_as_you_type_waits_for_a_pause(launch, db_path, qtbot):
    seed(db_path)
    window = launch(db_path)
    bar = window.search_bar
    asked = []
    bar.query_changed.connect(asked.append)
    for text in ("例", "例会"):
        bar.edit.setText(text)
    assert bar.pending() and asked == []
    qtbot.waitUntil(lambda: asked == ["例会"])


def test_delete_restore_purge_and_empty_trash(launch, db_path, qtbot, asker):
    ids = seed(db_path)
    window = launch(db_path)
    tree = window.browser.tree
    tree.select_memory(ids["绿茶"], quiet=False)
    assert window.editor.memory_id == ids["绿茶"]
    tree.view.setFocus()
    qtbot.keyClick(tree.view, Qt.Key.Key_Delete)
    window.settle()
    store = window.session.store
    assert store.get(ids["绿茶"]).is_deleted
    assert tree.counts()["trash"] == 1 and tree.counts()["active"] == 3
    # The user keeps their place: the next memory of the group, not the deleted one in the trash.
    assert window.editor.memory_id == ids["咖啡"] and tree.current_memory_id() == ids["咖啡"]
    assert tree.current_node().parent.place == ("group", "生活/饮食")
    window.open_memory(ids["绿茶"])
    assert window.editor.banner.isVisible() and window.editor.banner.button.isVisible()
    window.editor.banner.button.click()  # "Restore" in the editor
    window.settle()
    assert not store.get(ids["绿茶"]).is_deleted and tree.counts()["trash"] == 0

    window.actions_.delete([ids["绿茶"], ids["跑步"]])
    window.settle()
    asker.choices = ["no"]
    window.actions_.purge([ids["绿茶"]])
    window.settle()
    assert store.get(ids["绿茶"]).is_deleted  # declined: still in the trash
    asker.choices = ["yes"]
    window.actions_.empty_trash()
    window.settle()
    assert store.count(state="all") == 2 and tree.counts()["trash"] == 0
    window.session.undo()  # even emptying the trash can be undone
    window.settle()
    assert store.count(state="deleted") == 2 and tree.counts()["trash"] == 2


def test_undo_and_redo_every_step_with_names_in_the_edit_menu(launch, db_path, qtbot, type_text):
    ids = seed(db_path)
    window = launch(db_path)
    store = window.session.store
    window.new_memory()
    type_text(window.editor.form.content, "新记忆")
    window.editor.save()
    window.settle()
    new_id = window.editor.memory_id
    assert window.acts.undo.text().startswith("Undo Add")
    window.actions_.move_to_group([ids["例会"]], "工作/会议")
    window.settle()
    window.actions_.delete([ids["跑步"]])
    window.settle()
    assert "Delete" in window.acts.undo.text()

    qtbot.keyClick(window.browser.tree.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    window.settle()
    assert not store.get(ids["跑步"]).is_deleted
    window.acts.undo.trigger()
    window.settle()
    assert store.get(ids["例会"]).group == "工作"
    window.acts.undo.trigger()
    window.settle()
    assert new_id not in store.get_many([new_id])  # undoing an add removes it
    assert not window.acts.undo.isEnabled()
    assert window.acts.redo.text().startswith("Redo Add")

    qtbot.keyClick(
        window.browser.tree.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    window.settle()
    assert store.get(new_id).content == "新记忆"  # back under its own id
    window.acts.redo.trigger()
    window.settle()
    window.acts.redo.trigger()
    window.settle()
    assert store.get(ids["例会"]).group == "工作/会议" and store.get(ids["跑步"]).is_deleted
    tree = window.browser.tree.model.tree
    assert ("group", "工作/会议") in tree.containers and tree.briefs[new_id].title == "新记忆"


def test_undo_of_an_edit_changed_elsewhere_is_refused(launch, db_path, qtbot, other_writer):
    ids = seed(db_path)
    window = launch(db_path)
    window.actions_.move_to_group([ids["例会"]], "会议")
    window.settle()
    other_writer(db_path, ids["例会"], title="例会（改）")
    window.session.undo()
    window.settle()
    assert "changed elsewhere" in window.last_error and "例会（改）" in window.last_error
    assert "stays in the undo history" in window.last_error
    assert window.session.store.get(ids["例会"]).group == "会议"  # nothing overwritten
    # The refused step is kept, not dropped: the stack still offers to undo it.
    stack = window.session.undo_stack
    assert stack.canUndo() and stack.index() == stack.count() and not stack.canRedo()
    assert window.acts.undo.isEnabled() and "会议" in window.acts.undo.text()
    other_writer(db_path, ids["例会"], title="例会")  # the other change is taken back
    window.session.undo()
    window.settle()
    assert window.session.store.get(ids["例会"]).group == "工作"
    assert stack.canRedo()


def _drop_on(window, qtbot, drop, node, ids):
    view = window.browser.tree.view
    index = window.browser.tree.model.index_of(node)
    view.scrollTo(index)
    with qtbot.waitSignal(window.session.changes_applied):
        drop(view.viewport(), view.visualRect(index).center(), mime_for_ids(ids))


def test_drag_memories_onto_a_group_a_tag_and_a_persona(launch, db_path, qtbot, drop):
    ids = seed(db_path)
    store = Store.open(db_path)
    pid, _ = store.create_persona(name="生活管家")
    store.close()
    window = launch(db_path)
    tree = window.browser.tree.model.tree
    for place in (("section", "tags"), ("section", "personas")):
        window.browser.tree.view.expand(window.browser.tree.model.index_of(tree.sections[place[1]]))
    window.browser.tree.view.expand(window.browser.tree.model.index_of(tree.containers[("group", "生活")]))
    moved = [ids["咖啡"], ids["跑步"]]
    _drop_on(window, qtbot, drop, tree.containers[("group", "工作")], moved)
    window.settle()
    store = window.session.store
    assert {store.get(i).group for i in moved} == {"工作"}
    _drop_on(window, qtbot, drop, tree.containers[("tag", "会议")], moved)
    window.settle()
    assert all("会议" in store.get(i).tags for i in moved)
    persona_node = next(n for n in tree.sections["personas"].children if n.key == pid)
    _drop_on(window, qtbot, drop, persona_node, moved)
    window.settle()
    assert {store.get(i).persona_id for i in moved} == {pid}
    window.session.undo()
    window.settle()
    assert {store.get(i).persona_id for i in moved} == {None}


def test_bulk_change_of_type_and_importance_from_the_context_menu(launch, db_path, qtbot):
    ids = seed(db_path)
    window = launch(db_path)
    tree = window.browser.tree
    chosen = [ids["咖啡"], ids["绿茶"]]
    tree.select_memory(chosen[0])
    tree.view.selectionModel().select(tree.model.leaf_index(chosen[1]), QItemSelectionModel.SelectionFlag.Select)
    assert set(tree.selected_ids()) == set(chosen)
    window._context_menu(tree.view, QPoint(5, 5))
    menu = window._last_menu
    type_menu = next(a.menu() for a in menu.actions() if a.text() == "Set type")
    next(a for a in type_menu.actions() if a.text() == "Fact").trigger()
    importance = next(a.menu() for a in menu.actions() if a.text() == "Set importance")
    next(a for a in importance.actions() if a.text() == "9").trigger()
    menu.close()
    window.settle()
    store = window.session.store
    assert {(store.get(i).type, store.get(i).importance) for i in chosen} == {("fact", 9)}


def test_embedding_runs_in_the_background_after_the_index(launch, db_path, qtbot, monkeypatch):
    from memdesk.core.search import HashingEmbedder
    from memdesk.gui.browser.search_backend import SearchBackend

    embedder = HashingEmbedder()
    monkeypatch.setattr(SearchBackend, "embedder_factory", staticmethod(lambda: (embedder, "")))
    seed(db_path)
    window = launch(db_path)
    store = window.session.store
    qtbot.waitUntil(
        lambda: not store.stale_vector_ids(embedder.model_id) and not window.session.taskman.tasks(), timeout=20000
    )
    outcome = search(window, qtbot, "绿茶")
    assert outcome.hits[0].explain.vector_similarity is not None  # meaning took part
