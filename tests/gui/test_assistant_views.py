"""Assistant activity (the tool-call log and revert), the context preview and the memory switches."""

from __future__ import annotations

from PySide6.QtCore import Qt

from memdesk.core.store import Store
from memdesk.core.tools.service import MemoryTools


def seed_calls(path):
    """Two memory_save calls by an assistant acting as 工作助手, and one global memory."""
    store = Store.open(path)
    pid, _ = store.create_persona(name="工作助手")
    tools = MemoryTools(store, persona="工作助手", client="claude-desktop")
    first = tools.call("memory_save", {"content": "用户偏好 Python 编程", "title": "编程偏好"})["id"]
    second = tools.call("memory_save", {"content": "周五前交季度报告"})["id"]
    store.add(content="全局记忆：用户住在上海")
    store.close()
    return pid, first, second


def open_log(window):
    window.acts.tool_log.trigger()
    dialog = window.tool_log_dialog
    assert dialog.isVisible()
    return dialog


def test_activity_lists_tool_calls_and_reverting_one_trashes_its_memory(launch, db_path, qtbot, qtmodeltester):
    pid, first, second = seed_calls(db_path)
    window = launch(db_path)
    dialog = open_log(window)
    qtmodeltester.check(dialog.model)
    rows = dialog.model.rows
    assert [r.tool for r in rows] == ["memory_save", "memory_save"]
    assert rows[0].persona == "工作助手" and rows[0].client == "Claude Desktop" and rows[0].ok
    assert rows[1].touched == "added「编程偏好」" and rows[1].ids == first[:8]
    assert dialog.model.index(1, dialog.model.TOOL).data() == "Save"
    assert dialog.model.index(1, dialog.model.REVERTED).data() == ""
    assert dialog.model.index(1, dialog.model.RESULT).data() == "ok"

    dialog.select(rows[1].id)
    assert dialog.revert_button.isEnabled()
    trash_before = window.browser.tree.counts()["trash"]
    dialog.revert_button.click()
    window.settle()
    store = window.session.store
    assert store.get(first).is_deleted and not store.get(second).is_deleted
    row = next(r for r in dialog.model.rows if r.id == rows[1].id)
    assert row.reverted and not row.revertible
    assert dialog.model.index(1, dialog.model.REVERTED).data() == "Reverted"
    assert not dialog.revert_button.isEnabled()  # the same call cannot be reverted twice
    qtbot.waitUntil(lambda: window.browser.tree.counts()["trash"] == trash_before + 1)  # the views heard it
    qtmodeltester.check(dialog.model)


def test_a_conflicting_revert_shows_the_error_and_changes_nothing(launch, db_path, qtbot, asker):
    pid, first, _ = seed_calls(db_path)
    window = launch(db_path)
    store = window.session.store
    store.update(first, expected_version=None, content="用户偏好 Rust 编程")  # edited after the call
    dialog = open_log(window)
    call = next(r for r in dialog.model.rows if first[:8] in r.ids)
    dialog.select(call.id)
    dialog.revert_button.click()
    window.settle()
    assert asker.informed and "was changed after tool call" in asker.informed[-1]
    record = store.get(first)
    assert not record.is_deleted and record.content == "用户偏好 Rust 编程"
    assert not next(r for r in dialog.model.rows if r.id == call.id).reverted


def test_calls_made_while_the_dialog_is_open_show_up_on_the_next_change(launch, db_path, qtbot):
    seed_calls(db_path)
    window = launch(db_path)
    dialog = open_log(window)
    tools = MemoryTools(window.session.store, persona=None, client="cli")
    tools.call("memory_save", {"content": "全局：会议改到周四"})
    window.session.broadcast(window.session.store.changes_since(0)[1])  # as the window's poll would
    assert len(dialog.model.rows) == 3 and dialog.model.rows[0].persona == "Global"


