"""The memory table sorts every match of a search, however many (issue 37: "the table can show
all of them"), and its content column sorts by pinyin as titles do; the why-found column
says in its header's tooltip why it does not sort."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from PySide6.QtCore import QPoint, Qt

from memdesk.core.search.language.collation import sort_key
from memdesk.core.views.listing import load_table
from memdesk.gui.browser.search_backend import LIMIT
from memdesk.gui.browser.table_keys import content_ranks
from memdesk.gui.browser.table_model import COLUMNS, MemoryTableModel
from memdesk.gui.browser.tree_nodes import rows_of_place

MATCHES = 5_300  # past the 5,000 a sorted search once stopped at
CITIES = ["张家口", "重庆", "北京", "安阳", "上海", "杭州", "长沙", "西安", "成都", "武汉"]
ORDER = ["安", "北", "重庆", "张"]  # pinyin: an, bei, chongqing, zhang (重 alone reads zhong)


def fill(store) -> dict[str, tuple[str, datetime]]:
    """MATCHES small memories that all match 咖啡 (and a few that do not): id -> (title, updated),
    the update times shuffled so that no column's order is the ranking's."""
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    minutes = random.Random(7).sample(range(MATCHES * 3), MATCHES)
    items = [
        {
            "content": f"第{i}次喝咖啡",
            "title": f"{CITIES[i % len(CITIES)]}{i}",
            "updated_at": start + timedelta(minutes=minutes[i]),
        }
        for i in range(MATCHES)
    ]
    ids = store.add_many(items).added
    store.add_many([{"content": f"喝茶 {i}", "title": f"茶{i}"} for i in range(20)])
    return {memory_id: (item["title"], item["updated_at"]) for memory_id, item in zip(ids, items)}


def test_a_sorted_search_lists_every_match_in_order(launch, db_path, qtbot, store, qtmodeltester):
    memories = fill(store)
    window = launch(db_path, wait_index=True)
    table = window.browser.table
    model = table.model
    with qtbot.waitSignal(window.browser.search_finished, timeout=30000):
        window.search_bar.set_text("咖啡")
    assert model.rowCount() == LIMIT and model.total == MATCHES

    table.sort_by("updated")  # a click on the header
    qtbot.waitUntil(lambda: model.rowCount() == MATCHES, timeout=60000)
    shown = [model.memory_id(r) for r in range(MATCHES)]
    assert shown == sorted(memories, key=lambda i: memories[i][1])  # every hit, oldest first
    assert f"{MATCHES:,}" in table.header.text() or str(MATCHES) in table.header.text()
    assert "shown" not in table.header.text() and not model.canFetchMore()
    qtmodeltester.check(model)

    table.sort_by("title", descending=True)
    titles = [model.index(r, 0).data() for r in range(MATCHES)]
    assert titles == sorted((t for t, _ in memories.values()), key=sort_key, reverse=True)  # by pinyin
    first = {city: next(n for n, t in enumerate(titles) if t.startswith(city)) for city in CITIES}
    assert titles[0].startswith("张家口") and titles[-1].startswith("安阳")
    assert first["重庆"] < first["成都"] < first["长沙"]  # chong > cheng > chang (not zhong, zhang)
    qtmodeltester.check(model)

    found = COLUMNS.index("found")  # hits of rows that came without one are read as they show
    last = model.index(MATCHES - 1, found)
    assert model.hit(MATCHES - 1) is None and last.data() == ""
    qtbot.waitUntil(lambda: model.hit(MATCHES - 1) is not None, timeout=30000)
    place = model.hit(MATCHES - 1).explain.position
    everything = window.browser.backend.engine.search("咖啡", limit=None).ids
    assert everything[place - 1] == model.memory_id(MATCHES - 1)  # its place in the whole ranking


def test_a_search_sorted_again_after_a_change_keeps_every_match(launch, db_path, qtbot, store):
    memories = fill(store)
    window = launch(db_path, wait_index=True)
    table, model = window.browser.table, window.browser.table.model
    with qtbot.waitSignal(window.browser.search_finished, timeout=30000):
        window.search_bar.set_text("咖啡")
    table.sort_by("updated", descending=True)
    qtbot.waitUntil(lambda: model.rowCount() == MATCHES, timeout=60000)
    with qtbot.waitSignal(window.browser.search_finished, timeout=30000):
        window.browser._rerun()  # as after an edit: the same query again
    qtbot.waitUntil(lambda: model.rowCount() == MATCHES and not model.fetching, timeout=60000)
    assert [model.memory_id(r) for r in range(MATCHES)] == sorted(memories, key=lambda i: memories[i][1])[::-1]


def _content_model(store) -> tuple[MemoryTableModel, dict[str, str]]:
    ids = {
        first: store.add(content=f"{first}的记忆", title=f"标题{n}").added[0] for n, first in enumerate(reversed(ORDER))
    }
    model = MemoryTableModel(store)
    model.set_table(load_table(store))
    model.content_keys_wanted.connect(lambda: model.set_content_ranks(model.table, content_ranks(store, model.table)))
    model.show_rows(rows_of_place(model.table, None))
    return model, ids


def test_content_sorts_by_pinyin(store, qtmodeltester):
    model, ids = _content_model(store)
    snippet = COLUMNS.index("snippet")
    model.sort(snippet)
    assert [model.memory_id(r) for r in range(4)] == [ids[c] for c in ORDER]  # an < bei < chongqing < zhang
    model.sort(snippet, Qt.SortOrder.DescendingOrder)
    assert [model.memory_id(r) for r in range(4)] == [ids[c] for c in reversed(ORDER)]
    qtmodeltester.check(model)
    version = store.get(ids["张"]).version
    store.update(ids["张"], expected_version=version, content="阿姨的记忆")  # a: now before 安 (an)
    model.retitled([ids["张"]])
    model.sort(snippet)
    assert [model.memory_id(r) for r in range(4)] == [ids[c] for c in ("张", "安", "北", "重庆")]


def test_the_why_found_header_says_it_does_not_sort(store):
    model, _ = _content_model(store)
    found = COLUMNS.index("found")
    tip = model.headerData(found, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip and "sort" in tip
    assert model.headerData(COLUMNS.index("snippet"), Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) is None
    before = [model.memory_id(r) for r in range(4)]
    model.sort(found)
    assert [model.memory_id(r) for r in range(4)] == before


def test_a_click_on_the_why_found_header_says_why_and_keeps_the_order(launch, db_path, qtbot, store):
    from PySide6.QtWidgets import QToolTip

    for title in ORDER:
        store.add(content=f"{title}的咖啡", title=title)
    window = launch(db_path, wait_index=True)
    table = window.browser.table
    with qtbot.waitSignal(window.browser.search_finished, timeout=30000):
        window.search_bar.set_text("咖啡")
    table.sort_by("title")
    header = table.view.horizontalHeader()
    found = COLUMNS.index("found")
    pos = header.sectionViewportPosition(found) + header.sectionSize(found) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pos, header.height() // 2))
    assert header.sortIndicatorSection() == COLUMNS.index("title")
    assert [table.model.index(r, 0).data() for r in range(4)] == ORDER
    assert "sort" in QToolTip.text()
