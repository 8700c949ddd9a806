"""What makes the screens finished: safe defaults, reasons in words, layouts that hold at 800×600."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt, QUrl

from memdesk.core.store import Store
from memdesk.core.tools.service import MemoryTools, ToolError


def use_language(language: str) -> None:
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )


def seed(path):
    store = Store.open(path)
    pid, _ = store.create_persona(name="工作助手")
    first = store.add(content="用户喜欢喝绿茶", title="饮品偏好", group="生活/饮食", tags=["习惯"]).added[0]
    store.add(content="用户对花生严重过敏，点菜时必须避开花生", title="对花生过敏", tags=["健康"])
    store.close()
    return pid, first


def in_sight(window, widget) -> bool:
    """Shown, and inside the window's visible area (not cut off, not in an overflow menu)."""
    if not widget.isVisibleTo(window):
        return False
    top_left = widget.mapTo(window, QPoint(0, 0))
    bottom_right = widget.mapTo(window, QPoint(widget.width(), widget.height()))
    status = window.statusBar().height()
    return (
        top_left.x() >= 0
        and top_left.y() >= 0
        and bottom_right.x() <= window.width()
        and bottom_right.y() <= window.height() - status
    )


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_at_800_by_600_the_search_box_and_save_stay_in_sight(launch, db_path, qtbot, language):
    use_language(language)
    seed(db_path)
    window = launch(db_path)
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800 and window.height() == 600)
    memory_id = next(m.id for m in window.session.store.list() if m.title == "饮品偏好")
    window.open_memory(memory_id)
    window.editor.form.content.setPlainText("用户喜欢喝绿茶\n" * 30)  # a long text: the form scrolls
    qtbot.wait(50)
    assert in_sight(window, window.search_bar.edit) and window.search_bar.edit.width() >= 200
    assert in_sight(window, window.editor.save_button) and window.editor.save_button.isEnabled()
    assert in_sight(window, window.editor.revert_button)
    window.resize(1280, 800)  # room again: the buttons get their words back
    qtbot.waitUntil(lambda: window.toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    assert in_sight(window, window.search_bar.edit)


def _conflict(window, qtbot, type_text, other_writer, memory_id):
    window.open_memory(memory_id)
    window.editor.form.content.selectAll()
    type_text(window.editor.form.content, "用户喜欢喝乌龙茶，不加糖")
    other_writer(window.session.store.path, memory_id, content="用户喜欢喝绿茶，每天两杯")
    window.editor.save()
    qtbot.waitUntil(lambda: window.editor.conflict_dialog is not None and window.editor.conflict_dialog.isVisible())
    window.settle()
    return window.editor.conflict_dialog


def test_enter_in_the_conflict_dialog_discards_nobodys_text(launch, db_path, qtbot, type_text, other_writer):
    use_language("zh_CN")
    _pid, memory_id = seed(db_path)
    window = launch(db_path)
    dialog = _conflict(window, qtbot, type_text, other_writer, memory_id)
    assert dialog.cancel_button.isDefault()
    for button in (dialog.keep_mine, dialog.take_theirs, dialog.merge_button):
        assert not button.isDefault() and not button.autoDefault()
    # The buttons say which column they keep.
    headers = [dialog.table.horizontalHeaderItem(c).text() for c in range(3)]
    assert headers[1] in dialog.keep_mine.text() and headers[2] in dialog.take_theirs.text()
    # Both texts whole: each cell is as tall as its wrapped text.
    row = dialog.differing.index("content")
    needed = dialog.table.sizeHintForRow(row)
    assert dialog.table.rowHeight(row) >= needed

    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    window.settle()
    assert not dialog.isVisible()
    assert window.session.store.get(memory_id).content == "用户喜欢喝绿茶，每天两杯"  # theirs kept
    assert window.editor.form.content.toPlainText() == "用户喜欢喝乌龙茶，不加糖" and window.editor.dirty  # mine kept


@pytest.mark.parametrize(
    ("language", "persona", "reason", "reverted"),
    [
        ("en", "工作助手", "Failed: the argument content is missing", "Reverted"),
        ("zh_CN", "工作助手", "失败：缺少参数「内容」", "已撤销"),
    ],
)
def test_the_tool_log_shows_the_persona_and_why_a_call_failed(
    launch, db_path, qtbot, language, persona, reason, reverted
):
    use_language(language)
    store = Store.open(db_path)
    store.create_persona(name="工作助手")
    tools = MemoryTools(store, persona="工作助手", client="claude-desktop")
    tools.call("memory_upsert", {"content": "用户下个月去深圳出差", "dedup_key": "trip"})
    with pytest.raises(ToolError):
        tools.call("memory_save", {"title": "会议纪要"})  # no content: refused before its arguments are read
    store.close()
    window = launch(db_path)
    window.acts.tool_log.trigger()
    dialog = window.tool_log_dialog
    failed, saved = dialog.model.rows
    assert failed.persona == persona and not failed.ok  # not listed as global
    assert dialog.model.index(0, dialog.model.TOUCHED).data() == reason
    dialog.select(saved.id)
    dialog.revert_button.click()
    window.settle()
    model = dialog.model
    # one meaning in the column: blank unless reverted (a failed call has nothing to revert)
    assert [model.index(r, model.REVERTED).data() for r in range(2)] == ["", reverted]
    dialog.select(failed.id)
    assert reason in dialog.detail.text() and dialog.detail.isVisibleTo(dialog)
    assert not dialog.view.wordWrap()  # a time is one line
    header = dialog.view.horizontalHeader()
    metrics = dialog.view.fontMetrics()
    action = model.index(1, model.TOOL).data()  # memory_upsert as an action: 保存或更新 / Save or update
    assert header.sectionSize(model.TOOL) >= metrics.horizontalAdvance(action)  # not cut
    assert header.sectionSize(model.TIME) >= metrics.horizontalAdvance(failed.when)


def test_why_found_says_it_in_one_sentence_and_keeps_the_numbers_a_click_away(launch, db_path, qtbot):
    use_language("zh_CN")
    seed(db_path)
    window = launch(db_path, wait_index=True)
    with qtbot.waitSignal(window.browser.search_finished, timeout=10000):
        window.search_bar.set_text("过敏")
    window._open_current_result()
    window.settle()
    explain = window.editor.explain
    summary = explain.note.text()
    assert "匹配到「过敏」" in summary and "关键词排名第 1" in summary, summary
    assert "在标题和内容中" in summary and "0." not in summary  # where it matched; no raw scores
    assert not explain.tree.isVisibleTo(explain)  # numbers hidden at first
    explain.numbers_button.click()
    assert explain.tree.isVisibleTo(explain) and explain.tree.topLevelItemCount() > 0


def test_search_syntax_help_has_an_example_per_operator_and_tries_it(launch, db_path, qtbot):
    seed(db_path)
    window = launch(db_path)
    window.search_bar.help_button.click()
    dialog = window.syntax_dialog
    assert dialog.isVisible()
    examples = [example for _section, example, _chinese, _meaning in dialog.rows()]
    chinese = [example for _section, _english, example, _meaning in dialog.rows()]
    for word in (
        "角色:",
        "分组:",
        "标签:",
        "类型:偏好",
        "范围:短期",
        "层级:热",
        "重要性>=",
        "已删除",
        "已过期",
        "已被取代",
    ):
        assert any(word in example for example in chinese), word
        assert word in dialog.page.toPlainText(), word
    for operator in (
        '"',
        "-",
        " OR ",
        "(",
        "persona:",
        "group:",
        "tag:",
        "type:",
        "scope:",
        "tier:",
        "importance>=",
        "is:deleted",
        "is:expired",
        "is:superseded",
        "created>",
        "updated<",
        "id:",
    ):
        assert any(operator in example for example in examples), operator
    window.acts.syntax.trigger()  # Help › Search syntax: the same page
    assert window.syntax_dialog is dialog and dialog.isVisible()
    with qtbot.waitSignal(window.browser.search_finished, timeout=10000):
        dialog.page.anchorClicked.emit(QUrl("query:" + QUrl.toPercentEncoding("tag:健康").data().decode()))
    assert window.search_bar.text() == "tag:健康"


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("en", "Delete the 1 memory in the trash for good?"),
        ("zh_CN", "要永久删除回收站中的全部 1 条记忆吗？"),
    ],
)
def test_emptying_the_trash_asks_with_the_warning_sign_and_counts_in_words(launch, db_path, asker, language, question):
    use_language(language)
    _pid, memory_id = seed(db_path)
    window = launch(db_path)
    window.actions_.delete([memory_id])
    window.settle()
    asker.choices.append("no")
    window.acts.empty_trash.trigger()
    assert asker.warned == [question]
    assert window.session.store.get(memory_id).is_deleted  # declined: still in the trash


