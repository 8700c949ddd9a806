"""Rotating copies of the database file, made before risky operations.

Uses SQLite's online backup API, so a copy is consistent even while another
process writes (WAL).
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

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
    source = sqlite3.connect(str(db_path), timeout=30)
    try:
        dest = sqlite3.connect(str(target))
        try:
            source.backup(dest)
        finally:
            dest.close()
    finally:
        source.close()
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
