"""The window on a --db (or a recent file) that does not exist: it asks before making a new,
empty store there, and makes nothing when the answer is no (issue 36)."""

from memdesk.gui.main import App


def test_the_window_asks_and_creates_nothing_when_told_not_to(tmp_path, asker, qtbot):
    missing = tmp_path / "none" / "x.db"
    asker.choices.append("cancel")
    app = App(ask=asker, maintenance_delay_ms=10**9)
    assert not app.open(str(missing))
    assert asker.asked == [f"There is no database at {missing}."]
    assert not missing.parent.exists() and app.session is None


def test_the_window_creates_the_store_when_asked_to(tmp_path, asker, qtbot):
    missing = tmp_path / "new" / "x.db"
    asker.choices.append("create")
    app = App(ask=asker, maintenance_delay_ms=10**9)
    try:
        assert app.open(str(missing))
        assert missing.is_file() and app.session.store.count() == 0
    finally:
        app.window.close()
        app.shutdown()


def test_file_new_database_creates_without_asking(tmp_path, launch, asker, qtbot):
    window = launch(tmp_path / "first.db")
    target = tmp_path / "second.db"
    window.app_controller.switch_database(str(target), True)
    app = window.app_controller
    assert app.session.store.path == target and target.is_file()
    assert asker.asked == []
