"""Statistics, assistant activity, review, import preview and the model tab in plain words (issue 37, item 7)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSettings

from memdesk.core.store import Store


def use_language(language: str) -> None:
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )


def in_sight(widget, top) -> bool:
    """Shown and wholly inside ``top`` (not below a fold that needs scrolling)."""
    if not widget.isVisibleTo(top):
        return False
    corner = widget.mapTo(top, QPoint(0, 0))
    return top.rect().contains(QRect(corner, widget.size()))


# ---- statistics ----------------------------------------------------------------------------------------
def open_stats(window, qtbot):
    window.acts.statistics.trigger()
    dialog = window.statistics_dialog
    qtbot.waitUntil(lambda: dialog.stats is not None, timeout=10000)
    qtbot.waitExposed(dialog)
    return dialog


def tick_labels(axis) -> list[str]:
    return [text for level in axis._tickLevels for _value, text in level]


def drawn_ticks(axis, low: float, high: float) -> list[float]:
    return [v for _spacing, values in axis.tickValues(low, high, 300) for v in values if low <= v <= high]


def test_statistics_read_plainly_and_fit_the_window(launch, db_path, qtbot):
    store = Store.open(db_path)
    store.create_persona(name="工作助手")
    store.add_many([{"content": f"记忆 {i}", "title": f"记忆 {i}", "tags": ["咖啡"]} for i in range(3)])
    store.close()
    use_language("zh_CN")
    window = launch(db_path)
    window.resize(900, 640)
    dialog = open_stats(window, qtbot)
    assert dialog.width() <= window.width() and dialog.height() <= window.height()

    heat = dialog.charts["heat"]
    labels = tick_labels(heat.getAxis("bottom"))
    assert labels == ["0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]  # the edges, each alone
    for name, axis_name in (("type", "left"), ("scope", "left"), ("heat", "left"), ("tag", "bottom")):
        chart = dialog.charts[name]
        top = max(chart.counts)
        ticks = drawn_ticks(chart.getAxis(axis_name), 0, top * 1.1)
        assert ticks and all(float(t).is_integer() for t in ticks), (name, ticks)  # 3 memories: no 0.5 or 1.5
    assert dialog.charts["scope"].getPlotItem().titleLabel.text == "按范围"  # the editor's 范围

    legend = dialog.findChild(type(dialog.summary), "statsLegend")
    assert "手动" in legend.text() and "助手" in legend.text() and "导入" in legend.text()
    assert in_sight(legend, dialog)  # above the charts, not below the fold
    dialog.reject()


# ---- assistant activity --------------------------------------------------------------------------------
def test_assistant_activity_says_actions_clients_and_titles(launch, db_path, qtbot):
    from memdesk.core.tools.service import MemoryTools, ToolError

    store = Store.open(db_path)
    store.create_persona(name="工作助手")
    tools = MemoryTools(store, persona="工作助手", client="claude-desktop")
    first = tools.call("memory_save", {"content": "用户每周三下午有部门例会", "title": "部门例会"})["id"]
    tools.client = "Cherry Studio"  # a client that gave its name in the handshake
    tools.call("memory_upsert", {"content": "用户下个月去深圳出差三天", "title": "深圳出差", "dedup_key": "trip"})
    tools.call("memory_search", {"query": "例会"})
    tools.client = "cli"
    tools.call("memory_delete", {"query": "部门例会"})
    try:
        tools.call("memory_save", {"title": "会议纪要"})
    except ToolError:
        pass
    store.close()
    use_language("zh_CN")
    window = launch(db_path)
    window.acts.tool_log.trigger()
    dialog = window.tool_log_dialog
    model = dialog.model
    shown = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]
    actions = [row[model.TOOL] for row in shown]
    assert actions == ["保存", "删除", "搜索", "保存或更新", "保存"]
    assert [row[model.CLIENT] for row in shown] == [
        "命令行",
        "命令行",
        "Cherry Studio",
        "Cherry Studio",
        "Claude Desktop",
    ]
    assert "删除「部门例会」" in shown[1][model.TOUCHED] and "新增「深圳出差」" in shown[3][model.TOUCHED]
    assert all(first[:8] not in " ".join(map(str, row)) for row in shown)  # titles, not hex ids
    assert first[:8] in model.index(1, model.TOUCHED).data(0x03)  # ToolTipRole: the id is there for who wants it
    assert {row[model.REVERTED] for row in shown} == {""}  # nothing reverted yet: the column is blank
    dialog.select(model.rows[3].id)
    dialog.revert_button.click()
    window.settle()
    assert {model.index(r, model.REVERTED).data() for r in range(model.rowCount())} == {"", "已撤销"}


# ---- review duplicates -----------------------------------------------------------------------------------
def test_a_merge_proposal_marks_what_differs_between_the_two_texts(launch, db_path, qtbot):
    from PySide6.QtWidgets import QPlainTextEdit, QTextBrowser

    short, long = "用户喜欢喝乌龙茶，每天下午一杯，不加糖", "用户喜欢喝乌龙茶，每天下午喝一杯，不加糖"
    store = Store.open(db_path)
    store.add(content=short, title="喝乌龙茶")
    store.add(content=long, title="下午茶")
    store.close()
    use_language("zh_CN")
    window = launch(db_path)
    with qtbot.waitSignal(window.maintenance.finished, timeout=60000):
        window.acts.maintenance.trigger()
    window.acts.review.trigger()
    dialog = window.review_dialog
    assert len(dialog.model.rows) == 1
    first, second = dialog.member_views
    left = first.findChild(QPlainTextEdit, "memberContent").toPlainText()
    diff = second.findChild(QTextBrowser, "memberDiff")
    page = diff.toHtml()
    # the one character between them, marked as inserted (green) or deleted (struck through)
    inserted = "#d4f7d4" in page and left == short
    deleted = "line-through" in page and left == long
    assert inserted or deleted, page
    marked = [span for span in page.split("<span")[1:] if "d4f7d4" in span or "line-through" in span]
    assert len(marked) == 1 and ">喝</span>" in marked[0], marked
    assert "与“" in diff.toPlainText() and "比较" in diff.toPlainText()


# ---- import preview ----------------------------------------------------------------------------------
def test_the_import_preview_names_unknown_personas_and_bad_records_for_people(launch, db_path, qtbot, tmp_path):
    import json

    from tests.gui.test_screens import visible_texts

    Store.open(db_path).close()
    persona = "3f2a9c1e-0000-4000-8000-000000000001"
    records = [
        {"id": "seed-1", "personaId": persona, "content": "用户喜欢爬山", "title": "爱好"},
        {"id": "seed-2", "personaId": persona, "content": "用户周末去郊外", "title": "周末"},
        {"id": "seed-3", "content": ""},
    ]
    path = tmp_path / "助手导出.json"
    path.write_text(json.dumps({"memories": records}, ensure_ascii=False), encoding="utf-8")
    use_language("zh_CN")
    window = launch(db_path)
    with qtbot.waitSignal(window.importer.preview_opened, timeout=20000) as opened:
        window.importer.import_file(path)
    dialog = opened.args[0]
    source = dialog.mapping.findChild(type(dialog.summary_label), "personaSource0")
    assert source.text() == "文件里的角色 1（3f2a…），2 条记录"
    assert persona in source.toolTip()
    rows = {dialog.model.index(r, 0).data(): dialog.model.index(r, 2).data() for r in range(dialog.model.rowCount())}
    assert rows[3] == "文件里的第 3 条记录（没有标题）"
    assert "seed-3" in dialog.model.index(2, 2).data(0x03)  # the file's id, in the tooltip only
    shown = " ".join(visible_texts(dialog))
    assert "seed-3" not in shown and persona not in shown
    dialog.reject()


# ---- the model tab -----------------------------------------------------------------------------------
def test_the_model_tab_says_what_semantic_search_does_and_folds_the_mirror_away(
    launch, db_path, qtbot, tmp_path, monkeypatch
):
    from tests.gui.test_screens import visible_texts

    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    monkeypatch.delenv("MEMDESK_HUB_URL", raising=False)
    monkeypatch.setenv("MEMDESK_MODELS_DIR", str(tmp_path / "models"))
    Store.open(db_path).close()
    use_language("zh_CN")
    window = launch(db_path)
    window.open_settings("model")
    tab = window.settings_dialog.model_manager
    intro = tab.findChild(type(tab.status), "modelIntro").text()
    assert intro.startswith("语义搜索") and intro.count("。") == 2  # what it does; where it runs
    shown = " ".join(visible_texts(tab))
    for jargon in ("嵌入", "HF_ENDPOINT", "huggingface", "0%"):
        assert jargon not in shown, jargon
    assert not tab.progress.isVisibleTo(tab) and not tab.hub.isVisibleTo(tab)
    assert "未开启" in tab.active_label.text()
    tab.advanced_toggle.click()  # 高级: where downloads come from
    assert tab.advanced_toggle.text() == "高级" and tab.hub.isVisibleTo(tab) and tab.hub_url.isVisibleTo(tab)
    assert "HF_ENDPOINT" in " ".join(visible_texts(tab))


# ---- the status bar ----------------------------------------------------------------------------------
def test_at_800_px_in_english_the_import_message_fits_and_goes_away(launch, db_path, qtbot, tmp_path):
    import json

    from memdesk.core.search.rank.ranker import NO_EMBEDDER

    Store.open(db_path).close()
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"memories": [{"content": f"记忆 {i}"} for i in range(12)]}), encoding="utf-8")
    window = launch(db_path)
    window.resize(800, 600)
    window.search_notice.say("", NO_EMBEDDER)  # what a search says while no model is installed
    with qtbot.waitSignal(window.importer.preview_opened, timeout=20000) as opened:
        window.importer.import_file(path)
    window.notice_ms = 300  # how long a notice stays (8 s in use); the test waits for the real timer
    with qtbot.waitSignal(window.importer.imported, timeout=10000):
        opened.args[0].import_button.click()
    bar = window.statusBar()
    message = bar.currentMessage()
    assert message == "Imported: 12 new, 0 updated"
    qtbot.wait(10)  # one turn of the event loop: the bar lays out its widgets
    assert window.search_notice.isVisible() and window.counts_label.isVisible()
    assert window.search_notice.toolTip()  # the longer reason, for who points at it
    shown = [w for w in (window.search_notice, window.counts_label, window.jobs) if w.isVisible()]
    room = min(w.geometry().x() for w in shown)
    assert bar.fontMetrics().horizontalAdvance(message) + 12 <= room, (room, [w.width() for w in shown])
    qtbot.waitUntil(lambda: not bar.currentMessage(), timeout=5000)
