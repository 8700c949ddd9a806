"""The PostgreSQL half of the tests: a real server, never a stand-in.

MEMDESK_TEST_PG (a URL to a server where we may create databases) is used when set;
otherwise, when PostgreSQL's initdb/pg_ctl are installed, a throwaway cluster is started
for the session (pg_cluster.py) and stopped at the end. Without either, the PostgreSQL
tests are skipped, and the run's summary says so in a line of its own.

Tests under tests/core (and modules marked ``both_backends``, e.g. the window following
other processes' edits) that use the ``store`` / ``db_path`` fixtures run once per
backend (ids [sqlite] and [postgresql]; select one with -m postgresql / -m "not
postgresql"). A test about the SQLite file itself is marked ``sqlite_only`` and runs
on SQLite alone. Each PostgreSQL test gets a fresh database, copied from a template that
already holds the schema (CREATE DATABASE … TEMPLATE: ~20 ms, against ~90 ms to create
the schema; dropped after the test).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from pg_cluster import Cluster, find_bin

TEMPLATE = "memdesk_test_template"
PG_DIRS = ("core",)  # test folders whose store tests run on both backends
_skip_reason: list[str] = []


def pytest_configure(config):
    config.addinivalue_line("markers", "postgresql: runs against a real PostgreSQL server")
    config.addinivalue_line("markers", "sqlite_only: about the SQLite file itself; not run on PostgreSQL")
    config.addinivalue_line("markers", "both_backends: a module outside tests/core that runs on PostgreSQL too")


def _runs_on_both(item_path: Path) -> bool:
    parts = item_path.parts
    return "tests" in parts and parts[parts.index("tests") + 1] in PG_DIRS


def pytest_generate_tests(metafunc):
    if "backend" not in metafunc.fixturenames:
        return
    params = ["sqlite"]
    node = metafunc.definition
    wanted = _runs_on_both(Path(str(node.path))) or node.get_closest_marker("both_backends")
    if wanted and not node.get_closest_marker("sqlite_only"):
        params.append(pytest.param("postgresql", marks=pytest.mark.postgresql))
    metafunc.parametrize("backend", params, indirect=True)


class Server:
    """Where the PostgreSQL tests get their databases."""

    def __init__(self, admin_url: str, cluster: Cluster | None):
        import psycopg

        self.admin_url, self.cluster = admin_url, cluster
        self.admin = psycopg.connect(admin_url, autocommit=True)
        self.counter = itertools.count()
        self.prefix = f"memdesk_t{os.getpid()}_"

    def url(self, dbname: str) -> str:
        base, _, _ = self.admin_url.rpartition("/")
        return f"{base}/{dbname}"

    def make_template(self) -> None:
        from memdesk.core.store import Store

        self.admin.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
        self.admin.execute(f'CREATE DATABASE "{TEMPLATE}"')
        Store.open(self.url(TEMPLATE)).close()

    def execute(self, sql: str) -> None:
        """On the admin connection; made again if a test restarted the server."""
        import psycopg

        if self.admin.closed:
            self.admin = psycopg.connect(self.admin_url, autocommit=True)
        try:
            self.admin.execute(sql)
        except psycopg.OperationalError:
            self.admin = psycopg.connect(self.admin_url, autocommit=True)
            self.admin.execute(sql)

    def new_database(self, *, empty: bool = False) -> str:
        name = f"{self.prefix}{next(self.counter)}"
        source = "template0" if empty else TEMPLATE
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{source}"')
        return name

    def drop(self, name: str) -> None:
        self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        try:
            self.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
        finally:
            self.admin.close()
            if self.cluster is not None:
                self.cluster.remove()


@pytest.fixture(scope="session")
def pg_server():
    if _skip_reason:
        pytest.skip(_skip_reason[0])
    url = os.environ.get("MEMDESK_TEST_PG")
    cluster = None
    if not url:
        bindir = find_bin()
        if bindir is None:
            _skip_reason.append(
                "PostgreSQL tests skipped: no server (set MEMDESK_TEST_PG to a URL, or install the "
                "postgresql package so initdb/pg_ctl can start a throwaway cluster)"
            )
            pytest.skip(_skip_reason[0])
        cluster = Cluster(bindir).start()
        url = cluster.url()
    server = Server(url, cluster)
    try:
        server.make_template()
    except BaseException:
        server.close()
        raise
    yield server
    server.close()


@pytest.fixture
def pg_database(pg_server):
    """A fresh database holding the MemDesk schema: its URL."""
    name = pg_server.new_database()
    yield pg_server.url(name)
    pg_server.drop(name)


@pytest.fixture
def backend(request):
    return getattr(request, "param", "sqlite")


def pytest_terminal_summary(terminalreporter):
    if _skip_reason:
        terminalreporter.write_line(_skip_reason[0], yellow=True)
