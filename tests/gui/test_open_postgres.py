"""The window on a PostgreSQL store: its title names database@host, never a password, and a
URL it cannot open is one line in a message, with the open window left as it was."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.postgresql


def test_window_title_and_a_failed_open_keep_the_password_out(pg_database, launch, asker):
    url = pg_database.replace("postgres@", "postgres:hidden-pw@")  # trust auth: unused
    window = launch(url)
    assert window.windowTitle().endswith(pg_database.rsplit("/", 1)[1] + "@127.0.0.1")
    assert "hidden-pw" not in window.windowTitle()
    app = window.app_controller
    bad = url.rsplit("/", 1)[0] + "/no_such_database"
    app.switch_database(bad)
    assert len(asker.informed) == 1
    message = asker.informed[0]
    assert "no_such_database" in message and "hidden-pw" not in message and "\n" not in message
    assert app.window is not None and app.session.store.location == url.replace("hidden-pw", "***")
