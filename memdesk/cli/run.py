"""The `memdesk` parser and main(): each command family registers itself; one rule turns errors
into exit codes (output.run_guarded)."""

from __future__ import annotations

import argparse

from memdesk import __version__
from memdesk.core.domain.errors import MemDeskError

from . import assistants, backup, copying, init, maintenance, memories, model, personas, search, transfer
from .options import add_everywhere, add_global
from .options import finish as finish_global
from .output import fail, run_guarded

# In the order `memdesk --help` lists them.
FAMILIES = (init, memories, search, personas, transfer, copying, assistants, backup, maintenance, model)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memdesk", description="MemDesk (记忆台): AI assistant memory workbench")
    add_global(parser)  # --db and --json; add_everywhere below lets them follow the command too
    parser.add_argument("--version", action="version", version=f"memdesk {__version__}")
    parser.add_argument("--self-test", action="store_true", help="check that MemDesk works here (headless) and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for family in FAMILIES:
        family.register(sub)
    add_everywhere(parser)
    return parser


def main(argv=None, *, without_command=None) -> int:
    """Run one command. ``without_command(args)`` answers `memdesk` with no command (and
    --self-test): memdesk/launch.py passes the window there; this package never imports it."""
    parser = build_parser()
    args = parser.parse_args(argv)
    finish_global(parser, args)
    if args.self_test or args.command is None:
        if without_command is None:
            parser.error("give a command (`memdesk` alone opens the window)")
        return without_command(args)
    if getattr(args, "needs_store", True) is False:
        return run_guarded(lambda: args.func(args))
    from memdesk.core.storage.location import require_store
    from memdesk.core.store import Store

    try:
        require_store(args.db, create=args.create)
        store = Store.open(args.db)
    except MemDeskError as exc:
        return fail(str(exc))
    try:
        return run_guarded(lambda: args.func(args, store), db_path=store.path or store.location)
    finally:
        store.close()
