"""Waiting for another process's commit: the "wake up" half of following the change feed.

A window polls the feed (feed.FeedReader.poll) when woken, and at the latest every
few seconds. On PostgreSQL the feed's trigger sends NOTIFY on pg_schema.CHANNEL at
commit, so a LISTEN connection wakes within milliseconds, across machines; on SQLite
the waiter watches PRAGMA data_version. Either way the feed table stays the truth: a
wake-up only says "poll now" (a missed or spurious one costs one poll).
"""

from __future__ import annotations

import time
from typing import Any

POLL_S = 0.05


class SqliteWaiter:
    def __init__(self, store):
        self.store = store

    def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        seen = self.store.data_version()
        while time.monotonic() < deadline:
            time.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))
            if self.store.data_version() != seen:
                return True
        return False

    def close(self) -> None:
        pass


class PgWaiter:
    """A LISTEN connection of its own (autocommit; peewee's per-thread ones run transactions).
    Reconnects on the next wait after a dropped connection."""

    def __init__(self, url: str):
        self.url = url
        self.conn: Any = None

    def _listen(self):
        import psycopg

        from .pg_schema import CHANNEL

        if self.conn is None or self.conn.closed:
            self.conn = psycopg.connect(self.url, autocommit=True, application_name="memdesk-listen")
            self.conn.execute(f"LISTEN {CHANNEL}")
        return self.conn

    def wait(self, timeout: float) -> bool:
        import psycopg

        try:
            for _ in self._listen().notifies(timeout=timeout, stop_after=1):
                return True
        except psycopg.OperationalError:
            self.close()
            time.sleep(min(timeout, 1.0))  # not a busy loop while the server is down
            return True  # let the poll find out (and report) what happened
        return False

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def waiter_for(store, target):
    return PgWaiter(str(target)) if store.is_postgres else SqliteWaiter(store)
