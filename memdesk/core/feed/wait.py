"""Waiting for another process's commit: the "wake up" half of following the change feed.

A window polls the feed (feed.FeedReader.poll) when woken, and at the latest every
few seconds. On PostgreSQL the feed's trigger sends NOTIFY on pg_schema.CHANNEL at
commit, so a LISTEN connection wakes within milliseconds, across machines; on SQLite
the waiter watches PRAGMA data_version. Either way the feed table stays the truth: a
wake-up only says "poll now" (a missed or spurious one costs one poll).

``cancel`` may be called from any thread: it ends the wait in progress and every later
one at once, so the thread blocked in ``wait`` can be joined (a window closing).
"""

from __future__ import annotations

import select
import socket
import threading
import time
from typing import Any

from memdesk.core.storage.location import normalise_url

POLL_S = 0.05
# The LISTEN connection sits idle for hours: keepalives notice a peer (or a NAT) that
# forgot it, which no notification would ever arrive through; the URL's own win.
_LISTEN_PARAMS = {"connect_timeout": 10, "keepalives_idle": 60, "keepalives_interval": 10, "keepalives_count": 3}


class SqliteWaiter:
    def __init__(self, store):
        self.store = store
        self._cancelled = threading.Event()

    def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        seen = self.store.data_version()
        while time.monotonic() < deadline:
            if self._cancelled.wait(min(POLL_S, max(0.0, deadline - time.monotonic()))):
                return False
            if self.store.data_version() != seen:
                return True
        return False

    def cancel(self) -> None:
        self._cancelled.set()

    def close(self) -> None:
        pass


class PgWaiter:
    """A LISTEN connection of its own (autocommit; peewee's per-thread ones run transactions).
    Reconnects on the next wait after a dropped connection."""

    def __init__(self, url: str):
        self.url = normalise_url(url)
        self.conn: Any = None
        self._lost = False  # the connection dropped (or never came): the next LISTEN says "poll now"
        self._cancelled = threading.Event()
        # select() wakes on this pair too, for cancel; sockets, as select() on Windows takes no pipes
        self._wake_r, self._wake_w = socket.socketpair()

    def _listen(self) -> bool:
        """Connect and LISTEN unless connected; True if that replaced a lost connection: a
        commit in between was not heard, so the caller should poll once. (The first LISTEN
        says nothing: its caller polls after it, or before, as it knows best.)"""
        import psycopg

        from memdesk.core.storage.pg_schema import CHANNEL

        if self.conn is not None and not self.conn.closed:
            return False
        params: dict[str, Any] = {k: v for k, v in _LISTEN_PARAMS.items() if k not in self.url}
        self.conn = psycopg.connect(self.url, autocommit=True, application_name="memdesk-listen", **params)
        self.conn.execute(f"LISTEN {CHANNEL}")
        lost, self._lost = self._lost, False
        return lost

    def _heard(self) -> bool:
        """A notification already received (read without blocking)? The rest of a burst is
        dropped with the generator: one poll covers them all."""
        for _ in self.conn.notifies(timeout=0, stop_after=1):
            return True
        return False

    def wait(self, timeout: float) -> bool:
        import psycopg

        try:
            if self._cancelled.is_set():
                return False
            if self._listen() or self._heard():
                return True
            ready, _, _ = select.select([self.conn.fileno(), self._wake_r], [], [], timeout)
            return self._wake_r not in ready and bool(ready) and self._heard()
        except psycopg.OperationalError:  # the server went away (or is not back yet)
            self._drop()
            self._lost = True
            # not a busy loop while the server is down; then let the poll find out (and report) what happened
            return not self._cancelled.wait(min(timeout, 1.0))

    def cancel(self) -> None:
        self._cancelled.set()
        try:
            self._wake_w.send(b"x")
        except OSError:  # closed already: nobody is waiting
            pass

    def _drop(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def close(self) -> None:
        """After the last wait has returned (the connection is the waiting thread's)."""
        self._drop()
        self._wake_r.close()
        self._wake_w.close()


def waiter_for(store, target):
    """A new waiter; its owner calls close() (Store.wait_for_change keeps one per store)."""
    return PgWaiter(str(target)) if store.is_postgres else SqliteWaiter(store)
