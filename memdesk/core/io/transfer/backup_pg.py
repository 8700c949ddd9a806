"""Backups of a PostgreSQL store: portable MemDesk exports, since file copies do not apply.

``memdesk backup make`` writes the store's native export (every memory, in the trash
and superseded ones included, with personas; the format `memdesk export` writes and
`memdesk import` reads) into a folder of the user data directory named for the
database and host, and keeps the newest KEEP. ``backup list`` lists them. A restore is
an import into an empty database (`memdesk --db URL import FILE`), never done over a
live shared database by one command. The server's own tools (pg_dump, base backups)
remain the way to back up a whole server.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

from memdesk.core.domain.times import UTC, now_utc
from memdesk.core.storage.backup import KEEP, BackupInfo
from memdesk.core.storage.location import normalise_url

_NAME = re.compile(r"^(?P<stamp>\d{8}T\d{6}\d{6}Z)-(?P<reason>[a-z0-9_]+)\.json$")


def export_dir(url: str) -> Path:
    """Where the exports of the database at ``url`` go (MEMDESK_BACKUP_DIR overrides the root)."""
    parts = urlsplit(normalise_url(url))
    name = f"{parts.path.lstrip('/') or parts.username or 'postgres'}@{parts.hostname or 'localhost'}"
    name += f"_{parts.port}" if parts.port else ""
    root = os.environ.get("MEMDESK_BACKUP_DIR")
    folder = Path(root) if root else Path(platformdirs.user_data_dir("MemDesk", appauthor=False)) / "backups"
    return folder / re.sub(r"[^\w.@-]", "_", name)


def make_export_backup(store, url: str, reason: str, *, keep: int = KEEP) -> Path:
    """Export ``store`` (opened on ``url``) into its backup folder; the oldest beyond ``keep`` go."""
    from memdesk.core.io.export import export_file  # the export code only when a backup is made

    folder = export_dir(url)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{now_utc():%Y%m%dT%H%M%S%fZ}-{reason}.json"
    export_file(store, target, format="native")
    for old in list_export_backups(url)[keep:]:
        old.path.unlink(missing_ok=True)
    return target


def list_export_backups(url: str) -> list[BackupInfo]:
    """Newest first."""
    folder = export_dir(url)
    found = []
    if folder.is_dir():
        for item in folder.iterdir():
            match = _NAME.match(item.name)
            if match:
                made = datetime.strptime(match["stamp"], "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)
                found.append(BackupInfo(item, made, match["reason"], item.stat().st_size))
    return sorted(found, key=lambda b: b.made_at, reverse=True)
