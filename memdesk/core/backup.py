"""Rotating copies of the database file, made before risky operations.

A copy is consistent even while another process writes (WAL): made in one read
transaction, without the search index, which is rebuilt after a restore (backup_copy.py).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .backup_copy import copy_without_index
from .times import UTC, now_utc

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
    """Replace the database with a backup; the current file is kept as a backup first.

    Close every Store on the file before calling. Returns the safety copy (None
    when the current file was unreadable and could not be copied).
    """
    from .errors import MemDeskError

    db_path, backup_path = Path(db_path), Path(backup_path)
    if check_integrity(backup_path) != "ok":
        raise MemDeskError(f"{backup_path.name} is damaged too; choose another backup")
    safety = None
    try:
        safety = make_backup(db_path, "before_restore", keep=KEEP + 1)
    except sqlite3.DatabaseError:
        # A damaged file cannot go through the backup API; keep its bytes aside.
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