def test_the_last_maintenance_run_reads_as_sentences_in_local_time(launch, db_path, qtbot):
    import re

    from memdesk.core.domain.times import parse_time
    from memdesk.core.maintenance import last_reports

    use_language("zh_CN")
    seed(db_path)
    window = launch(db_path)
    with qtbot.waitSignal(window.maintenance.finished, timeout=60000):
        window.acts.maintenance.trigger()
    window.acts.review.trigger()
    text = window.review_dialog.report_view.toPlainText()
    started = parse_time(last_reports(window.session.store, 1)[0]["started_at"])
    assert started.astimezone().strftime("%Y-%m-%d %H:%M") in text  # local time, to the minute
    assert "合并建议" in text and "条合并建议待查看" in text  # each task in words
    assert not re.search(r"[{}\"]|\d\d:\d\d:\d\d\.\d|[a-z]+_[a-z]+", text), text  # no JSON, no UTC stamps


def test_the_maintenance_summary_names_a_failed_task_in_words(qapp):
    from memdesk.gui import i18n
    from memdesk.gui.dialogs.maintenance_report import report_summary

    i18n.install("en")  # an earlier test may have left Chinese installed
    report = {
        "started_at": "2026-11-30T08:00:00+00:00",
        "tasks": [{"name": "expire", "status": "done"}, {"name": "reembed", "status": "failed"}],
    }
    line = report_summary(report)
    assert "1 of 2 tasks done" in line and "failed: Vectors for meaning search" in line, line
