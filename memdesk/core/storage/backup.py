"""Rotating copies of the database file, made before risky operations, and restoring one.

A copy is consistent even while another process writes (WAL): made in one read
transaction, without the search index, which is rebuilt after a restore (backup_copy.py).
A restore writes the backup into the file through a connection that holds it alone,
refused while the store is open anywhere (sole_access.py: why this design).
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memdesk.core.domain.times import UTC, now_utc
from memdesk.core.storage.backup_copy import copy_without_index
from memdesk.core.storage.sole_access import holders, sole_connection

KEEP = 10
_NAME = re.compile(r"^(?P<stem>.+)-(?P<stamp>\d{8}T\d{6}\d{6}Z)-(?P<reason>[a-z0-9_]+)\.db$")


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    made_at: datetime
    reason: str
    size: int


def backup_dir(db_path: Path) -> Path:
    return Path(db_path).parent / "backups"


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy an open database into ``target`` with SQLite's backup API; closes ``source``."""
    try:
        dest = sqlite3.connect(str(target))
        try:
            source.backup(dest)
        finally:
            dest.close()
    finally:
        source.close()


def make_backup(db_path: Path, reason: str, *, keep: int = KEEP) -> Path | None:
    """Copy ``db_path`` into backups/ and drop the oldest copies beyond ``keep``.

    Returns None when there is nothing to back up (a new, empty file).
    """
    db_path = Path(db_path)
    if not db_path.exists() or db_path.stat().st_size == 0:
        return None
    folder = backup_dir(db_path)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = now_utc().strftime("%Y%m%dT%H%M%S%fZ")
    target = folder / f"{db_path.stem}-{stamp}-{reason}.db"
    part = target.with_name(target.name + ".part")
    copy_without_index(db_path, part)  # the search index is rebuilt after a restore (backup_copy.py)
    part.replace(target)
    for old in list_backups(db_path)[keep:]:
        old.path.unlink(missing_ok=True)
    return target


def list_backups(db_path: Path) -> list[BackupInfo]:
    """Newest first."""
    db_path = Path(db_path)
    folder = backup_dir(db_path)
    found = []
    if folder.is_dir():
        for item in folder.iterdir():
            match = _NAME.match(item.name)
            if match and match["stem"] == db_path.stem:
                made = datetime.strptime(match["stamp"], "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)
                found.append(BackupInfo(item, made, match["reason"], item.stat().st_size))
    return sorted(found, key=lambda b: b.made_at, reverse=True)


def check_integrity(path: Path) -> str:
    """'ok', or SQLite's description of the damage."""
    try:
        conn = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True, timeout=30)
        try:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return "ok" if rows == [("ok",)] else "; ".join(r[0] for r in rows[:5])


def restore_backup(db_path: Path, backup_path: Path) -> Path | None:
    """Put a backup's contents into the database; the current contents are kept as a backup first.

    Refused (StoreInUseError, nothing changed) while any Store, window or server, in this
    process or another, has the file open: sole_access.py says why. Returns the safety copy of
    what the file held (None when it was empty or missing).
    """
    from memdesk.core.domain.errors import CorruptDatabaseError, MemDeskError

    db_path, backup_path = Path(db_path), Path(backup_path)
    if check_integrity(backup_path) != "ok":
        raise MemDeskError(code="backup_damaged", name=backup_path.name)
    if not db_path.parent.is_dir():
        raise MemDeskError(code="no_folder", path=str(db_path.parent))
    with ExitStack() as holding:
        try:
            held = holding.enter_context(sole_connection(db_path))
        except CorruptDatabaseError:
            return _replace_damaged(db_path, backup_path)
        safety = _safety_copy(held, db_path)
        source = sqlite3.connect(f"file:{backup_path}?mode=ro", uri=True)
        try:
            source.backup(held)  # one transaction on the held file: whole or not at all
        except sqlite3.Error as exc:
            raise MemDeskError(code="backup_not_restored", name=backup_path.name, detail=str(exc)) from exc
        finally:
            source.close()
    return safety


def _safety_copy(held: sqlite3.Connection, db_path: Path) -> Path | None:
    """The current contents into backups/, through the connection that holds the file."""
    if db_path.stat().st_size == 0:
        return None  # a new, empty file
    folder = backup_dir(db_path)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{db_path.stem}-{now_utc():%Y%m%dT%H%M%S%fZ}-before_restore.db"
    dest = sqlite3.connect(str(target))
    try:
        held.backup(dest)
    finally:
        dest.close()
    for old in list_backups(db_path)[KEEP + 1 :]:
        old.path.unlink(missing_ok=True)
    return target


def _replace_damaged(db_path: Path, backup_path: Path) -> Path:
    """A file SQLite cannot read cannot be held or written through: its bytes are kept aside and
    a copy of the backup takes its place. No connection can be open on it (none can read it)
    except one opened before the damage, and then only in another process: refused if one is."""
    from memdesk.core.domain.errors import StoreInUseError

    others = [h for h in holders(db_path) if not h.startswith("this process")]
    if others:
        raise StoreInUseError(str(db_path), others)
    safety = backup_dir(db_path) / f"{db_path.stem}-damaged-{now_utc():%Y%m%dT%H%M%S}.bin"
    safety.parent.mkdir(parents=True, exist_ok=True)
    safety.write_bytes(db_path.read_bytes())
    for suffix in ("-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    tmp = db_path.with_name(db_path.name + ".restoring")
    tmp.unlink(missing_ok=True)
    _copy(sqlite3.connect(f"file:{backup_path}?mode=ro", uri=True), tmp)
    tmp.replace(db_path)  # atomic: the old file or the restored one, never a mix
    return safety
