"""`memdesk init [PATH]`: make a new, empty store (a SQLite file, or MemDesk's tables in an empty
PostgreSQL database). Other commands refuse a --db that does not exist (core/storage/location.py)."""

from __future__ import annotations

from pathlib import Path


def cmd_init(args) -> int:
    from memdesk.core.storage.location import default_target, is_url, redact
    from memdesk.core.store import Store

    target = args.path or args.db or default_target()
    existed = is_url(target) or Path(target).expanduser().exists()
    store = Store.open(target)  # refuses, unchanged, a file that is not a MemDesk store
    try:
        where = store.path or store.location
        count = store.count(state="all")
    finally:
        store.close()
    if existed and count:
        print(f"{redact(where)} is already a MemDesk store ({count} memories); nothing was changed")
    elif existed:
        print(f"{redact(where)} is a MemDesk store")
    else:
        print(f"created a new store at {where}")
    return 0


def register(sub) -> None:
    p = sub.add_parser("init", help="make a new store (a --db file that does not exist is otherwise an error)")
    p.add_argument("path", nargs="?", help="the new database file or postgresql:// URL (default: --db, $MEMDESK_DB)")
    p.set_defaults(func=cmd_init, needs_store=False)
