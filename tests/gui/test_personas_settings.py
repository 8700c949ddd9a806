"""Managing personas, the settings dialog, language, and the remembered layout."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from memdesk.core.store import Store


def seed_persona(path, name="工作助手", memories=2):
    store = Store.open(path)
    pid, _ = store.create_persona(name=name)
    ids = [store.add(content=f"记忆{i}", persona_id=pid).added[0] for i in range(memories)]
    store.add(content="全局记忆")
    store.close()
    return pid, ids


def test_add_rename_colour_and_delete_personas(launch, db_path, qtbot, asker):
    window = launch(db_path)
    window.acts.personas.trigger()
    window.settle()
    dialog = window.personas_dialog
    assert dialog.isVisible()
    store = window.session.store

    asker.texts = ["写作助手"]
    dialog.add_button.click()
    window.settle()
    persona = store.persona_by_name("写作助手")
    assert persona is not None and dialog.current_id() == persona.id
    assert window.persona_combo.findData(persona.id) >= 0  # the toolbar selector follows

    dialog.name.setText("写作教练")
    dialog.apply_button.click()
    window.settle()
    assert store.persona(persona.id).name == "写作教练"
    assert window.acts.undo.text() == "Undo Rename persona “写作助手” to “写作教练”"

    asker.colours = ["#aa3366"]
    dialog.colour_button.click()
    window.settle()
    assert store.persona(persona.id).colour == "#aa3366"

    window.session.undo()
    window.settle()
    window.session.undo()
    window.settle()
    assert store.persona(persona.id).name == "写作助手" and store.persona(persona.id).colour == ""


def test_deleting_a_persona_asks_what_happens_to_its_memories(launch, db_path, qtbot, asker):
    pid, ids = seed_persona(db_path)
    window = launch(db_path)
    window.open_personas()
    dialog = window.personas_dialog
    dialog.select(pid)
    store = window.session.store

    asker.choices = ["cancel"]
    dialog.delete_button.click()
    window.settle()
    assert store.persona_by_name("工作助手") is not None
    assert "2 memories" in asker.asked[-1]

    asker.choices = ["trash"]
    dialog.delete_button.click()
    window.settle()
    assert store.persona_by_name("工作助手") is None
    assert all(store.get(i).is_deleted for i in ids)
    assert window.browser.tree.counts()["trash"] == 2

    window.session.undo()  # the persona comes back, and its memories with it
    window.settle()
    assert store.persona(pid).name == "工作助手"
    assert all(not store.get(i).is_deleted and store.get(i).persona_id == pid for i in ids)

    dialog.select(pid)
    asker.choices = ["global"]
    dialog.delete_button.click()
    window.settle()
    assert all(store.get(i).persona_id is None and not store.get(i).is_deleted for i in ids)


def test_showing_a_persona_that_gets_deleted_falls_back_to_all(launch, db_path, qtbot, asker):
    pid, _ = seed_persona(db_path)
    window = launch(db_path)
    window.set_persona(pid)
    qtbot.waitUntil(lambda: not window.browser.tree.building)
    assert window.browser.tree.counts()["active"] == 3
    window.open_personas()
    window.personas_dialog.select(pid)
    asker.choices = ["global"]
    window.personas_dialog.delete_button.click()
    window.settle()
    assert window.persona_combo.currentData() == "__all__"


def test_settings_store_weights_and_schedule_in_the_database(launch, db_path, qtbot):
    window = launch(db_path)
    window.acts.settings.trigger()
    window.settle()
    dialog = window.settings_dialog
    assert dialog.isVisible()
    dialog.weights["importance"].setValue(0.5)
    dialog.schedule.setCurrentIndex(dialog.schedule.findData("weekly"))
    dialog.trash_days.setValue(14)
    dialog.apply_and_close()
    store = window.session.store
    assert store.setting("search.weights")["importance"] == 0.5
    assert store.setting("maintenance.schedule") == "weekly"
    assert store.setting("maintenance.trash_days") == 14


def test_switching_language_rebuilds_the_window_in_chinese(launch, db_path, qtbot):
    window = launch(db_path)
    app = window.app_controller
    window.open_settings()
    dialog = window.settings_dialog
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.apply_and_close()
    qtbot.waitUntil(lambda: app.window is not None and app.window is not window)
    new = app.window
    assert new.acts.new.text() == "新建记忆"
    assert new.persona_combo.itemText(0) == "全部"
    assert (
        QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").value("ui/language")
        == "zh_CN"
    )
    app.switch_language("en")
    assert app.window.acts.new.text() == "New memory"


def test_window_layout_is_remembered(launch, db_path, qtbot, isolated_qsettings):
    window = launch(db_path)
    window.resize(700, 500)  # fits the offscreen screen (800×600)
    window.splitter.setSizes([200, 500])
    sizes = window.splitter.sizes()
    window.close()
    assert list(isolated_qsettings.rglob("*.ini"))  # written to the test's own folder
    again = launch(db_path)
    assert again.size().width() == 700
    assert again.splitter.sizes() == sizes


def test_opening_another_database(launch, db_path, tmp_path, qtbot, asker):
    window = launch(db_path)
    app = window.app_controller
    other = tmp_path / "other.db"
    asker.files = [str(other)]
    window.pick_database(new=True)
    assert app.session.store.path == other and app.window is not window
    assert app.window.windowTitle().endswith("other.db")
