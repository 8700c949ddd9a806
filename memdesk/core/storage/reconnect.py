"""A dropped PostgreSQL connection (server restarted, network cut): retried or reported.

Every Store method runs through ``call`` (store_feed.bound). When the server went away,
psycopg raises OperationalError and marks the connection closed; PgDatabase then opens a
fresh one on the next call. Here:
- a read, or a write that failed before its transaction took the write lock (nothing of it
  reached the server), is run again on a fresh connection, with growing pauses while the
  server is still away, for up to RECONNECT_S (a restart takes seconds);
- a write that failed later is reported as ConnectionLostError, never retried blindly.
  PostgreSQL commits a transaction whole or not at all: when the drop came before COMMIT
  was sent, it was not saved, and the error says so; when COMMIT was on its way, whether it
  arrived cannot be known here, so the caller reloads and decides (the window keeps the
  unsaved edit);
- when the server is still away after RECONNECT_S, DatabaseUnavailableError says why, in
  one line;
- when the server answers but the database is gone (dropped or renamed under an open store),
  DatabaseDroppedError says so at once: waiting would not bring it back.
Listeners (Store.on_connection) hear False at the first drop and True once a call gets
through again: the window says "reconnecting…". SQLite stores never get here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import peewee

from memdesk.core.domain.errors import ConnectionLostError, DatabaseDroppedError
from memdesk.core.storage.location import redact

_DROPS = (peewee.OperationalError, peewee.InterfaceError)
RECONNECT_S = 15.0
PAUSES = (0.1, 0.25, 0.5, 1.0, 2.0)


def _database_gone(exc: BaseException) -> bool:
    """Did connecting fail because the database is not there (FATAL: database "x" does not
    exist)? The store was opened, so it was there: dropped (or renamed) since."""
    orig: BaseException = exc
    while getattr(orig, "orig", None) is not None:
        orig = orig.orig  # type: ignore[attr-defined]
    text = str(orig)
    return 'database "' in text and "does not exist" in text and "FATAL" in text


@contextmanager
def gone_as_dropped(store) -> Iterator[None]:
    """Around a write transaction an operation opens itself (core/ops, outside ``call``): a
    database that vanished is reported as such, not as the driver's connect error."""
    try:
        yield
    except _DROPS as exc:
        if not _database_gone(exc):
            raise
        store.connection_changed(False)
        raise DatabaseDroppedError(redact(store.location)) from None


def _lost_write(store) -> ConnectionLostError:
    where = redact(store.location)
    if getattr(store.write_state, "committing", False):
        return ConnectionLostError(where)
    return ConnectionLostError(where, maybe_saved=False)


def call(store, method, args, kwargs):
    state = store.write_state
    if getattr(state, "retrying", False):  # a Store method called by another: the outer one retries
        return method(store, *args, **kwargs)
    state.retrying = True
    deadline = time.monotonic() + RECONNECT_S
    try:
        for attempt in range(10_000):
            state.sent = state.committing = False
            try:
                result = method(store, *args, **kwargs)
            except _DROPS as exc:
                from memdesk.core.storage.pg_conn import is_connection_drop

                if not is_connection_drop(exc):
                    if _database_gone(exc):  # a (re)connect found no such database: dropped under us
                        store.connection_changed(False)
                        raise DatabaseDroppedError(redact(store.location)) from None
                    raise  # an error of the statement itself, on a live connection
                store.connection_changed(False)
                if state.sent:
                    raise _lost_write(store) from None
                if time.monotonic() >= deadline:
                    from memdesk.core.storage.pg_db import connection_error

                    raise connection_error(store.location, exc) from None
                if attempt:  # the first retry at once: a restarted server is usually back
                    time.sleep(PAUSES[min(attempt - 1, len(PAUSES) - 1)])
                continue
            store.connection_changed(True)
            return result
        raise AssertionError("unreachable")
    finally:
        state.retrying = False
