"""Global options, accepted before or after the subcommand.

`memdesk --db x.db list`, `memdesk list --db x.db` and `memdesk mcp --db x.db` (the way MCP
client configurations are usually written) all work; so does `--json` on either side of the
command, for commands that have it.

How: each option is defined once, below (db_option, json_option). build_parser adds them to
the top-level parser, and add_everywhere() adds them to every command and action parser.
The catch is that argparse copies a subparser's defaults over the namespace the top-level
parser filled, so a plain default (None/False) on `list` would wipe out a `--db x.db` given
before it. Hence:
- --db (and --create) below the top level have default=argparse.SUPPRESS: set only when typed there.
- --json on a command keeps its plain default False (a command's handler may run with a
  parser built from its register() alone, as tests do), so before the command it is stored
  under another name, json_first, and finish() folds it in. An action under a command with
  --json (`persona list --json`) gets it with SUPPRESS, so `persona --json list` holds too.
(parse_known_args with a hand-written pre-scan of argv would also work, but cannot tell
`--db` the option from `--db` as the value of --content.)
"""

from __future__ import annotations

import argparse

_JSON_MARK = "_memdesk_json"  # set on parsers of commands that have JSON output


def db_option(parser, *, default=argparse.SUPPRESS) -> None:
    """--db, and --create beside it: a --db (or MEMDESK_DB) file that does not exist is refused
    unless --create is given (core/location.require_store)."""
    parser.add_argument(
        "--db", metavar="FILE", default=default, help="database file (default: $MEMDESK_DB or the user data directory)"
    )
    parser.add_argument(
        "--create",
        action="store_true",
        default=False if default is None else argparse.SUPPRESS,
        help="make the --db file if it does not exist (else that is an error)",
    )


def json_option(parser, *, default=False, dest="json") -> None:
    """A command's --json; register code calls this for each command that has JSON output."""
    parser.add_argument("--json", action="store_true", default=default, dest=dest, help="machine-readable output")
    setattr(parser, _JSON_MARK, True)


def add_global(parser) -> None:
    """The top-level parser: --db, and --json for whichever command follows."""
    db_option(parser, default=None)
    json_option(parser, dest="json_first")


def _subparsers(parser) -> list:
    # argparse has no public way to walk the parser tree; _actions is stable since Python 3.2
    return [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]


def add_everywhere(parser, *, has_json: bool = False) -> None:
    """Give every command and action parser under ``parser`` --db, and --json where the command has it."""
    for group in _subparsers(parser):
        for child in dict.fromkeys(group.choices.values()):  # aliases would repeat a parser
            db_option(child)
            marked = getattr(child, _JSON_MARK, False)
            if has_json and not marked:
                json_option(child, default=argparse.SUPPRESS)
            child.set_defaults(json_supported=has_json or marked)
            add_everywhere(child, has_json=has_json or marked)


def finish(parser, args) -> None:
    """Fold a --json given before the command into args.json; refuse it where the command has none."""
    first = getattr(args, "json_first", False)
    if first and not getattr(args, "json_supported", False):
        command = f"`memdesk {args.command}`" if args.command else "starting the window"
        parser.error(f"--json: {command} has no JSON output")
    args.json = getattr(args, "json", False) or first


def add_command(sub, name: str, func, help_text: str):
    """A command parser under ``sub`` that runs ``func(args, store)``, with --json."""
    p = sub.add_parser(name, help=help_text)
    p.set_defaults(func=func)
    json_option(p)
    return p
