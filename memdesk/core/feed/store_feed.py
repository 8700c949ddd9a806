"""The Store's change-feed half: what other connections and processes changed.

The triggers (SQLite: migrations v3; PostgreSQL: pg_schema) write a row to change_log for
every write to a memory or persona; these methods read it. ``data_version`` and
``wait_for_change`` say cheaply whether to read it at all (feed.py, feed_wait.py).
"""

from __future__ import annotations

import functools
import sqlite3
from typing import Any

from memdesk.core.domain.changes import Changes
from memdesk.core.storage import reconnect


def bound(method):
    """Point the models at this store's file before touching it.

    The models share one DatabaseProxy; the app uses one store at a time, but a
    second Store opened in the same process (tests, a backup preview) must not
    make the first one read the wrong file.
    """

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        self.bind()
        if self.is_postgres:  # a dropped connection is retried or reported (reconnect.py)
            return reconnect.call(self, method, args, kwargs)
        return method(self, *args, **kwargs)

    return wrapper


class ChangeFeed:
    """Mixed into Store, which sets these in its __init__ and provides bind() and write()."""

    _db: Any
    _target: Any
    _waiter: Any
    _writing: Any
    _connection_lost: bool
    _connection_listeners: list
    is_postgres: bool
    bind: Any
    write: Any

    @bound
    def data_version(self):
        """Changes when another connection commits (PRAGMA data_version). On PostgreSQL the
        server's transaction snapshot, which moves when any writing transaction starts or
        ends (read-only ones take no transaction id): a cheap "maybe", the feed says what."""
        if self.is_postgres:
            return self._db.execute_sql("SELECT pg_current_snapshot()::text").fetchone()[0]
        return self._db.execute_sql("PRAGMA data_version").fetchone()[0]

    def wait_for_change(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until another connection may have committed;
        True if so. PostgreSQL: LISTEN on the feed's channel (a connection of its own);
        SQLite: data_version, checked every 50 ms. For a poller's thread (one at a time):
        wake, then FeedReader.poll says what changed."""
        if self._waiter is None:
            from memdesk.core.feed.wait import waiter_for  # psycopg only for PostgreSQL stores

            self._waiter = waiter_for(self, self._target)
        return self._waiter.wait(timeout)

    def write_lock_held_elsewhere(self) -> bool:
        """Does another connection hold the write lock right now? Does not wait (a window asks
        this to say "waiting for another program" while its own write queues)."""
        self.bind()
        if self.is_postgres:
            return self._pg_lock_held_elsewhere()
        conn = self._db.connection()
        if conn.in_transaction:
            return False
        timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return True
        else:
            conn.execute("ROLLBACK")
            return False
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(timeout)}")

    def _pg_lock_held_elsewhere(self) -> bool:
        import peewee

        from memdesk.core.storage.pg_db import WRITE_LOCK

        try:
            conn = self._db.connection()
            if conn.in_transaction:
                return False
            if conn.execute("SELECT pg_try_advisory_lock(?)", (WRITE_LOCK,)).fetchone()[0]:
                conn.execute("SELECT pg_advisory_unlock(?)", (WRITE_LOCK,))
                return False
            return True
        except (peewee.OperationalError, peewee.InterfaceError):
            return False  # the server or the database is away: the write that follows says so

    @bound
    def change_marker(self) -> int:
        """The newest change-feed position; pass it to changes_since later."""
        return self._db.execute_sql("SELECT COALESCE(MAX(seq), 0) FROM change_log").fetchone()[0]

    @bound
    def changes_since(self, marker: int, *, limit: int = 50_000) -> tuple[int, Changes]:
        """Everything any process changed after ``marker`` (triggers write the feed).

        Returns the new marker and a Changes value; when more than ``limit``
        changes piled up, ``Changes.note`` is 'reload' and a view should rebuild.
        """
        rows = self._db.execute_sql(
            "SELECT seq, memory_id, kind FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?", (marker, limit + 1)
        ).fetchall()
        if not rows:
            return marker, Changes()
        if len(rows) > limit:
            return self.change_marker(), Changes(personas=True, note="reload")
        kinds: dict[str, list] = {"added": [], "updated": [], "purged": []}
        personas = False
        for _, memory_id, kind in rows:
            if kind == "personas":
                personas = True
            else:
                kinds[kind].append(memory_id)
        changes = Changes(
            added=tuple(dict.fromkeys(kinds["added"])),
            updated=tuple(dict.fromkeys(kinds["updated"])),
            purged=tuple(dict.fromkeys(kinds["purged"])),
            personas=personas,
        )
        return rows[-1][0], changes

    def prune_change_log(self, *, keep: int = 100_000) -> int:
        with self.write():
            newest = self._db.execute_sql("SELECT COALESCE(MAX(seq), 0) FROM change_log").fetchone()[0]
            return self._db.execute_sql("DELETE FROM change_log WHERE seq <= ?", (newest - keep,)).rowcount

    # ---- the server connection (PostgreSQL; reconnect.py) -----------------------------------
    @property
    def write_state(self):
        """This thread's write bookkeeping (depth; sent, committing, retrying for reconnect.py)."""
        return self._writing

    @property
    def connection_lost(self) -> bool:
        """PostgreSQL: the server connection dropped and no call has got through since."""
        return self._connection_lost

    def on_connection(self, listener) -> None:
        """PostgreSQL: ``listener(False)`` when the server connection is lost (calls wait and
        retry, reconnect.py), ``listener(True)`` when it is back. Called on the thread that
        noticed. SQLite: never called."""
        self._connection_listeners.append(listener)

    def connection_changed(self, connected: bool) -> None:
        """reconnect.py: the server was lost (False) or answers again (True); listeners hear of
        each change once."""
        if self._connection_lost != connected:
            return
        self._connection_lost = not connected
        for listener in list(self._connection_listeners):
            listener(connected)
