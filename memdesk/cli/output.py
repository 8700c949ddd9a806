"""What every command shares on the way out: the JSON printer and the error -> exit-code rule.

Exit codes: 0 ok; 1 a user error, a refused or cancelled run, or a damaged database (one line
on stderr, "memdesk: error: ..."); 2 bad usage (argparse). A closed pipe (`memdesk list | head`)
is not an error.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import peewee

from memdesk.core.domain.errors import MemDeskError


def print_json(value) -> None:
    """Every --json output: UTF-8 text as is (Chinese stays readable), indented, one trailing newline."""
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def fail(message: str) -> int:
    print(f"memdesk: error: {message}", file=sys.stderr)
    return 1


def run_guarded(call: Callable[[], int], *, db_path: Path | str | None = None, interrupted: str | None = None) -> int:
    """Run a command's handler under the one rule. ``db_path``: the command read this database,
    so a SQLite error means the file is damaged (a str: a PostgreSQL store's redacted URL, where
    it means the server failed or went away). ``interrupted``: what Ctrl-C left behind, for
    commands that handle it (others stop with Python's traceback-free KeyboardInterrupt exit)."""
    try:
        return call()
    except MemDeskError as exc:  # CancelledError included
        return fail(str(exc))
    except (peewee.DatabaseError, sqlite3.DatabaseError) as exc:
        if db_path is None:
            raise
        if isinstance(db_path, str):
            detail = " ".join(str(exc).split())  # libpq's text spans lines
            return fail(f"the database {db_path} failed: {detail}")
        return fail(
            f"the database {db_path} cannot be read ({exc}). It may be damaged: "
            "see `memdesk backup list` and `memdesk backup restore N --yes`."
        )
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        if interrupted is None:
            raise
        return fail(interrupted)


def guarded(*, interrupted: str | None = None):
    """The rule as a decorator, for handlers that run without a store (they may be called directly)."""

    def wrap(handler):
        @functools.wraps(handler)
        def run(args) -> int:
            return run_guarded(lambda: handler(args), interrupted=interrupted)

        return run

    return wrap
