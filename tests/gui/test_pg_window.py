"""The window on a PostgreSQL server (the real throwaway one, pg_plugin.py): File → Open
server database, the password asked once and kept out of every trace, the keyring box,
"reconnecting…" while the server is away (the unsaved edit kept), and another process
woken by the window's save through LISTEN/NOTIFY."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memdesk.core.store import Store
from memdesk.gui.app.credentials import Passwords, key_of
from memdesk.gui.dialogs.server import PasswordDialog, ServerDialog

pytestmark = pytest.mark.postgresql
ROOT = Path(__file__).resolve().parents[2]
SECRET = "right-horse-battery"


@pytest.fixture
def password_url(pg_server, cluster, monkeypatch, tmp_path):
    """A database reachable only with a password (scram over TCP); libpq's own sources emptied."""
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no-pgpass"))
    pg_server.execute("DROP ROLE IF EXISTS memdesk_gui_pw")
    pg_server.execute(f"CREATE ROLE memdesk_gui_pw LOGIN SUPERUSER PASSWORD '{SECRET}'")
    cluster.require_password("memdesk_gui_pw")
    name = pg_server.new_database()
    yield pg_server.url(name).replace("postgres@", "memdesk_gui_pw@")
    pg_server.drop(name)


class MemoryVault:
    """A stand-in for the system keyring (the optional keyring package is not installed here)."""

    usable, reason = True, ""

    def __init__(self):
        self.saved: dict[str, str] = {}

    def get(self, key):
        return self.saved.get(key)

    def set(self, key, password):
        self.saved[key] = password


def test_file_open_server_database_opens_the_url(pg_database, launch, tmp_path, asker, qtbot):
    # pg_database first: set up before the window, so its database is dropped only after the
    # window closed (the window hears its own add by NOTIFY and reads it back at once).
    window = launch(tmp_path / "local.db")
    asker.urls = [pg_database]
    window.acts.open_server.trigger()
    app = window.app_controller
    qtbot.waitUntil(lambda: app.window is not None and app.window.session.store.is_postgres, timeout=20000)
    name = pg_database.rsplit("/", 1)[1]
    assert f"{name}@127.0.0.1" in app.window.windowTitle()
    app.window.session.store.add(content="服务器上的记忆")
    assert app.window.session.store.count() == 1


def test_the_server_dialog_refuses_what_is_not_a_url(qtbot):
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.url.setText("/home/me/memdesk.db")
    dialog._check()
    assert "postgresql://" in dialog.problem.text() and dialog.result() == 0
    dialog.url.setText("postgres://me@db.example/memdesk?sslmode=require")
    dialog._check()
    assert dialog.result() == ServerDialog.DialogCode.Accepted


def test_the_password_is_asked_once_and_never_shown_or_stored(
    launch, password_url, tmp_path, asker, qtbot, caplog, isolated_qsettings
):
    caplog.set_level(logging.DEBUG)
    asker.passwords = [("wrong-horse", False), (SECRET, False)]
    window = launch(password_url)
    store = window.session.store
    assert store.is_postgres and store.count() == 0
    assert [p[1] for p in asker.password_prompts][0] == ""  # first: the server asked, nothing was wrong yet
    assert "wrong user name or password" in asker.password_prompts[1][1]
    assert all(not can for _, _, can in asker.password_prompts)  # no keyring here: the box is off
    store.add(content="要密码的库")
    app = window.app_controller
    app.switch_database(str(tmp_path / "local.db"), True)  # away (a new file) and back: not asked again
    app.switch_database(password_url)
    qtbot.waitUntil(lambda: app.window.session.store.is_postgres, timeout=20000)
    assert len(asker.password_prompts) == 2 and app.window.session.store.count() == 1
    window = app.window
    traces = [
        window.windowTitle(),
        window.session.store.location,
        repr(window.session.store),
        window.show_about().text(),
        *asker.informed,
        *(str(p) for p in asker.password_prompts),
        caplog.text,
        *(f.read_text(errors="replace") for f in Path(isolated_qsettings).rglob("*") if f.is_file()),
    ]
    assert all(SECRET not in t for t in traces)
    assert any("memdesk_gui_pw" in t for t in traces)  # the traces were there to look at


