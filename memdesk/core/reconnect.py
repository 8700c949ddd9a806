"""A dropped PostgreSQL connection (server restarted, network cut): retried or reported.

Every Store method runs through ``call`` (store_feed._bound). When the server went away,
psycopg raises OperationalError and marks the connection closed; PgDatabase then opens a
fresh one on the next call. Here:
- a read, or a write that failed before its transaction took the write lock (nothing of it
  reached the server), is run once more on a fresh connection;
- a write that failed later is reported as ConnectionLostError: PostgreSQL commits a
  transaction whole or not at all, but whether the COMMIT arrived before the drop cannot be
  known here, so the caller reloads and decides (the window keeps the unsaved edit);
- when the second attempt cannot connect either, DatabaseUnavailableError says why, in
  one line (the window can say "reconnecting…" and try again later).
SQLite stores never get here.
"""

from __future__ import annotations

import peewee

from .errors import ConnectionLostError
from .location import redact

_DROPS = (peewee.OperationalError, peewee.InterfaceError)


def call(method, owner, args, kwargs, *, state, location: str):
    """``method(owner, *args, **kwargs)``, retried or reported as above. ``state``: the Store's
    per-thread write state (write() sets ``sent`` once its transaction holds the lock)."""
    if getattr(state, "retrying", False):  # a Store method called by another: the outer one retries
        return method(owner, *args, **kwargs)
    state.retrying = True
    try:
        for attempt in (1, 2):
            state.sent = False
            try:
                return method(owner, *args, **kwargs)
            except _DROPS as exc:
                from .pg_conn import is_connection_drop

                if not is_connection_drop(exc):
                    raise  # an error of the statement itself, on a live connection
                if state.sent:
                    raise ConnectionLostError(
                        f"the connection to {redact(location)} was lost during a save; it was saved "
                        "whole or not at all: reload to see which"
                    ) from None
                if attempt == 2:
                    from .pg_db import connection_error

                    raise connection_error(location, exc) from None
        raise AssertionError("unreachable")
    finally:
        state.retrying = False
