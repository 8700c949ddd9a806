"""WAL checkpoints run in a thread of their own after commits (core/storage/checkpoint.py), not
inside the commit, and never stop an import from forking its workers."""

from __future__ import annotations

import sqlite3
import threading
import time

from memdesk.core.search.index.parallel import can_fork
from memdesk.core.storage import checkpoint
from memdesk.core.store import Store


def _log_frames(path) -> int:
    """Frames in the write-ahead log (a PASSIVE checkpoint reports them; it copies nothing
    new when the log was checkpointed already)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    finally:
        conn.close()


def test_the_first_commit_starts_a_checkpoint_and_the_next_wait_their_turn(tmp_path, monkeypatch):
    db_path = tmp_path / "m.db"  # a SQLite file: PostgreSQL has no write-ahead log of ours
    store = Store.open(db_path)
    try:
        writers_own = store.connection().execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        assert writers_own == checkpoint.BACKSTOP_PAGES  # a commit checkpoints itself only past this
        store.add(content="第一条")
        checkpoint.settle()
        assert store._checkpoints.done == 1
        for i in range(5):  # within the interval: no new thread
            store.add(content=f"又一条 {i}")
        checkpoint.settle()
        assert store._checkpoints.done == 1
        monkeypatch.setattr(checkpoint, "INTERVAL_S", 0.0)
        store.add(content="间隔过后")
        checkpoint.settle()
        assert store._checkpoints.done == 2
    finally:
        store.close()


def test_a_checkpoint_copies_the_log_into_the_file_while_the_writer_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoint, "INTERVAL_S", 0.0)
    db_path = tmp_path / "m.db"  # a SQLite file: PostgreSQL has no write-ahead log of ours
    store = Store.open(db_path)
    try:
        with store.write():
            for i in range(300):
                store.add(content=f"很长的一条记忆，第 {i} 条：" + "内容" * 200)
        checkpoint.settle()
        # The next writer starts the log afresh; its frames are all that is left in it.
        store.add(content="之后的一条")
        checkpoint.settle()
        assert _log_frames(db_path) < 100
        assert store.count(state="all") == 301
    finally:
        store.close()


def test_a_write_just_before_an_import_leaves_it_free_to_fork(tmp_path, monkeypatch):
    """The checkpoint thread a commit starts is waited for, not counted against forking."""
    real_run = checkpoint.Checkpoints._run

    def slow_run(self):  # the real checkpoint, on a slow disk: still under way when the import looks
        time.sleep(0.3)
        real_run(self)

    monkeypatch.setattr(checkpoint.Checkpoints, "_run", slow_run)
    db_path = tmp_path / "m.db"  # a SQLite file: PostgreSQL has no write-ahead log of ours
    store = Store.open(db_path)
    try:
        store.add(content="导入之前的一条")
        assert threading.active_count() == 2
        assert can_fork()
        assert store._checkpoints.done == 1  # it waited for the checkpoint to finish
    finally:
        store.close()
