"""WAL checkpoints off the write path.

By default SQLite checkpoints inside the commit that leaves more than 1,000 pages in
the write-ahead log: that writer copies them into the database file and syncs it
before its commit returns. At 100k memories one edit in ten paid ~20 ms for that.
Here, after a commit, a short-lived thread with a connection of its own runs a
PASSIVE checkpoint (it never waits for readers or writers, nor blocks them), at most
one at a time and one a second, so the log holds about a second of writes.

bench/write_speed.py at 100k, the same hour (p95, ms): edit 24.1 -> 7.3, tool save
12.7 -> 8.5, add 26.9 -> 20.4. Checking the log's size first instead of the clock
needs journal_size_limit = 0 for the size to mean anything, and a log that is
truncated and grown again costs every commit's fsync more (p50 +30%).

Writers keep an automatic checkpoint of their own, at ten times SQLite's size, for a
process whose thread could not keep up (a reader holding an old snapshot). The
thread lives only while it checkpoints: core/search/index/parallel.py forks workers only from a
process with one thread, and waits for these (settle) before it looks.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)

BACKSTOP_PAGES = 10_000  # wal_autocheckpoint: writers checkpoint themselves past this (SQLite: 1,000)
INTERVAL_S = 1.0  # at most one checkpoint in this time

_running: set[threading.Thread] = set()  # of every store in the process
_running_lock = threading.Lock()


def settle() -> None:
    """Wait for the checkpoints under way in this process (milliseconds, as a rule)."""
    with _running_lock:
        threads = list(_running)
    for thread in threads:
        thread.join()


class Checkpoints:
    """Checkpoints of one SQLite file, each in a thread of its own; one at a time."""

    def __init__(self, path: Path):
        self._path = str(path)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._last = float("-inf")
        self.done = 0  # checkpoints run (tests read it)

    def after_commit(self) -> None:
        """Start a checkpoint unless one is under way or ran less than INTERVAL_S ago."""
        with self._lock:
            if self._thread is not None or time.monotonic() - self._last < INTERVAL_S:
                return
            self._last = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="memdesk-checkpoint", daemon=True)
            with _running_lock:
                _running.add(self._thread)
            self._thread.start()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self._path, timeout=0, isolation_level=None)
            try:
                busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            finally:
                conn.close()
            if busy or copied < frames:
                log.debug("checkpoint copied %s of %s frames", copied, frames)
        except sqlite3.Error as exc:  # the file went away or is locked: a later commit tries again
            log.debug("checkpoint failed: %s", exc)
        finally:
            with self._lock:
                self.done += 1
                self._last = time.monotonic()
                with _running_lock:
                    _running.discard(self._thread)
                self._thread = None

    def close(self) -> None:
        """Wait for a checkpoint under way (the file may be removed next)."""
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join()