def test_a_remembered_password_comes_from_the_keyring(password_url, asker, qtbot):
    from memdesk.gui.main import App, application

    application()
    vault = MemoryVault()
    asker.passwords = [(SECRET, True)]
    first = App(ask=asker, maintenance_delay_ms=10**9, passwords=Passwords(vault))
    assert first.open(password_url)
    assert vault.saved == {key_of(password_url): SECRET}
    assert SECRET not in key_of(password_url)
    first.window.close()
    first.shutdown()
    second = App(ask=asker, maintenance_delay_ms=10**9, passwords=Passwords(vault))  # a new run: memory empty
    assert second.open(password_url)  # no answer left: asking would fail the test
    assert len(asker.password_prompts) == 1
    second.window.close()
    second.shutdown()


def test_the_remember_box_is_off_without_a_keyring_and_the_field_hides_the_text(qtbot):
    off = PasswordDialog(None, "postgresql://me@db/x", can_remember=False, why_not="the keyring package is missing")
    qtbot.addWidget(off)
    assert not off.remember.isEnabled() and "the keyring package is missing" in off.remember.toolTip()
    assert off.password.echoMode() == off.password.EchoMode.Password
    on = PasswordDialog(None, "postgresql://me@db/x", can_remember=True)
    qtbot.addWidget(on)
    assert on.remember.isEnabled() and on.remember.toolTip() == ""


def test_the_window_says_reconnecting_keeps_the_edit_and_recovers(pg_database, launch, cluster, qtbot, type_text):
    seeded = Store.open(pg_database)
    memory_id = seeded.add(content="服务器重启前").added[0]
    seeded.close()
    window = launch(pg_database)
    window.open_memory(memory_id)
    window.editor.form.content.selectAll()
    type_text(window.editor.form.content, "断线时还没保存的字")
    assert window.editor.dirty
    cluster.stop("immediate")
    try:
        qtbot.waitUntil(lambda: window.connection_label.isVisible(), timeout=10000)
        assert window.connection_label.text() == "Reconnecting…"
        assert window.editor.form.content.toPlainText() == "断线时还没保存的字" and window.editor.dirty
    finally:
        cluster.start()
    qtbot.waitUntil(lambda: not window.connection_label.isVisible(), timeout=30000)
    assert window.editor.form.content.toPlainText() == "断线时还没保存的字"
    window.editor.save()
    qtbot.waitUntil(lambda: not window.editor.saving and not window.editor.dirty, timeout=20000)
    assert window.session.store.get(memory_id).content == "断线时还没保存的字"


WATCHER = """
import sys, time
from memdesk.core.feed.reader import FeedReader
from memdesk.core.store import Store
store = Store.open(sys.argv[1])
reader = FeedReader(store)
reader.begin_at(store.change_marker())
store.wait_for_change(0.01)  # LISTEN before saying ready
print("ready", flush=True)
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    if store.wait_for_change(5):
        found = reader.poll()
        if found and found[0].updated:
            print(time.time(), " ".join(found[0].updated), flush=True)
            break
store.close()
"""


def test_a_save_in_the_window_wakes_another_process_within_a_second(pg_database, launch, qtbot, type_text):
    seeded = Store.open(pg_database)
    memory_id = seeded.add(content="两边都开着").added[0]
    seeded.close()
    window = launch(pg_database)
    watcher = subprocess.Popen(
        [sys.executable, "-c", WATCHER, pg_database], stdout=subprocess.PIPE, text=True, cwd=str(ROOT)
    )
    try:
        assert watcher.stdout.readline().strip() == "ready"
        window.open_memory(memory_id)
        window.editor.form.content.selectAll()
        type_text(window.editor.form.content, "窗口里改的")
        window.editor.save()
        qtbot.waitUntil(lambda: not window.editor.saving and not window.editor.dirty, timeout=20000)
        saved_at = time.time()  # just after the commit, as the window saw it
        line = watcher.stdout.readline().split()
        assert line[1:] == [memory_id]  # the other process saw exactly this edit
        assert float(line[0]) - saved_at < 1.0  # woken by NOTIFY, not by a poll seconds later
    finally:
        watcher.kill()
        watcher.wait(10)
