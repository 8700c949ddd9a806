"""Following the change feed (``change_log``) from one reader, e.g. an open window.

The triggers log a row for every write to a memory, access-count touches
included, so the feed alone cannot say whether anything a person would see
changed. A FeedReader keeps a fingerprint of every memory's visible columns
(all but the access counters) and turns feed rows into a Changes value that
holds only memories whose fingerprint moved: added, updated, deleted (to the
trash), restored and purged.

The feed is pruned (maintenance keeps the newest rows); a reader whose
marker fell behind the oldest row kept cannot know what it missed, so its
poll says ``note="reload"`` and it starts over from a fresh snapshot.

Waking up: ``wait`` blocks until another process may have committed (LISTEN/NOTIFY
on PostgreSQL, data_version on SQLite; feed_wait.py), so a poller can sleep in it and
poll at once when woken, on its own thread (it touches no reader state).

Not thread-safe: one thread polls (the window uses its database lane, the
same thread that runs its own writes, so ``absorb`` after a write and the
next ``poll`` never interleave). No Qt here.
"""

from __future__ import annotations

import time

from memdesk.core.domain.changes import Changes
from memdesk.core.feed.prints import Prints

# Columns an assistant's search bumps: not something a person sees change.
UNSEEN = frozenset({"access_count", "mention_count", "last_access_at"})
RELOAD = "reload"
EXTERNAL = "external"


def _fingerprint(row) -> int:
    """The hash of a memory's visible columns, its lowest bit clear (Prints keeps the trash flag there)."""
    return hash(row[2:]) & ~1


