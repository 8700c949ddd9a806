"""The `memdesk` program: a command when one is given, otherwise the window (or its self-test).

The command line (memdesk.cli) never imports the window, so an assistant's `memdesk search`
loads no Qt; this module is where the two meet.
"""

from __future__ import annotations

import sys

from .cli.run import main as command_line


def main(argv=None) -> int:
    return command_line(argv, without_command=_window)


def _window(args) -> int:
    if args.self_test:
        from .selftest import run_self_test

        return run_self_test()
    try:
        from .gui.main import main as gui_main
    except ImportError as exc:
        print(f"memdesk: the window cannot start: {exc}", file=sys.stderr)
        return 1
    return gui_main(db=args.db, create=args.create)