def test_context_preview_shows_the_brief_and_its_token_count(launch, db_path, qtbot, type_text):
    pid, first, _ = seed_calls(db_path)
    window = launch(db_path)
    window.acts.context_preview.trigger()
    window.settle()
    dialog = window.context_preview_dialog
    assert dialog.isVisible()
    assert "全局记忆：用户住在上海" in dialog.text.toPlainText()  # Global: only global memories
    assert "Python" not in dialog.text.toPlainText()

    dialog.set_persona(pid)
    text = dialog.text.toPlainText()
    assert text.startswith("[Memory Brief]") and "用户偏好 Python 编程" in text and "上海" in text
    assert f"{dialog.brief.tokens} tokens (estimated" in dialog.tokens.text() and dialog.brief.tokens > 10

    type_text(dialog.message, "季度报告什么时候交")
    assert dialog.message.text() == "季度报告什么时候交"
    qtbot.waitUntil(lambda: not dialog.timer.isActive())
    assert "周五前交季度报告" in dialog.text.toPlainText()
    # Looking is not reading: no access was recorded.
    assert window.session.store.get(first).access_count == 0


def test_context_preview_says_when_memory_is_switched_off(launch, db_path, qtbot):
    pid, _, _ = seed_calls(db_path)
    store = Store.open(db_path)
    store.update_persona(pid, auto_save_memory=False)
    store.close()
    window = launch(db_path)
    window.open_context_preview()
    dialog = window.context_preview_dialog
    dialog.set_persona(pid)
    assert dialog.text.toPlainText() == ""
    assert "switched off" in dialog.notice.text()
    dialog.set_persona(None)
    assert "switched off" not in dialog.notice.text() and "上海" in dialog.text.toPlainText()


def test_memory_switches_persist_and_undo(launch, db_path, qtbot):
    pid, _, _ = seed_calls(db_path)
    window = launch(db_path)
    window.open_personas()
    dialog = window.personas_dialog
    dialog.select(pid)
    store = window.session.store
    assert dialog.auto_save.isChecked()
    qtbot.mouseClick(dialog.auto_save, Qt.MouseButton.LeftButton)
    window.settle()
    assert store.persona(pid).auto_save_memory is False
    assert window.acts.undo.text() == "Undo Turn memory off for “工作助手”"

    assert dialog.global_switch.isChecked()
    qtbot.mouseClick(dialog.global_switch, Qt.MouseButton.LeftButton)
    window.settle()
    assert store.setting("global.auto_save_memory") is False
    tools = MemoryTools(store, client="test")
    assert tools.list_tools() == [] and tools.list_tools("工作助手") == []

    window.session.undo()
    window.settle()
    assert store.setting("global.auto_save_memory") is True and dialog.global_switch.isChecked()
    window.session.undo()
    window.settle()
    assert store.persona(pid).auto_save_memory is True and dialog.auto_save.isChecked()


def test_context_preview_ranks_by_the_message_once_the_index_is_built(launch, db_path, qtbot, type_text):
    store = Store.open(db_path)
    for i in range(8):
        store.add(content=f"无关的记忆 {i}", importance=9)
    store.add(content="用户的猫叫小橘", importance=1)
    store.close()
    window = launch(db_path, wait_index=True)
    window.open_context_preview()
    dialog = window.context_preview_dialog
    lines = dialog.text.toPlainText().splitlines()
    assert "小橘" in lines[-1]  # least important: last without a message
    type_text(dialog.message, "小橘")
    qtbot.waitUntil(lambda: "小橘" in dialog.text.toPlainText().splitlines()[2])
    assert dialog.notice.text() == ""


def test_a_failed_call_is_said_in_chinese_by_its_code(launch, db_path, qtbot, isolated_qsettings):
    """The log keeps the refusal's code: the window words it, an argument named with ' included."""
    from PySide6.QtCore import QSettings

    from memdesk.core.tools.args import ToolError

    store = Store.open(db_path)
    with __import__("pytest").raises(ToolError):
        MemoryTools(store, client="claude-desktop").call("memory_save", {"content": "用户喝茶", "it's": 1})
    store.close()
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", "zh_CN"
    )
    from memdesk.gui import i18n

    try:
        dialog = open_log(launch(db_path))
        shown = dialog.model.index(0, dialog.model.TOUCHED).data()
        assert "给了不支持的参数：it's" in shown and "memory_save" not in shown, shown
    finally:
        i18n.install("en")  # the next tests expect the English catalogue
