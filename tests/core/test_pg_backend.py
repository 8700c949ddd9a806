"""What only PostgreSQL has: its schema (generated, and equal to SQLite's), the version check,
concurrent openers, NOTIFY wake-ups, passwords kept out of every message, clear connection
errors, export backups. Runs against a real server (pg_plugin.py); skipped without one."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from memdesk.core.domain.errors import DatabaseUnavailableError, SchemaTooNewError
from memdesk.core.feed.reader import FeedReader
from memdesk.core.storage import migrations, pg_schema
from memdesk.core.storage.location import redact
from memdesk.core.storage.migrations import LATEST_VERSION
from memdesk.core.store import Store

pytestmark = pytest.mark.postgresql


def _columns_pg(url: str) -> dict[str, list[str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
            "ORDER BY table_name, column_name"
        ).fetchall()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(table, []).append(column)
    return out


def _columns_sqlite(path) -> dict[str, list[str]]:
    conn = sqlite3.connect(path)
    names = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    tables = [t for (t,) in names if t != "sqlite_sequence"]
    out = {t: sorted(row[1] for row in conn.execute(f'PRAGMA table_info("{t}")')) for t in tables}
    conn.close()
    return out


def test_the_generated_schema_has_the_tables_and_columns_of_a_migrated_sqlite_file(pg_database, tmp_path):
    Store.open(tmp_path / "m.db").close()
    sqlite_side = _columns_sqlite(tmp_path / "m.db")
    pg_side = _columns_pg(pg_database)
    assert pg_side.pop(pg_schema.VERSION_TABLE) == ["version"]
    pg_side["memory"].remove("rowid")  # SQLite's implicit rowid, made explicit
    assert pg_side == sqlite_side


def test_every_sqlite_migration_after_the_baseline_has_its_postgresql_step():
    later = [v for v, _ in migrations.MIGRATIONS if v > pg_schema.BASELINE]
    assert later == [v for v, _ in pg_schema.STEPS]
    assert (pg_schema.STEPS[-1][0] if pg_schema.STEPS else pg_schema.BASELINE) == LATEST_VERSION


def test_a_newer_schema_is_refused_and_left_alone(pg_database):
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f"UPDATE {pg_schema.VERSION_TABLE} SET version = %s", (LATEST_VERSION + 1,))
    with pytest.raises(SchemaTooNewError, match="the database was not changed") as err:
        Store.open(pg_database)
    assert err.value.found == LATEST_VERSION + 1
    with psycopg.connect(pg_database) as conn:
        assert conn.execute(f"SELECT version FROM {pg_schema.VERSION_TABLE}").fetchone()[0] == LATEST_VERSION + 1


def test_a_database_with_foreign_tables_named_like_ours_is_refused(pg_server):
    url = pg_server.url(pg_server.new_database(empty=True))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE memory (x int)")
    with pytest.raises(Exception, match="not a MemDesk store"):
        Store.open(url)


def test_concurrent_openers_of_an_empty_database_create_the_schema_once(pg_server):
    url = pg_server.url(pg_server.new_database(empty=True))

    def open_and_add(n):
        store = Store.open(url)
        try:
            return store.add(content=f"记忆 {n}").added[0]
        finally:
            store.close()

    with ThreadPoolExecutor(6) as pool:
        ids = list(pool.map(open_and_add, range(6)))
    store = Store.open(url)
    assert sorted(m.id for m in store.list()) == sorted(ids)
    store.close()


def test_writers_on_two_connections_keep_the_index_equal_to_a_rebuild(pg_database):
    from tests.core.search.test_search_persistent import assert_equals_rebuild

    first, second = Store.open(pg_database), Store.open(pg_database)
    ids = first.add_many([{"content": f"喜欢喝咖啡 {i}", "tags": ["咖啡"]} for i in range(30)]).added

    def churn(store, offset):
        for i in range(offset, 30, 2):
            store.update(ids[i], expected_version=None, content=f"改成绿茶 {i}")
            store.add(content=f"杭州西湖 {i}", group="生活")

    threads = [threading.Thread(target=churn, args=(s, k)) for k, s in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert first.count() == 60
    assert_equals_rebuild(first)
    first.close()
    second.close()


def test_a_write_elsewhere_wakes_a_waiting_reader(pg_database):
    """Woken by NOTIFY: a PostgreSQL waiter does not poll, so it returns True only when told.
    How soon it wakes is measured by bench/backends.py (the wake-up delay)."""
    mine, other = Store.open(pg_database), Store.open(pg_database)
    reader = FeedReader(mine)
    reader.poll()
    assert reader.wait(0.2) is False  # nothing happened; the reader LISTENs from now on
    other.add(content="另一台机器写的")  # its NOTIFY waits on the listening connection
    assert reader.wait(60) is True
    changes, _ = reader.poll()
    assert len(changes.added) == 1
    mine.close()
    other.close()


def test_the_password_never_shows_in_repr_location_or_errors(pg_server):
    url = pg_server.url(pg_server.new_database())
    secret_url = url.replace("postgres@", "postgres:s3cret-pw@")  # trust auth: the password is unused
    store = Store.open(secret_url)
    assert "s3cret" not in repr(store) and "s3cret" not in store.location
    assert store.location == redact(secret_url) and ":***@" in store.location
    store.close()
    missing = secret_url.rsplit("/", 1)[0] + "/no_such_db?sslmode=disable&password=s3cret-pw"
    with pytest.raises(DatabaseUnavailableError) as err:
        Store.open(missing)
    assert err.value.kind == "missing" and "s3cret" not in str(err.value) and "\n" not in str(err.value)


def test_unreachable_server_is_one_clear_line():
    with pytest.raises(DatabaseUnavailableError) as err:
        Store.open("postgresql://someone:pw123@127.0.0.1:9/db?connect_timeout=3")
    assert err.value.kind == "unreachable"
    assert "pw123" not in str(err.value) and "\n" not in str(err.value)


@pytest.fixture
def password_role(pg_server):
    if pg_server.cluster is None:
        pytest.skip("needs the throwaway cluster (its pg_hba.conf is changed)")
    pg_server.execute("DROP ROLE IF EXISTS memdesk_pw")
    pg_server.execute("CREATE ROLE memdesk_pw LOGIN SUPERUSER PASSWORD 'right-horse'")  # owns nothing
    pg_server.cluster.require_password("memdesk_pw")
    name = pg_server.new_database()
    yield pg_server.url(name).replace("postgres@", "memdesk_pw@")
    pg_server.drop(name)


def test_libpq_password_sources_work_and_bad_ones_say_what_to_do(password_role, tmp_path, monkeypatch):
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
    with pytest.raises(DatabaseUnavailableError) as err:
        Store.open(password_role)
    assert err.value.kind == "password" and "PGPASSWORD" in str(err.value)
    with pytest.raises(DatabaseUnavailableError) as err:
        Store.open(password_role.replace("memdesk_pw@", "memdesk_pw:wrong-horse@"))
    assert err.value.kind == "auth" and "wrong-horse" not in str(err.value)
    monkeypatch.setenv("PGPASSWORD", "right-horse")
    Store.open(password_role).close()
    monkeypatch.delenv("PGPASSWORD")
    passfile = tmp_path / "pgpass"
    passfile.write_text("127.0.0.1:*:*:memdesk_pw:right-horse\n")
    passfile.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(passfile))
    store = Store.open(password_role)
    assert store.add(content="经由 pgpass 登录").added
    store.close()


def _cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "memdesk", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONIOENCODING="utf-8", **(env or {})),
    )


def test_cli_connection_errors_are_one_line_without_the_password():
    done = _cli("--db", "postgresql://me:pw-xyz@127.0.0.1:9/db?connect_timeout=3", "list")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "pw-xyz" not in done.stderr and "me:***@127.0.0.1:9/db" in done.stderr


def test_backup_make_writes_an_export_and_list_shows_it(pg_database, tmp_path):
    store = Store.open(pg_database)
    store.add(content="要备份的记忆")
    store.close()
    env = {"MEMDESK_BACKUP_DIR": str(tmp_path)}
    made = _cli("--db", pg_database, "backup", "make", env=env)
    assert made.returncode == 0, made.stderr
    assert "MemDesk export" in made.stderr
    path = made.stdout.split("backed up to ", 1)[1].strip()
    assert '"要备份的记忆"' in open(path, encoding="utf-8").read()
    listed = _cli("--db", pg_database, "backup", "list", env=env)
    assert path in listed.stdout
    refused = _cli("--db", pg_database, "backup", "restore", "1", "--yes", env=env)
    assert refused.returncode == 1 and "import FILE" in refused.stderr


@pytest.fixture
def own_cluster(pg_server):
    if pg_server.cluster is None:
        pytest.skip("needs the throwaway cluster (the test restarts the server)")
    return pg_server.cluster


def test_a_restarted_server_is_reconnected_and_a_write_in_flight_is_whole_or_absent(
    own_cluster, pg_database, monkeypatch
):
    from memdesk.core.domain.errors import ConnectionLostError
    from memdesk.core.writes import memories as memory_writes

    store = Store.open(pg_database)
    kept = store.add(content="重启之前写的").added[0]
    reader = FeedReader(store)
    reader.poll()
    own_cluster.restart("immediate")  # like a crash: no shutdown checkpoint
    assert store.get(kept).content == "重启之前写的"  # a read: retried on a fresh connection
    own_cluster.restart("immediate")
    after = store.add(content="重启之后写的").added[0]  # failed at BEGIN, nothing sent: retried
    assert store.get(after).content == "重启之后写的"

    real_add = memory_writes.add

    def add_then_crash(fields):
        changes = real_add(fields)  # the row is written inside the open transaction
        own_cluster.restart("immediate")
        return changes

    monkeypatch.setattr(memory_writes, "add", add_then_crash)
    with pytest.raises(ConnectionLostError, match="whole or not at all"):
        store.add(content="写到一半服务器重启")
    monkeypatch.undo()
    assert sorted(m.content for m in store.list()) == ["重启之前写的", "重启之后写的"]  # absent, whole
    changes, _ = reader.poll()  # the feed reader's own connection reconnects too
    assert changes.added == (after,)
    store.close()


def test_memdesk_db_may_hold_a_url_and_postgres_scheme_is_accepted(pg_database, monkeypatch):
    monkeypatch.setenv("MEMDESK_DB", pg_database.replace("postgresql://", "postgres://"))
    store = Store.open()
    assert store.is_postgres and store.path is None
    assert store.location == pg_database  # shown in the canonical spelling
    store.add(content="经由环境变量")
    store.close()
    listed = _cli("list", "--json", env={"MEMDESK_DB": pg_database})
    assert listed.returncode == 0 and "经由环境变量" in listed.stdout
