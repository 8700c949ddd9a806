"""The window asks for its store file to be read ahead once it has started (core/storage/page_cache.py)."""

from __future__ import annotations

import os
import sqlite3

import pytest

from memdesk.core.store import Store
from tests.page_residency import SUPPORTED, evict, resident


@pytest.mark.skipif(not SUPPORTED, reason="Linux only")
def test_the_window_reads_its_store_ahead_once_started(launch, db_path, qtbot):
    store = Store.open(db_path)
    store.add(content="周会", group="工作")
    store.close()
    # 24 MB the window itself never reads: only the read-ahead brings it into the cache.
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE padding (b BLOB)")
    conn.execute("INSERT INTO padding VALUES (?)", (os.urandom(24 << 20),))
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    evict(db_path)
    if resident(db_path) > 0.1:
        pytest.skip("this system keeps the pages cached: nothing to measure")
    window = launch(db_path)
    qtbot.waitUntil(lambda: resident(db_path) >= 0.95, timeout=10_000)
    assert window.browser.tree.model.tree.total("groups") == 1
