"""Opening a PostgreSQL store: connect, check the version, create or migrate the schema.

The URL goes to libpq untouched, so PGPASSWORD, ~/.pgpass and PGSERVICE work as for
psql; only redacted forms of it appear in messages (location.py). Migration runs in one
transaction under an advisory lock, so two processes opening a new database at once
create it once, and a failed step leaves it as it was (PostgreSQL's DDL is transactional).
Writers take another advisory lock per write transaction (Store.write): the SQLite
store's BEGIN IMMEDIATE, one writer at a time, which the search index's read-modify-write
of its counters relies on.
"""

from __future__ import annotations

import peewee

from memdesk.core.domain.errors import CorruptDatabaseError, DatabaseUnavailableError, SchemaTooNewError
from memdesk.core.storage import models, pg_schema
from memdesk.core.storage.location import normalise_url, redact, scrub
from memdesk.core.storage.migrations import LATEST_VERSION
from memdesk.core.storage.pg_conn import PgDatabase

SCHEMA_LOCK = 0x4D454D44  # pg_advisory_xact_lock keys ("MEMD"), per database
WRITE_LOCK = SCHEMA_LOCK + 1
CONNECT_TIMEOUT_S = 10

# libpq's words -> (kind, what we tell the user)
_REASONS = (
    ("no password supplied", "password", "the server asks for a password: set PGPASSWORD, add it to ~/.pgpass"),
    ("password authentication failed", "auth", "wrong user name or password"),
    ("authentication failed", "auth", "the server refused the login"),
    ("role ", "auth", ""),  # role "x" does not exist: a login problem, not a missing database
    ("does not exist", "missing", ""),
    ("could not translate host name", "unreachable", "unknown host"),
    ("failed to resolve host", "unreachable", "unknown host"),
    ("connection refused", "unreachable", "no server is listening there"),
    ("timeout expired", "unreachable", "the server did not answer in time"),
    ("no route to host", "unreachable", "the server cannot be reached"),
)


def connection_error(url: str, exc: BaseException) -> DatabaseUnavailableError:
    """One line the user can act on, for a failed connection; no password in it."""
    raw = str(getattr(exc, "orig", None) or exc)
    lines = [ln.strip() for ln in raw.splitlines() if ln.strip()]
    detail = " ".join(lines[:1]) or type(exc).__name__
    detail = detail.removeprefix("connection failed: ")
    detail = scrub(detail.split(": FATAL:  ")[-1].removeprefix("FATAL:  "), url)
    low = raw.lower()
    for needle, kind, advice in _REASONS:
        if needle in low:
            if kind == "password":
                detail = f"{advice}, or put it in the URL"
            elif advice:
                detail = f"{advice} ({detail})"
            return DatabaseUnavailableError(
                kind=kind, code="database_unavailable", where=redact(url), detail=detail, reason=kind
            )
    return DatabaseUnavailableError(code="database_unavailable", where=redact(url), detail=detail, reason="other")


def make_database(url: str) -> PgDatabase:
    url = normalise_url(url)
    params: dict = {"application_name": "memdesk"}
    if "connect_timeout" not in url:
        params["connect_timeout"] = CONNECT_TIMEOUT_S
    return PgDatabase(url, prefer_psycopg3=True, **params)


def migrate(db: PgDatabase, url: str) -> int:
    """Bring the store to LATEST_VERSION in one locked transaction; returns the version found."""
    conn = db.connection()
    found = pg_schema.version(conn)
    if found == LATEST_VERSION:
        return found  # the common case: no lock, no transaction
    with db.atomic():
        conn.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
        found = pg_schema.version(conn)  # again, inside the lock: another opener may have been first
        if found is None:
            raise CorruptDatabaseError(code="pg_not_a_store", where=redact(url))
        if found > LATEST_VERSION:
            raise SchemaTooNewError(redact(url), found, LATEST_VERSION, what="database")
        current = found
        if current == 0:
            pg_schema.create(db)
            current = pg_schema.MODELS_VERSION
        for step_version, step in pg_schema.STEPS:
            if step_version > current:
                step(conn)
                current = step_version
        if current != LATEST_VERSION:  # a SQLite migration without its PostgreSQL step
            raise CorruptDatabaseError(code="pg_cannot_upgrade", where=redact(url), version=LATEST_VERSION)
        pg_schema.set_version(conn, current)
    return found


def open_pg(url: str) -> PgDatabase:
    """Connect to ``url``, create or upgrade the schema, bind the models; clear errors."""
    db = make_database(url)
    try:
        db.connect()
    except peewee.OperationalError as exc:
        raise connection_error(url, exc) from None  # libpq's text is in the message; no traceback chain
    try:
        migrate(db, url)
    except peewee.DatabaseError as exc:
        db.close()
        raise DatabaseUnavailableError(
            code="database_unavailable", where=redact(url), detail=scrub(str(exc).strip(), url), reason="other"
        ) from None
    except BaseException:
        db.close()
        raise
    models.database.initialize(db)
    return db
