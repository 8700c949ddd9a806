"""Opening a store: a SQLite file (pragmas, version check, backup, migrations) or a
PostgreSQL database (pg_db.py).

One schema, two ways to reach it. On SQLite the schema of every version is frozen
SQL in migrations.py and old files upgrade through those steps, forever unchanged.
On PostgreSQL it is generated from the peewee models (models.py for the data,
index_models.py for the change feed and search index; pg_schema.py adds the few
things SQLite has built in), starting at the version those models describe;
tests/core/test_pg_schema.py checks that a migrated SQLite file and a created
PostgreSQL database have the same tables and columns. Both record the version
(PRAGMA user_version; the memdesk_schema table) and refuse a newer one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from peewee import SqliteDatabase

from memdesk.core.domain.errors import CorruptDatabaseError, MemDeskError, SchemaTooNewError
from memdesk.core.storage import models
from memdesk.core.storage.backup import make_backup
from memdesk.core.storage.checkpoint import BACKSTOP_PAGES
from memdesk.core.storage.location import default_target, is_url
from memdesk.core.storage.migrations import LATEST_VERSION, MIGRATIONS, VACUUM_BELOW

BUSY_TIMEOUT_S = 30
PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "synchronous": "full",  # a committed memory survives a power cut, not just a crash
    # 4 MB of pages per connection, and the window keeps one per thread (UI, search, work, feed).
    # At 32 MB each, full reads at start (the tree's listing, the feed's first look, the
    # vector check) filled every cache: SQLite held 90 MB of a 100k window's 450. The OS
    # keeps the file's pages anyway, and the engine caches postings itself: search p95 at
    # 100k 4.01 ms with 32 MB, 4.06 with 4 MB; import 10k 3.35 s and add p95 8.5 ms, as before.
    "cache_size": -4000,
    # Statement journals (every write with a trigger: the change feed) and sorts in RAM,
    # not in temporary files: a memory insert costs less than half (13 against 29 us).
    # Nothing here builds a temporary copy of the whole store (no VACUUM).
    "temp_store": "memory",
    # Checkpoints run in a thread of their own (checkpoint.py); these two serve it.
    "journal_size_limit": 64 << 20,
    "wal_autocheckpoint": BACKSTOP_PAGES,
}


def default_db_path() -> Path | str:
    """MEMDESK_DB (a path or a PostgreSQL URL), else memdesk.db in the user data directory."""
    return default_target()


def _check_header(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb") as fh:
        header = fh.read(16)
    if header != b"SQLite format 3\x00":
        raise CorruptDatabaseError(code="not_a_store", path=str(path))


def schema_version(path: Path) -> int:
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def migrate(path: Path) -> int:
    """Bring the file to LATEST_VERSION; back it up first if it held data.

    Returns the version found. All steps run in one exclusive transaction, so
    a failed upgrade leaves the file exactly as it was.
    """
    path = Path(path)
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        try:
            found = conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise CorruptDatabaseError(code="store_unreadable", path=str(path), detail=str(exc)) from exc
        if found > LATEST_VERSION:
            raise SchemaTooNewError(str(path), found, LATEST_VERSION)
        if found == LATEST_VERSION:
            return found
        if found > 0:
            conn.close()
            make_backup(path, f"before_v{LATEST_VERSION}")
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        try:
            # Re-read inside the lock: another process may have migrated meanwhile.
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            for version, step in MIGRATIONS:
                if version > current:
                    step(conn)
                    conn.execute(f"PRAGMA user_version = {int(version)}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if 0 < found < VACUUM_BELOW:
            # The upgrade freed most of the file (migrations._v6): give it back. A kill
            # meanwhile leaves the upgraded file as it was, only not smaller.
            conn.execute("VACUUM")
        return found
    finally:
        conn.close()


def open_database(target):
    """Open (creating if needed) and migrate ``target``, a path or a postgresql:// URL;
    bind the models to it."""
    if is_url(target):
        from memdesk.core.storage.pg_db import open_pg  # psycopg only for PostgreSQL stores

        return open_pg(target)
    return _open_sqlite(Path(target))


def _open_sqlite(path: Path) -> SqliteDatabase:
    path = Path(path).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MemDeskError(code="store_folder_failed", path=str(path), detail=exc.strerror) from exc
    _check_header(path)
    try:
        migrate(path)
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabaseError(code="store_unopenable", path=str(path), detail=str(exc)) from exc
    db = SqliteDatabase(
        str(path),
        pragmas=PRAGMAS,
        timeout=BUSY_TIMEOUT_S,
        lock_type="IMMEDIATE",  # writers queue up at BEGIN, never fail mid-transaction
        check_same_thread=False,
    )
    models.database.initialize(db)
    db.connect(reuse_if_open=True)
    return db
