"""Global options, accepted before or after the subcommand.

`memdesk --db x.db list`, `memdesk list --db x.db` and `memdesk mcp --db x.db` (the way MCP
client configurations are usually written) all work; so does `--json` on either side of the
command, for commands that have it.

How: each option is defined once, below. build_parser adds it to the top-level parser with a
real default, and add_everywhere() then adds it to every command and action parser with
default=argparse.SUPPRESS. The SUPPRESS matters: argparse copies a subparser's defaults over
the namespace the top-level parser filled, so a plain default (None/False) would wipe out a
`--db x.db` given before the command. With SUPPRESS the subparser sets the value only when
the option is typed after the command. (parse_known_args with a hand-written pre-scan would
also work, but it cannot tell `--db` the option from `--db` as the value of --content.)
A command has --json when its register code calls json_option(parser); its actions (e.g.
`persona list`) inherit it.
"""
from __future__ import annotations

import argparse

_JSON_MARK = "_memdesk_json"  # set on parsers of commands that have JSON output


def db_option(parser, *, default=argparse.SUPPRESS) -> None:
    parser.add_argument("--db", metavar="FILE", default=default,
                        help="database file (default: $MEMDESK_DB or the user data directory)")


def json_option(parser, *, default=argparse.SUPPRESS) -> None:
    parser.add_argument("--json", action="store_true", default=default, help="machine-readable output")
    setattr(parser, _JSON_MARK, True)


def add_global(parser) -> None:
    """The top-level parser: the options with their real defaults."""
    db_option(parser, default=None)
    parser.add_argument("--json", action="store_true", default=False,
                        help="machine-readable output, for the commands that have it")


def _subparsers(parser) -> list:
    return [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]


def add_everywhere(parser, *, has_json: bool = False) -> None:
    """Give every command and action parser under ``parser`` --db, and --json where the command has it."""
    for group in _subparsers(parser):
        for child in dict.fromkeys(group.choices.values()):  # aliases would repeat a parser
            db_option(child)
            child_json = has_json or getattr(child, _JSON_MARK, False)
            if child_json and not getattr(child, _JSON_MARK, False):
                json_option(child)
            child.set_defaults(json_supported=child_json)
            add_everywhere(child, has_json=child_json)


def check(parser, args) -> None:
    """`memdesk --json mcp`: refuse --json before a command that has no JSON output."""
    if args.json and not getattr(args, "json_supported", False):
        command = f"`memdesk {args.command}`" if args.command else "starting the window"
        parser.error(f"--json: {command} has no JSON output")
