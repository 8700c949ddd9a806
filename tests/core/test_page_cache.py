"""core.page_cache: a store file read into the OS page cache ahead of the searches."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from memdesk.core.storage.page_cache import prefetch
from memdesk.core.store import Store
from tests.page_residency import SUPPORTED, evict, resident

pytestmark = pytest.mark.skipif(not SUPPORTED, reason="Linux only")


def assert_read_ahead(path):
    """Out of the cache, then read ahead: the whole file is there within seconds."""
    evict(path)
    if resident(path) > 0.1:
        pytest.skip("this system keeps the pages cached: nothing to measure")
    assert prefetch(path)
    deadline = time.monotonic() + 10
    while resident(path) < 0.95 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert resident(path) >= 0.95


def test_the_whole_file_is_read_ahead(tmp_path):
    # 48 MB: more than a kernel reads ahead for one call (8 MB on the machine this was made on)
    path = tmp_path / "store.db"
    with open(path, "wb") as f:
        f.write(os.urandom(1 << 20) * 48)
        f.flush()
        os.fsync(f.fileno())
    assert_read_ahead(path)


def test_nothing_is_asked_for_a_file_too_big_for_the_memory_available_or_no_file(tmp_path):
    path = tmp_path / "store.db"
    path.write_bytes(b"x" * 4096)
    assert not prefetch(path, share=0)
    assert not prefetch(None)  # a PostgreSQL store
    assert not prefetch(tmp_path / "missing.db")


def test_reading_ahead_keeps_this_process_s_locks_on_an_open_store(tmp_path):
    # Closing any descriptor of a file drops every POSIX lock the process holds on it: a
    # read-ahead that closed its own would leave SQLite's locks gone, and the next process to
    # close its connection would think it the last, checkpoint and delete the WAL in use here.
    path = tmp_path / "store.db"
    store = Store.open(path)
    try:
        store.add(content="周会在周一", group="工作")
        wal = path.with_name(path.name + "-wal")
        assert wal.exists()
        assert prefetch(path)
        other = (
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('SELECT count(*) FROM memory').fetchone(); c.close()"
        )
        subprocess.run([sys.executable, "-c", other, str(path)], check=True)
        assert wal.exists(), "another process found this one's locks gone and deleted the WAL"
        store.add(content="周二复盘", group="工作")
        assert len(store.list()) == 2
    finally:
        store.close()


def test_a_replaced_file_is_read_ahead_not_the_one_it_replaced(tmp_path):
    path = tmp_path / "store.db"
    path.write_bytes(os.urandom(1 << 20))
    assert prefetch(path)
    fresh = tmp_path / "restored.db"
    fresh.write_bytes(os.urandom(8 << 20))
    fresh.replace(path)  # as a restore from a backup does
    assert_read_ahead(path)
