"""Shared test set-up: offscreen Qt, and a fresh store per test: a SQLite file, and for
tests under tests/core a PostgreSQL database too (pg_plugin.py: the `backend` param)."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MEMDESK_MODELS_DIR", str(Path(__file__).parent / ".no-models"))

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest_plugins = ["pg_plugin"]


@pytest.fixture
def db_path(tmp_path, backend, request):
    """Where the test's store lives: a file path, or a PostgreSQL URL (a fresh database)."""
    if backend == "postgresql":
        return request.getfixturevalue("pg_database")
    return tmp_path / "memdesk.db"


@pytest.fixture
def store(db_path):
    from memdesk.core.store import Store

    s = Store.open(db_path)
    yield s
    s.close()


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    """fuzz_store(name) -> (Store, folder): one store per name, shared by a fuzz test's
    examples (opening a file per example is the slow part), closed after the module."""
    from memdesk.core.store import Store

    stores = {}

    def get(name):
        if name not in stores:
            folder = tmp_path_factory.mktemp(name)
            stores[name] = (Store.open(folder / "f.db"), folder)
            stores[name][0].add(content="已有的记忆")
        return stores[name]

    yield get
    for opened, _folder in stores.values():
        opened.close()
