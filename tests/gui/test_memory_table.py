"""The memory table: a virtual model, sorted by any column (Chinese by pinyin), honest counts
and pages of hits, marks that say why a hit was found, and a place kept on delete."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from memdesk.core.views.listing import load_table
from memdesk.gui.browser.search_backend import LIMIT, SearchBackend
from memdesk.gui.browser.table_keys import title_ranks
from memdesk.gui.browser.table_model import COLUMNS, UNSORTABLE, MemoryTableModel
from memdesk.gui.browser.tree_nodes import rows_of_place

TITLES = ["张", "重庆", "北", "安"]  # pinyin: an, bei, chongqing, zhang (重 alone reads zhong)


def test_model_passes_the_model_tester_browsing_and_searching(qtmodeltester, store):
    for i in range(40):
        store.add(
            content=f"内容 {i} 咖啡", title=f"记忆 {i:02d}", group=["工作", "生活", ""][i % 3], tags=["a"] * (i % 2)
        )
    model = MemoryTableModel(store)
    model.set_table(load_table(store))
    model.show_rows(rows_of_place(model.table, ("group", "工作")))
    assert model.rowCount() == 14 and model.columnCount() == len(COLUMNS)
    qtmodeltester.check(model)
    for column in range(len(COLUMNS)):
        model.sort(column, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(model)
    outcome = SearchBackend(store).search("咖啡", limit=10)
    model.show_outcome(outcome)
    assert model.rowCount() == 10 and model.total == 40  # (the tester has asked for more already)
    qtmodeltester.check(model)


def test_titles_groups_and_personas_sort_by_pinyin(store):
    for i, title in enumerate(TITLES):
        store.create_persona(name=title)
        store.add(content=f"内容 {i}", title=title, group=TITLES[-1 - i], importance=i + 1)
    model = MemoryTableModel(store)
    model.set_table(load_table(store))
    model.show_rows(rows_of_place(model.table, None))
    model.sort(COLUMNS.index("title"))
    titles = [model.index(r, 0).data() for r in range(4)]
    assert titles == ["安", "北", "重庆", "张"]  # a small table keys its titles at once
    model.set_title_ranks(model.table, title_ranks(model.table))
    assert [model.index(r, 0).data() for r in range(4)] == ["安", "北", "重庆", "张"]
    model.sort(COLUMNS.index("title"), Qt.SortOrder.DescendingOrder)
    assert [model.index(r, 0).data() for r in range(4)] == ["张", "重庆", "北", "安"]
    model.sort(COLUMNS.index("group"))
    group = COLUMNS.index("group")
    assert [model.index(r, group).data() for r in range(4)] == ["安", "北", "重庆", "张"]


def test_every_sortable_column_sorts_as_its_values_do(store):
    for i in range(30):
        store.add(
            content=f"内容 {i}", title=f"标题 {i % 7}", group=["工作", "生活", "学习", ""][i % 4], importance=i % 10 + 1
        )
    model = MemoryTableModel(store)
    model.set_table(load_table(store))
    model.set_title_ranks(model.table, title_ranks(model.table))
    model.show_rows(rows_of_place(model.table, None))
    for column, name in enumerate(COLUMNS):
        if name in UNSORTABLE:
            continue
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            model.sort(column, order)
            keys = model.sort_keys(name, model.rows)
            steps = np.diff(keys)
            assert (steps >= 0).all() if order == Qt.SortOrder.AscendingOrder else (steps <= 0).all(), name
    importance = COLUMNS.index("importance")
    model.sort(importance, Qt.SortOrder.DescendingOrder)
    assert model.index(0, importance).data() == "10" and model.index(29, importance).data() == "1"


def many(store, count: int, word: str = "咖啡") -> list[str]:
    items = [{"content": f"用户说起{word}的事 {i}", "title": f"记忆 {i}", "group": "生活"} for i in range(count)]
    return store.add_many(items).added


def search(window, qtbot, text):
    with qtbot.waitSignal(window.browser.search_finished, timeout=20000):
        window.search_bar.set_text(text)
    return window.browser.table.model


def test_counts_beyond_100_and_more_rows_as_the_table_scrolls(launch, db_path, qtbot, store):
    ids = set(many(store, 249))
    window = launch(db_path, wait_index=True)
    model = search(window, qtbot, "咖啡")
    assert model.rowCount() == LIMIT and model.total == 249
    header = window.browser.table.header.text()
    assert "249 found" in header and "100 shown" in header
    assert "249 found" in window.counts_label.text()  # the status bar counts every match
    window.browser.table.view.scrollToBottom()  # the view asks for more at its end
    qtbot.waitUntil(lambda: model.rowCount() == 249, timeout=20000)
    assert {model.memory_id(r) for r in range(249)} == ids and not model.canFetchMore()
    assert "249 found" in window.browser.table.header.text() and "shown" not in window.browser.table.header.text()
    engine = window.browser.backend.engine
    everything = [h.id for h in engine.search("咖啡", limit=None, persona=None).hits]
    assert [model.memory_id(r) for r in range(249)] == everything  # the pages join in rank order


def test_statistics_bar_opens_every_memory_it_counts(launch, db_path, qtbot, store):
    many(store, 180)
    window = launch(db_path, wait_index=True)
    window.show_query("group:生活")
    model = window.browser.table.model
    qtbot.waitUntil(lambda: model.searching and model.total == 180, timeout=20000)
    assert model.rowCount() == LIMIT
    qtbot.waitUntil(lambda: "180 found" in window.counts_label.text(), timeout=20000)  # once the tree is in


def current_title(window):
    return window.browser.table.model.index(window.browser.table.view.currentIndex().row(), 0).data()


def test_delete_restore_and_purge_keep_the_place(launch, db_path, qtbot, store, asker):
    for title in ("安", "北", "重庆", "张", "周"):
        store.add(content=f"{title}的记忆", title=title, group="城市")
    window = launch(db_path)
    table, tree = window.browser.table, window.browser.tree
    table.sort_by("title")
    table.view.setFocus()
    table.view.setCurrentIndex(table.model.index(1, 0))  # 北
    assert window.editor.record.title == "北"
    window.delete_selected()
    window.settle()
    assert current_title(window) == "重庆" and window.editor.record.title == "重庆"  # the next row
    node = tree.current_node()
    assert node is None or node.place != ("state", "deleted")  # the tree stayed where it was
    table.view.setCurrentIndex(table.model.index(3, 0))  # 周, the last row
    window.delete_selected()
    window.settle()
    assert current_title(window) == "张" and window.editor.record.title == "张"  # the one before

    window.browser.show_place(("state", "deleted"))  # the trash, as its tree node shows it
    assert [table.model.index(r, 0).data() for r in range(2)] == ["北", "周"]
    table.view.setCurrentIndex(table.model.index(0, 0))
    window.restore_selected()
    window.settle()
    assert current_title(window) == "周" and window.editor.record.title == "周"
    asker.choices = ["yes"]
    window.delete_selected()  # in the trash: for good
    window.settle()
    assert table.model.rowCount() == 0 and store.count(state="all") == 4


def test_column_choice_and_sort_are_remembered(launch, db_path, qtbot, store):
    for title in TITLES:
        store.add(content=f"{title}的记忆", title=title, importance=len(title) + 3)
    window = launch(db_path)
    table = window.browser.table
    assert "heat" in table.hidden_columns() and not table.view.isColumnHidden(COLUMNS.index("snippet"))
    header = table.view.horizontalHeader()
    header.customContextMenuRequested.emit(header.rect().center())
    actions = {a.text(): a for a in table._menu.actions()}
    actions["Content"].setChecked(False)  # the header's context menu
    actions["Heat"].setChecked(True)
    importance = COLUMNS.index("importance")
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=_centre_of(header, importance))
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=_centre_of(header, importance))
    assert header.sortIndicatorSection() == importance
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    assert table.model.index(0, 0).data() == "重庆"

    window = launch(db_path)  # the next start
    table = window.browser.table
    assert table.view.isColumnHidden(COLUMNS.index("snippet")) and not table.view.isColumnHidden(COLUMNS.index("heat"))
    header = table.view.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (importance, Qt.SortOrder.DescendingOrder)
    assert table.model.index(0, 0).data() == "重庆"


def _centre_of(header, section):
    from PySide6.QtCore import QPoint

    return QPoint(header.sectionViewportPosition(section) + header.sectionSize(section) // 2, header.height() // 2)


def test_hits_say_they_were_found_by_tag_group_pinyin_or_script(launch, db_path, qtbot, store):
    tagged = store.add(content="下周一要交的报告", title="周报", tags=["出差"]).added[0]
    grouped = store.add(content="记得带护照", title="证件", group="出差/上海").added[0]
    coffee = store.add(content="用户早上喝咖啡", title="早餐").added[0]
    drink = store.add(content="用户喜欢的饮料是绿茶", title="饮品").added[0]
    window = launch(db_path, wait_index=True)
    found = COLUMNS.index("found")

    def marks(text, *memory_ids):
        model = search(window, qtbot, text)
        assert not window.browser.table.view.isColumnHidden(found)  # shown while searching
        return [model.index(model.row_of(i), found).data() for i in memory_ids]

    by_tag, by_group = marks("出差", tagged, grouped)
    assert "tag 出差" in by_tag and "group 出差/上海" in by_group
    assert "pinyin kafei→咖啡" in marks("kafei", coffee)[0]
    assert "traditional 飲料=饮料" in marks("飲料", drink)[0]
    window.search_bar.set_text("")
    assert window.browser.table.view.isColumnHidden(found)


def test_the_trees_groups_and_tags_are_in_pinyin_order(store):
    from memdesk.gui.browser.tree_nodes import Tree

    for group in ("会议", "出差", "同事", "安排"):
        store.add(content=f"{group}的记忆", group=group, tags=[group[::-1]])
    tree = Tree(load_table(store)).build()
    assert [n.label for n in tree.sections["groups"].children] == ["安排", "出差", "会议", "同事"]
    assert [n.key for n in tree.sections["tags"].children] == [
        "差出",
        "排安",
        "事同",
        "议会",
    ]  # chachu paian shitong yihui


def test_sorting_a_search_sorts_every_match(launch, db_path, qtbot, store):
    many(store, 249)
    window = launch(db_path, wait_index=True)
    model = search(window, qtbot, "咖啡")
    assert model.rowCount() == LIMIT
    window.browser.table.sort_by("title", descending=True)  # a click on the header
    qtbot.waitUntil(lambda: model.rowCount() == 249, timeout=20000)
    titles = [model.index(r, 0).data() for r in range(249)]
    assert titles[0] == "记忆 99" and titles == sorted(titles, reverse=True)  # (one prefix: pinyin order = text order)


def test_a_memory_purged_elsewhere_moves_the_row_but_not_unsaved_work(launch, db_path, qtbot, other_writer, type_text):
    from memdesk.core.store import Store

    store = Store.open(db_path)
    ids = {title: store.add(content=f"{title}的记忆", title=title).added[0] for title in ("安", "北", "张")}
    store.close()  # (a store left open in this thread would share the window's connection)
    window = launch(db_path)
    table = window.browser.table
    table.sort_by("title")
    table.view.setCurrentIndex(table.model.index(1, 0))  # 北
    type_text(window.editor.form.content, "没保存的字")
    assert window.editor.dirty
    other_writer(db_path, ids["北"], purge=True)  # an assistant, meanwhile
    window.session.check_external()
    qtbot.waitUntil(lambda: table.model.rowCount() == 2, timeout=20000)
    assert current_title(window) == "张"  # the place is kept in the table...
    # ...and the editor keeps the typing (it says what became of its memory), not 张
    assert window.editor.memory_id != ids["张"] and "没保存的字" in window.editor.form.content.toPlainText()
