"""Connection faults on PostgreSQL, against a real server that the tests kill
(pg_ctl stop -m immediate: no shutdown, as in a crash) and start again.

A cluster of its own (the session's shared one must not die under other tests). Reads
wait and reconnect; a write in flight is reported and leaves nothing; an import killed
mid-way is wholly there or wholly absent, with its search index.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest
from pg_cluster import Cluster, find_bin

from memdesk.core.domain.errors import ConnectionLostError
from memdesk.core.storage.pg_db import WRITE_LOCK
from memdesk.core.store import Store

pytestmark = pytest.mark.postgresql
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster():
    bindir = find_bin()
    if bindir is None:
        pytest.skip("PostgreSQL fault tests skipped: no initdb/pg_ctl here (they kill their own server)")
    own = Cluster(bindir).start()
    yield own
    own.remove()


@pytest.fixture
def url(cluster, request):
    name = "faults_" + request.node.name.split("[")[0][-40:].lower()
    with psycopg.connect(cluster.url(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    return cluster.url(name)


def test_reads_reconnect_after_the_server_restarts(cluster, url):
    store = Store.open(url)
    try:
        memory_id = store.add(content="重启之前写的").added[0]
        cluster.restart("immediate")
        assert store.get(memory_id).content == "重启之前写的"  # the dropped connection replaced
        store.add(content="重启之后写的")  # writes work again too
        assert store.count() == 2
    finally:
        store.close()


def test_a_raw_read_on_a_thread_kept_connection_reconnects_after_a_restart(cluster, url):
    """The search index reads through store.connection() directly, not a Store method; a thread
    (the window's lanes) keeps its connection from task to task, so it may be a dropped one."""
    store = Store.open(url)
    try:
        store.add(content="重启之前写的")
        conn = store.connection()
        assert conn.execute("SELECT COUNT(*) FROM memory").fetchone()[0] == 1
        cluster.restart("immediate")
        assert conn.execute("SELECT COUNT(*) FROM memory").fetchone()[0] == 1
        assert store.connection().execute("SELECT COUNT(*) FROM memory").fetchone()[0] == 1
    finally:
        store.close()


def test_a_read_waits_while_the_server_is_down_and_answers_when_it_is_back(cluster, url):
    store = Store.open(url)
    heard = []
    lost = threading.Event()
    store.on_connection(lambda up: (heard.append(up), up or lost.set()))
    # The server comes back only once the store has said it is lost: the read below cannot
    # succeed without waiting for it.
    later = threading.Thread(target=lambda: lost.wait(60) and cluster.start())
    try:
        store.add(content="一条")
        cluster.stop("immediate")
        later.start()
        assert store.count() == 1  # it waited for the server, it did not fail
        assert heard == [False, True] and not store.connection_lost  # what the window's "reconnecting…" follows
    finally:
        if later.is_alive():
            later.join()  # a failure must not leave the server starting after the fixture removed it
        store.close()


def test_a_write_in_flight_when_the_server_dies_is_reported_and_leaves_nothing(cluster, url):
    store = Store.open(url)
    memory_id = store.add(content="已有").added[0]
    holder = psycopg.connect(url)  # locks the row: the edit below stops mid-transaction, its lock taken
    holder.execute("SELECT * FROM memory WHERE id = %s FOR UPDATE", (memory_id,))
    outcome: dict = {}

    def write():
        try:
            store.update(memory_id, expected_version=1, content="写到一半")
        except Exception as exc:  # noqa: BLE001 - the test inspects what came back
            outcome["error"] = exc

    writer = threading.Thread(target=write)
    writer.start()
    try:
        _wait_for(lambda: _waiting_on_a_lock(url), "the edit to wait for the row")
        cluster.restart("immediate")
        writer.join(30)
        error = outcome.get("error")
        assert isinstance(error, ConnectionLostError), error
        assert not error.maybe_saved and "it was not saved" in str(error)
        assert store.get(memory_id).content == "已有" and store.revisions(memory_id) == []
        store.update(memory_id, expected_version=1, content="之后改的")  # and the store works on
        assert store.get(memory_id).version == 2
    finally:
        holder.close()
        store.close()


def test_a_write_that_had_not_begun_is_run_once_the_server_is_back(cluster, url):
    """Waiting for the writers' lock, nothing written yet: the write is safe to run again."""
    store = Store.open(url)
    holder = psycopg.connect(url)
    holder.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
    outcome: dict = {}
    writer = threading.Thread(target=lambda: outcome.update(ids=store.add(content="等锁的写入").added))
    writer.start()
    try:
        _wait_for(lambda: _waiting_on_a_lock(url), "the write to wait for the lock")
        cluster.restart("immediate")
        writer.join(30)
        assert [m.content for m in store.list()] == ["等锁的写入"] and len(outcome["ids"]) == 1
    finally:
        holder.close()
        store.close()


def _waiting_on_a_lock(url) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT COUNT(*) FROM pg_locks WHERE NOT granted").fetchone()[0] > 0


def _wait_for(check, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _import_file(path: Path, n: int) -> Path:
    memories = [
        {"id": f"imp-{i:05d}", "content": f"导入的第 {i} 条：周三下午在杭州开会 {i % 37}", "tags": ["导入"]}
        for i in range(n)
    ]
    path.write_text(json.dumps({"memories": memories}, ensure_ascii=False), encoding="utf-8")
    return path


def _in_transaction_for(url: str, seconds: float) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT EXTRACT(EPOCH FROM now() - xact_start) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = 'memdesk' AND xact_start IS NOT NULL "
            "ORDER BY xact_start LIMIT 1"
        ).fetchone()
    return row is not None and float(row[0]) >= seconds


def _kill_during_import(cluster, url, file: Path, n: int, after: float) -> tuple[int, str, int]:
    Store.open(url).close()
    child = subprocess.Popen(
        [sys.executable, "-m", "memdesk", "--db", url, "import", str(file)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for(lambda: _in_transaction_for(url, after) or child.poll() is not None, "the import's transaction", 120)
    cluster.restart("immediate")
    _out, err = child.communicate(timeout=120)
    store = Store.open(url)
    try:
        count = store.count(state="all")
        docs = store.connection().execute("SELECT COUNT(*) FROM search_doc").fetchone()[0]
        assert count in (0, n), f"half an import: {count} of {n}"
        assert docs == count  # the index is the store's, all or nothing with it
        if count == 0:
            store.add(content="重启后还能写")  # and the store works after it
    finally:
        store.close()
    return count, err, child.returncode


def test_an_import_killed_mid_way_is_wholly_absent_and_says_so(cluster, url, tmp_path):
    n = 1500
    count, err, code = _kill_during_import(cluster, url, _import_file(tmp_path / "in.json", n), n, after=0.3)
    assert count == 0, "the import finished before the kill: make the file bigger"
    assert code == 1
    assert "memdesk: error:" in err and "Traceback" not in err


@pytest.mark.slow
def test_imports_killed_at_many_moments_are_all_or_nothing(cluster, tmp_path):
    n = 1500
    file = _import_file(tmp_path / "in.json", n)
    outcomes = []
    for i, after in enumerate((0.0, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0)):
        name = f"faults_many_{i}"
        with psycopg.connect(cluster.url(), autocommit=True) as admin:  # each kill ends the last one
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
        outcomes.append(_kill_during_import(cluster, cluster.url(name), file, n, after)[0])
    assert set(outcomes) <= {0, n}
    print("import outcomes (memories present after each kill):", outcomes)
