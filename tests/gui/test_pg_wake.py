"""On a PostgreSQL server the window is woken by LISTEN/NOTIFY (gui/app/feed_wake.py), not by
polling: another process's commit shows without a poll (the fallback poll is ten minutes
away; how soon it shows is printed here and measured by bench/backends.py), an idle window reads nothing, a
stopped server neither spins the waker nor stops it, and the waker's thread and connection
end with the session. Every writer here is another process on the real throwaway server."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import psycopg
import pytest
from PySide6.QtCore import Qt

from memdesk.gui.app import session as session_module
from memdesk.gui.app.feed_wake import THREAD_NAME

pytestmark = pytest.mark.postgresql
ROOT = Path(__file__).resolve().parents[2]
LONG_MS = 10 * 60 * 1000  # a fallback poll that never comes during a test

WRITER = """
import sys, time
from memdesk.core.store import Store
store = Store.open(sys.argv[1])
print("ready", store.add(content="预热的记忆").added[0], flush=True)  # the first write loads the tokenizer
sys.stdin.readline()
with store.write():  # one transaction: its commit falls between the two times
    memory_id = store.add(content="另一台机器写的", title="远程").added[0]
    before = time.time()
after = time.time()
print(before, after, memory_id, flush=True)
store.close()
"""


def brief(window, memory_id):
    return window.browser.tree.model.tree.briefs.get(memory_id)


def shown_at(qtbot, condition, timeout=20000) -> float:
    """When ``condition`` first held (checked every ~10 ms while the event loop runs)."""
    seen: list[float] = []

    def check():
        if not seen and condition():
            seen.append(time.time())
        return bool(seen)

    qtbot.waitUntil(check, timeout=timeout)
    return seen[0]


def wakers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == THREAD_NAME]


def listeners(pg_server, url) -> int:
    """The LISTEN connections (PgWaiter's application_name) open on ``url``'s database."""
    with psycopg.connect(pg_server.admin_url, autocommit=True) as admin:
        sql = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'memdesk-listen' AND datname = %s"
        return admin.execute(sql, (url.rsplit("/", 1)[1],)).fetchone()[0]


@pytest.fixture
def long_fallback(monkeypatch):
    """The fallback poll out of the way: whatever reaches the window came through NOTIFY."""
    monkeypatch.setattr(session_module, "FEED_FALLBACK_MS", LONG_MS)


def start_writer(url):
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=str(ROOT)
    )
    word, warm = writer.stdout.readline().split()
    assert word == "ready"
    return writer, warm


def test_an_add_by_the_cli_shows_in_the_window_through_notify(pg_database, launch, qtbot, long_fallback):
    window = launch(pg_database)
    qtbot.waitUntil(lambda: window.session.feed.started, timeout=10000)  # the first poll has read
    cli = subprocess.Popen(
        [sys.executable, "-m", "memdesk", "--db", pg_database, "add", "--json", "--content", "命令行加的"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=str(ROOT),
    )
    printed: list[tuple[float, str]] = []

    def read():  # the CLI prints once it has committed; the event loop must run meanwhile
        first = cli.stdout.readline()
        printed.append((time.time(), first + cli.stdout.read()))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        tree = window.browser.tree.model.tree
        at = shown_at(qtbot, lambda: any(b.title == "命令行加的" for b in tree.briefs.values()))
        reader.join(60)
    finally:
        cli.kill()
        cli.wait(10)
    printed_at, out = printed[0]
    made = json.loads(out)
    assert brief(window, made["id"]) is not None
    # created_at is stamped inside the CLI's transaction, before its index work and commit: an upper bound
    stamped = datetime.fromisoformat(made["created_at"].replace("Z", "+00:00")).timestamp()
    print(
        f"\nshown {(at - printed_at) * 1000:.0f} ms after the CLI printed its commit, at most "
        f"{(at - stamped) * 1000:.0f} ms after it stamped the memory (no fallback poll for ten minutes)"
    )


def test_the_wake_up_comes_from_notify_not_the_fallback_poll(pg_database, launch, qtbot, long_fallback):
    window = launch(pg_database)
    session = window.session
    assert session.feed_waker is not None and session.feed_waker.running
    qtbot.waitUntil(lambda: session.feed.started, timeout=10000)  # woken once LISTENing: the first poll
    writer, warm = start_writer(pg_database)
    try:
        shown_at(qtbot, lambda: brief(window, warm) is not None)  # ten minutes before the fallback poll
        polls: list[str] = []  # the feed is read on the db lane (and nothing else runs there unasked)
        session.taskman.task_started.connect(lambda task: task.lane == "db" and polls.append(task.label))
        qtbot.wait(1500)
        assert polls == []  # idle, nobody writing: no feed read at all (the SQLite window reads it 4×/s)
        writer.stdin.write("go\n")
        writer.stdin.flush()
        before, after, memory_id = writer.stdout.readline().split()  # blocks the event loop: measured after
        at = shown_at(qtbot, lambda: brief(window, memory_id) is not None)
    finally:
        writer.kill()
        writer.wait(10)
    latency = at - float(after)
    print(
        f"\nwoken by NOTIFY: shown {latency * 1000:.0f} ms after the other process's commit returned "
        f"({(at - float(before)) * 1000:.0f} ms after the commit began)"
    )
    assert polls  # and it read the feed on the db lane, as always


def test_a_wake_up_while_the_db_lane_is_busy_polls_once_it_is_free(pg_database, launch, qtbot, long_fallback):
    window = launch(pg_database)
    session = window.session
    qtbot.waitUntil(lambda: session.feed.started, timeout=10000)
    writer, warm = start_writer(pg_database)
    try:
        shown_at(qtbot, lambda: brief(window, warm) is not None)
        # The db lane busy (as with a long save of ours) until the test lets it go: the
        # wake-up's poll cannot start meanwhile.
        gate = threading.Event()
        done = session.taskman.run(lambda cancel, progress: gate.wait(60), label="", lane="db", visible=False)
        freed: list[float] = []
        done.finished.connect(lambda: freed.append(time.time()))
        wakes: list[int] = []
        session.feed_waker.woken.connect(lambda: wakes.append(1), Qt.ConnectionType.QueuedConnection)
        writer.stdin.write("go\n")
        writer.stdin.flush()
        memory_id = writer.stdout.readline().split()[-1]
        qtbot.waitUntil(lambda: bool(wakes), timeout=10000)  # NOTIFY has woken the window
        assert not freed and brief(window, memory_id) is None  # the lane is still busy: not read yet
        gate.set()
        at = shown_at(qtbot, lambda: brief(window, memory_id) is not None, timeout=10000)
    finally:
        writer.kill()
        writer.wait(10)
    assert freed and at >= freed[0]  # read once the lane was free, not at the fallback poll


def test_a_stopped_server_neither_spins_the_waker_nor_stops_it(
    launch, pg_server, pg_database, cluster, qtbot, long_fallback
):
    window = launch(pg_database)
    waker = window.session.feed_waker
    qtbot.waitUntil(lambda: window.session.feed.started, timeout=10000)
    wakes: list[float] = []
    waker.woken.connect(lambda: wakes.append(time.monotonic()))
    cluster.stop("immediate")
    try:
        qtbot.waitUntil(lambda: window.connection_label.isVisible(), timeout=10000)
        del wakes[:]
        qtbot.wait(3000)
        assert 1 <= len(wakes) <= 6 and waker.running  # about one reconnect try a second, not a busy loop
    finally:
        cluster.start()
    qtbot.waitUntil(lambda: not window.connection_label.isVisible(), timeout=30000)
    qtbot.waitUntil(lambda: listeners(pg_server, pg_database) == 1, timeout=10000)
    writer, warm = start_writer(pg_database)  # LISTENing again: heard without the fallback poll
    try:
        shown_at(qtbot, lambda: brief(window, warm) is not None, timeout=10000)
    finally:
        writer.kill()
        writer.wait(10)


def settled(qtbot, window):
    """Before a switch: a window's own background work outliving it is another matter."""
    qtbot.waitUntil(lambda: window.browser.backend.engine_ready and window.session.feed.started, timeout=20000)
    qtbot.waitUntil(lambda: not window.browser.tree.building and not window.session.taskman.tasks(), timeout=20000)


def test_the_waker_thread_and_its_connection_end_with_the_session(pg_server, pg_database, launch, tmp_path, qtbot):
    window = launch(pg_database)
    app = window.app_controller
    qtbot.waitUntil(lambda: listeners(pg_server, pg_database) == 1, timeout=10000)
    assert len(wakers()) == 1
    settled(qtbot, window)
    app.switch_database(str(tmp_path / "local.db"), True)  # File → New database
    assert app.window.session.feed_waker is None  # SQLite: the 250 ms poll, no thread
    settled(qtbot, app.window)
    assert wakers() == []  # joined before the switch returned
    qtbot.waitUntil(lambda: listeners(pg_server, pg_database) == 0, timeout=5000)
    app.switch_database(pg_database)
    qtbot.waitUntil(lambda: listeners(pg_server, pg_database) == 1, timeout=10000)
    assert len(wakers()) == 1
    session = app.session
    app.window.close()
    session.close()  # what quitting does once the last window is closed (App.shutdown)
    assert wakers() == []
    qtbot.waitUntil(lambda: listeners(pg_server, pg_database) == 0, timeout=5000)
