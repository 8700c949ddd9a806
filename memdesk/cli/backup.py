"""`memdesk backup list | make | restore`: the rotating copies beside the database (on
PostgreSQL: MemDesk exports in the user data folder, core/io/transfer/backup_pg.py)."""

from __future__ import annotations

import sys

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.storage.backup import check_integrity, list_backups, make_backup, restore_backup
from memdesk.core.storage.db import default_db_path
from memdesk.core.storage.location import is_url, redact

from .options import json_option
from .output import print_json


def cmd_backup(args) -> int:
    from pathlib import Path

    target = args.db or default_db_path()
    if is_url(target):
        return _pg_backup(args, target)
    db_path = Path(target).expanduser()
    backups = list_backups(db_path)
    if args.backup_cmd == "list":
        return _list(args, backups, none=f"no backups of {db_path}")
    if args.backup_cmd == "make":
        made = make_backup(db_path, "manual")
        print(f"backed up to {made}" if made else "nothing to back up (no database yet)")
        return 0
    choice = args.which
    if choice.isdigit():
        index = int(choice)
        if not 1 <= index <= len(backups):
            raise MemDeskError(f"there is no backup number {index}; see `memdesk backup list`")
        source = backups[index - 1].path
    else:
        source = Path(choice)
        if not source.is_file():
            raise MemDeskError(f"{source} does not exist")
    if not args.yes:
        raise MemDeskError(
            f"restoring replaces {db_path} with {source.name}; add --yes to confirm "
            "(the current file is kept as a backup first)"
        )
    safety = restore_backup(db_path, source)
    print(f"restored {source.name}; the previous file was kept as {safety}")
    print(f"integrity: {check_integrity(db_path)}")
    return 0


def _pg_backup(args, url: str) -> int:
    from memdesk.core.io.transfer.backup_pg import list_export_backups, make_export_backup
    from memdesk.core.store import Store

    if args.backup_cmd == "make":
        store = Store.open(url)
        try:
            made = make_export_backup(store, url, "manual")
        finally:
            store.close()
        print(f"backed up to {made}")
        print(
            "(a MemDesk export: a PostgreSQL store is backed up as a portable export, not a file copy; "
            "it restores into an empty database with `memdesk --db URL import FILE`)",
            file=sys.stderr,
        )
        return 0
    backups = list_export_backups(url)
    if args.backup_cmd == "list":
        return _list(
            args,
            backups,
            none=f"no backups of {redact(url)} (make one with `memdesk backup make`)",
            extra={"format": "memdesk-export"},
        )
    raise MemDeskError(
        f"{redact(url)} is a PostgreSQL database: its backups are MemDesk exports, and restoring one over a "
        "shared database is not done in one step. Create an empty database and run "
        "`memdesk --db URL import FILE` with the export (see `memdesk backup list`)."
    )


def register(sub) -> None:
    p = sub.add_parser("backup", help="list, make or restore backups of the database")
    json_option(p)
    bsub = p.add_subparsers(dest="backup_cmd", required=True, metavar="ACTION")
    bsub.add_parser("list", help="backups, newest first")
    bsub.add_parser("make", help="back up now")
    r = bsub.add_parser("restore", help="replace the database with a backup")
    r.add_argument("which", help="a number from `backup list`, or a backup file")
    r.add_argument("--yes", action="store_true", help="confirm")
    p.set_defaults(func=cmd_backup, needs_store=False)


def _list(args, backups, *, none: str, extra: dict | None = None) -> int:
    """Newest first, numbered as `backup restore N` takes them."""
    if args.json:
        print_json(
            [
                {"index": i, "path": str(b.path), "made_at": b.made_at.isoformat(), "reason": b.reason}
                | {"size": b.size, **(extra or {})}
                for i, b in enumerate(backups, start=1)
            ]
        )
        return 0
    for i, b in enumerate(backups, start=1):
        print(f"{i:>3}  {b.made_at:%Y-%m-%d %H:%M:%S} UTC  {b.reason:<16} {b.size / 1024:8.0f} KB  {b.path}")
    if not backups:
        print(none, file=sys.stderr)
    return 0