class FeedReader:
    def __init__(self, store):
        self.store = store
        self.marker: int | None = None
        self.data_version: tuple[int, int] | None = None  # (our connection's id, its data_version)
        # id -> (hash of visible columns, in the trash); None until the first poll reads them all
        self._prints: Prints | None = None
        self._columns: list[str] | None = None

    # ---- reading ---------------------------------------------------------------------------------
    def _conn(self):
        return self.store.connection()

    def _select(self) -> str:
        if self._columns is None:
            if self.store.is_postgres:  # rowid: storage order, never changes
                sql = (
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                    "AND table_name = 'memory' AND column_name != 'rowid' ORDER BY ordinal_position"
                )
                names = [row[0] for row in self._conn().execute(sql)]
            else:
                names = [row[1] for row in self._conn().execute('PRAGMA table_info("memory")')]
            self._columns = [n for n in names if n not in UNSEEN and n != "id"]
        cols = ", ".join(f'"{c}"' for c in self._columns)
        return f'SELECT "id", "deleted_at", {cols} FROM "memory"'

    def fingerprints(self, ids) -> dict[str, tuple[int, bool]]:
        """id -> (fingerprint, in the trash) for ``ids``."""
        conn, sql, out = self._conn(), self._select(), {}
        ids = list(dict.fromkeys(ids))
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in conn.execute(f'{sql} WHERE "id" IN ({marks})', chunk):
                out[row[0]] = (_fingerprint(row), row[1] is not None)
        return out

    def all_fingerprints(self) -> Prints:
        """Every memory's (fingerprint, in the trash), kept compactly (feed_prints.py)."""

        def rows():
            for count, row in enumerate(self._conn().execute(self._select()), 1):
                yield row[0], _fingerprint(row), row[1] is not None
                if count % 2000 == 0:
                    time.sleep(0)  # every memory at a window's start: let its UI thread in between

        return Prints(rows)

    def _snapshot(self):
        """A read transaction: the feed position and the memories seen at one instant."""
        conn = self._conn()
        if conn.in_transaction:  # never inside someone's write
            return None
        # PostgreSQL's default (read committed) takes a snapshot per statement
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ" if self.store.is_postgres else "BEGIN")
        return conn

    @staticmethod
    def _end(conn) -> None:
        if conn is not None and conn.in_transaction:
            conn.execute("COMMIT")

    def begin_at(self, marker: int) -> None:
        """Read the feed from ``marker`` on (taken before the views' first read, so nothing
        falls between). The fingerprints are read by the first poll, off the UI thread; what
        the feed holds between ``marker`` and that read is reported as updated."""
        self.marker, self.data_version, self._prints = marker, None, None

    @property
    def started(self) -> bool:
        return self._prints is not None

    def _pruned(self) -> bool:
        """Were rows after our marker pruned away (so we cannot know what they said)?"""
        assert self.marker is not None  # poll() begins before it asks
        conn = self._conn()
        oldest = conn.execute("SELECT MIN(seq) FROM change_log").fetchone()[0]
        if oldest is not None:
            return oldest > self.marker + 1
        if self.store.is_postgres:
            sql = "SELECT pg_sequence_last_value(pg_get_serial_sequence('change_log', 'seq'))"
        else:
            sql = "SELECT seq FROM sqlite_sequence WHERE name = 'change_log'"
        row = conn.execute(sql).fetchone()
        return bool(row) and row[0] is not None and row[0] > self.marker

    def absorb(self, ids) -> None:
        """This reader's own process just wrote ``ids`` (and told its views): take their new
        fingerprints so the next poll does not report them again."""
        if self._prints is not None and ids:  # started
            ids = list(ids)
            fresh = self.fingerprints(ids)
            for memory_id in ids:
                if memory_id in fresh:
                    self._prints[memory_id] = fresh[memory_id]
                else:
                    self._prints.pop(memory_id, None)

    def poll(self) -> tuple[Changes, bool] | None:
        """What others changed since the last poll: (Changes, anything else written?) or None
        when nobody committed. Changes holds only memories whose visible columns moved;
        ``note`` is "reload" when the feed was pruned past our marker."""
        if self.marker is None:
            self.begin_at(self.store.change_marker())
        # data_version counts other connections' commits per connection: key it by ours (a
        # worker thread may be replaced, and a fresh connection's count means nothing to us).
        conn = self._conn()
        version = (id(getattr(conn, "raw", conn)), self.store.data_version())  # raw: PostgreSQL's wrapper is per call
        if version == self.data_version:
            return None
        self.data_version = version
        first = self._prints is None
        conn = self._snapshot()
        try:
            if first:
                self._prints = self.all_fingerprints()
            marker, feed = (None, None) if self._pruned() else self.store.changes_since(self.marker)
            if feed is None or feed.note == RELOAD:  # pruned, or more than changes_since hands out
                self.marker = marker if feed is not None else self.store.change_marker()
                self._prints = self.all_fingerprints()
                return Changes(personas=True, note=f"{EXTERNAL}; {RELOAD}"), True
            self.marker = marker
            ids = feed.memory_ids
            fresh = self.fingerprints(ids) if ids else {}
        finally:
            self._end(conn)
        changes = self._compare(ids, fresh, first, feed.personas)
        # Rows in the feed that changed nothing visible (touches) are not "something else".
        other = bool(changes) or not (ids or feed.personas)
        return changes, other

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` s until another process may have committed (then poll)."""
        return self.store.wait_for_change(timeout)

    def _compare(self, ids, fresh: dict, first: bool, personas: bool) -> Changes:
        """Changes from the feed's ids and their fresh fingerprints; updates our prints."""
        prints = self._prints
        assert prints is not None  # read by poll on the first call
        added, updated, deleted, restored, purged = [], [], [], [], []
        for memory_id in ids:
            old, new = prints.get(memory_id), fresh.get(memory_id)
            if new is None:
                if old is not None or first:
                    purged.append(memory_id)
                    prints.pop(memory_id, None)
                continue
            prints[memory_id] = new
            if first:
                updated.append(memory_id)  # written before our first look: what exactly is unknown
            elif old is None:
                added.append(memory_id)
            elif old[0] == new[0]:
                continue  # an access-count touch, or our own write already absorbed
            elif new[1] and not old[1]:
                deleted.append(memory_id)
            elif old[1] and not new[1]:
                restored.append(memory_id)
            else:
                updated.append(memory_id)
        return Changes(
            added=tuple(added),
            updated=tuple(updated),
            deleted=tuple(deleted),
            restored=tuple(restored),
            purged=tuple(purged),
            personas=personas,
            note=EXTERNAL,
        )


def is_reload(changes: Changes) -> bool:
    return RELOAD in (changes.note or "").split("; ")


def is_external(changes: Changes) -> bool:
    return EXTERNAL in (changes.note or "").split("; ")


def prune(store, *, keep: int) -> int:
    """Drop all but the newest ``keep`` feed rows; a reader behind them reloads fully."""
    return store.prune_change_log(keep=keep)
