"""The Store's change-feed half: what other connections and processes changed.

The triggers (SQLite: migrations v3; PostgreSQL: pg_schema) write a row to change_log for
every write to a memory or persona; these methods read it. ``data_version`` and
``wait_for_change`` say cheaply whether to read it at all (feed.py, feed_wait.py).
"""

from __future__ import annotations

import functools
from typing import Any

from .changes import Changes


def _bound(method):
    """Point the models at this store's file before touching it.

    The models share one DatabaseProxy; the app uses one store at a time, but a
    second Store opened in the same process (tests, a backup preview) must not
    make the first one read the wrong file.
    """

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        self.bind()
        if self._reconnect is None:
            return method(self, *args, **kwargs)
        return self._reconnect.call(method, args, kwargs)  # PostgreSQL: a dropped connection (reconnect.py)

    return wrapper


class ChangeFeed:
    """Mixed into Store, which sets these in its __init__ and provides bind() and write()."""

    _db: Any
    _target: Any
    _waiter: Any
    _reconnect: Any
    is_postgres: bool
    bind: Any
    write: Any

    @_bound
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
            from .feed_wait import waiter_for  # psycopg only for PostgreSQL stores

            self._waiter = waiter_for(self, self._target)
        return self._waiter.wait(timeout)

    @_bound
    def change_marker(self) -> int:
        """The newest change-feed position; pass it to changes_since later."""
        return self._db.execute_sql("SELECT COALESCE(MAX(seq), 0) FROM change_log").fetchone()[0]

    @_bound
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
