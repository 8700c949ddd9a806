"""PostgreSQL connections that speak the sqlite3 surface the core uses.

The core writes its raw SQL once, with sqlite3's ``?`` placeholders (search index,
feed, stats, bulk inserts: ~140 statements). Rather than fork those, a PostgreSQL store
hands out ``SqliteLikeConnection``: ``execute`` / ``executemany`` take ``?`` and return
psycopg cursors (fetchone, fetchall, iteration, rowcount are the same), ``in_transaction``
reads the libpq status, and errors arrive as peewee's IntegrityError / OperationalError
classes, as they do from peewee's own queries. peewee itself is told to write ``?`` too
(``PgDatabase.param``), so every statement goes through the same one translation.

Driver: psycopg 3 through peewee's own PostgresqlDatabase (peewee ≥ 3.17 drives psycopg 3
natively; playhouse's psycopg3 extension adds only JSON/array fields we do not use).
psycopg 3 over psycopg2: binary wheels for every platform we ship, libpq bundled (so the
frozen app needs no system libpq), real server-side parameters, pipeline-mode executemany
(the index writes in a few executemany calls) and ``notifies(timeout=)`` for LISTEN.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import peewee
import psycopg
from peewee import PostgresqlDatabase, __exception_wrapper__
from psycopg.pq import TransactionStatus

# A string literal or quoted identifier (kept whole), a placeholder, or a percent sign.
_READ = re.compile(r"\s*SELECT\b", re.IGNORECASE)
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?|%")


@lru_cache(maxsize=4096)
def to_psycopg(sql: str) -> str:
    """sqlite3's ``?`` -> psycopg's ``%s``; a literal ``%`` doubled (psycopg reads it everywhere)."""

    def swap(m: re.Match) -> str:
        token = m.group(0)
        if token == "?":
            return "%s"
        return token.replace("%", "%%")

    return _TOKEN.sub(swap, sql)


_DROP_STATES = {"57P01", "57P02", "57P03"}  # the server shutting down, crashed, starting up
_REFUSALS = ("password authentication failed", "no password supplied", "does not exist", "permission denied")


def is_connection_drop(exc: BaseException) -> bool:
    """Did ``exc`` (peewee's, wrapping psycopg's) come from losing the server, not from a statement?"""
    orig: Any = exc
    while getattr(orig, "orig", None) is not None:  # peewee keeps the driver's exception there; a
        orig = orig.orig  # connect that failed inside cursor() comes wrapped twice
    if not isinstance(orig, (psycopg.OperationalError, psycopg.InterfaceError)):
        return False
    text = str(orig).lower()
    if any(word in text for word in _REFUSALS):  # a reconnect the server turned down: not a drop
        return False
    state = getattr(orig, "sqlstate", None)
    return state is None or state.startswith("08") or state in _DROP_STATES


class SqliteLikeConnection:
    """A psycopg connection seen through the sqlite3 methods the core calls."""

    __slots__ = ("raw", "db")
    is_postgres = True  # for the few statements that differ (sqlite3's connection has no such attribute)

    def __init__(self, raw: psycopg.Connection, db: PgDatabase | None = None):
        self.raw, self.db = raw, db

    def execute(self, sql: str, params=()):
        try:
            return self._execute(sql, params)
        except (peewee.OperationalError, peewee.InterfaceError) as exc:
            # As PgDatabase._execute_cursor: a plain SELECT outside a transaction, on a connection
            # the server dropped while it sat idle (a restart), runs again on a fresh one. A
            # thread keeps its connection from task to task (the window's lanes too).
            db = self.db
            if db is None or db.in_transaction() or not _READ.match(sql) or not is_connection_drop(exc):
                raise
            self.raw = db.raw_connection()
        return self._execute(sql, params)

    def _execute(self, sql: str, params):
        with __exception_wrapper__:
            cursor = self.raw.cursor()
            cursor.execute(to_psycopg(sql), tuple(params))
        return cursor

    def executemany(self, sql: str, seq_of_params):
        rows = [tuple(p) for p in seq_of_params]
        with __exception_wrapper__:
            cursor = self.raw.cursor()
            if rows:
                cursor.executemany(to_psycopg(sql), rows)
        return cursor

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != TransactionStatus.IDLE

    def __getattr__(self, name):
        return getattr(self.raw, name)


class PgDatabase(PostgresqlDatabase):
    """peewee's PostgreSQL database, writing ``?`` like SQLite and mapping SQLite's storage
    classes onto PostgreSQL's: TEXT compares byte-wise as in SQLite (COLLATE "C", whatever
    the database's locale), REAL is 8 bytes, INTEGER is 64-bit."""

    param = "?"
    field_types = {
        **PostgresqlDatabase.field_types,
        "TEXT": 'TEXT COLLATE "C"',
        "FLOAT": "DOUBLE PRECISION",
        "INT": "BIGINT",
        "AUTO": "BIGSERIAL",
    }

    def _execute_cursor(self, sql, params, **cursor_options):
        self._forget_if_broken()
        try:
            return super()._execute_cursor(to_psycopg(sql), tuple(params or ()), **cursor_options)
        except (peewee.OperationalError, peewee.InterfaceError) as exc:
            # A plain SELECT outside a transaction, on a connection the server dropped while it
            # sat idle (a restart): safe to run again on a fresh one. Reads that core functions
            # make on the window's own thread (listing, search) do not pass through a Store
            # method, so reconnect.py never sees them.
            if self._state.transactions or not _READ.match(sql) or not is_connection_drop(exc):
                raise
        self._forget_if_broken()
        return super()._execute_cursor(to_psycopg(sql), tuple(params or ()), **cursor_options)

    def connection(self):
        """This thread's connection, with the sqlite3 surface (psycopg's own is ``.raw``)."""
        return SqliteLikeConnection(self.raw_connection(), self)

    def raw_connection(self) -> psycopg.Connection:
        """This thread's psycopg connection, a fresh one when psycopg found the last one dead."""
        self._forget_if_broken()
        return super().connection()

    def cursor(self, *args, **kwargs):
        self._forget_if_broken()  # peewee's BEGIN / COMMIT go through here
        return super().cursor(*args, **kwargs)

    def _forget_if_broken(self) -> None:
        """A connection psycopg found dead is dropped, so the next statement connects afresh;
        never inside a transaction, which must fail as a whole (reconnect.py reports it)."""
        conn = self._state.conn
        if conn is not None and conn.closed and not self._state.transactions:
            self.dispose()
