"""The review inbox: maintenance in the background, and merging / keeping near-duplicates."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QTextBrowser

from memdesk.core.maintenance import last_reports, proposals, run_maintenance
from memdesk.core.store import Store

TEA_SHORT = "用户喜欢喝乌龙茶，每天下午一杯"
TEA_LONG = "用户喜欢喝乌龙茶，每天下午喝一杯"


def seed_tea(path, *, others=()):
    store = Store.open(path)
    first = store.add(content=TEA_SHORT, tags=["饮食"]).added[0]
    second = store.add(content=TEA_LONG).added[0]
    store.add(content="周五前交季度报告")
    if others:
        store.add_many([{"content": text} for text in others])
    store.close()
    return first, second


def run_and_wait(window, qtbot):
    with qtbot.waitSignal(window.maintenance.finished, timeout=60000):
        window.acts.maintenance.trigger()


def open_inbox(window):
    window.acts.review.trigger()
    dialog = window.review_dialog
    assert dialog.isVisible()
    return dialog


def test_the_two_tea_memories_make_a_proposal(store):
    store.add(content=TEA_SHORT)
    store.add(content=TEA_LONG)
    run_maintenance(store, tasks=["consolidate"])
    assert [len(p.memory_ids) for p in proposals(store)] == [2]


def test_maintenance_runs_in_the_background_while_the_window_keeps_working(launch, db_path, qtbot):
    notes = [f"第 {i} 条笔记：项目 {i % 97} 的进展，参与人 {i % 13}，地点 {i % 7} 号会议室" for i in range(3000)]
    seed_tea(db_path, others=notes)
    window = launch(db_path)
    ticks = []
    timer = QTimer(window)
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append(window.session.taskman.lane_busy("db")))
    timer.start()
    finished = []
    window.maintenance.finished.connect(finished.append)
    window.acts.maintenance.trigger()
    assert window.session.taskman.lane_busy("db")  # it runs on the db lane, not here
    assert any(t.label == "Maintenance" for t in window.session.taskman.tasks(visible_only=True))  # status bar
    qtbot.waitUntil(lambda: bool(finished), timeout=120000)
    timer.stop()
    assert sum(ticks) >= 3  # the event loop kept ticking while the run was on the db lane
    assert finished[0].to_json()["ok"]
    assert window.review_count >= 1
    assert "(" in window.acts.review.text()  # the count shows in the menu
    assert last_reports(window.session.store, 1)
    assert not window.session.unexpected_errors


def test_merging_with_edited_text_supersedes_both_originals(launch, db_path, qtbot, qtmodeltester, asker):
    first, second = seed_tea(db_path)
    window = launch(db_path)
    run_and_wait(window, qtbot)
    dialog = open_inbox(window)
    qtmodeltester.check(dialog.model)
    assert len(dialog.model.rows) == 1
    row = dialog.model.rows[0]
    assert set(row.memory_ids) == {first, second} and not row.stale
    assert dialog.selected_id() == row.id
    left = dialog.member_views[0].findChild(type(dialog.merged_text), "memberContent").toPlainText()
    right = dialog.member_views[1].findChild(QTextBrowser, "memberDiff").toPlainText()
    assert left in (TEA_SHORT, TEA_LONG) and ({TEA_SHORT, TEA_LONG} - {left}).pop()[-8:] in right  # side by side
    assert dialog.merged_text.toPlainText() == TEA_LONG  # the longest, pre-filled
    assert "Last maintenance run" in [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    assert "Merge proposals" in dialog.report_view.toPlainText()  # the task in words, not its internal name

    store = window.session.store
    assert store.get(first).is_active() and store.get(second).is_active()  # nothing merged before the click
    dialog.merged_text.setPlainText("用户每天下午喝一杯乌龙茶")
    changed = []
    window.session.changes_applied.connect(changed.append)
    dialog.merge_button.click()
    qtbot.waitUntil(lambda: bool(changed))
    merged_id = changed[0].added[0]
    merged = store.get(merged_id)
    assert merged.content == "用户每天下午喝一杯乌龙茶" and "饮食" in merged.tags
    for original in (first, second):
        record = store.get(original)
        assert record.is_superseded and record.superseded_by == merged_id
    assert dialog.model.rows == [] and not dialog.merge_button.isEnabled()
    assert window.acts.review.text() == "Review duplicates…"
    qtmodeltester.check(dialog.model)
    assert not asker.asked


def test_keep_both_removes_the_proposal_for_good(launch, db_path, qtbot):
    first, second = seed_tea(db_path)
    window = launch(db_path)
    run_and_wait(window, qtbot)
    dialog = open_inbox(window)
    assert len(dialog.model.rows) == 1
    dialog.keep_button.click()
    qtbot.waitUntil(lambda: dialog.model.rows == [])
    store = window.session.store
    assert store.get(first).is_active() and store.get(second).is_active()
    run_and_wait(window, qtbot)  # the next run does not bring it back
    assert proposals(store) == [] and dialog.model.rows == []
    assert window.review_count == 0


def test_dismiss_and_a_stale_merge_asks_first(launch, db_path, qtbot, asker):
    first, second = seed_tea(db_path)
    window = launch(db_path)
    run_and_wait(window, qtbot)
    store = window.session.store
    store.update(first, expected_version=None, content=TEA_SHORT + "。")  # edited after the proposal
    dialog = open_inbox(window)
    assert dialog.model.rows[0].stale
    assert dialog.model.index(0, dialog.model.STALE).data() == "edited since"
    asker.choices.append("no")
    dialog.merge_button.click()
    assert asker.asked and store.get(first).is_active() and len(dialog.model.rows) == 1  # declined: nothing
    asker.choices.append("yes")
    dialog.merge_button.click()
    qtbot.waitUntil(lambda: dialog.model.rows == [])
    assert store.get(first).is_superseded and store.get(second).is_superseded

    # dismiss: gone now, may come back on a later run
    seed_tea(db_path)
    run_and_wait(window, qtbot)
    dialog.refresh()
    assert dialog.model.rows
    gone = dialog.selected_id()
    members = dialog.selected_row().memory_ids
    dialog.dismiss_button.click()
    qtbot.waitUntil(lambda: gone not in [r.id for r in dialog.model.rows])
    assert all(store.get(m).is_active() for m in members)
    run_and_wait(window, qtbot)
    assert gone in [p.id for p in proposals(store)]


def test_import_offers_every_memory_file_type(launch, db_path, asker):
    window = launch(db_path)
    seen = []

    def open_file(parent, title, filters):
        seen.append(filters)
        return None

    asker.open_file = open_file
    window.choose_import()
    assert seen and "*.jsonl" in seen[0] and "*.zip" in seen[0] and "*.md" in seen[0]
