"""Starting the desktop window (plain `memdesk`)."""

from __future__ import annotations

import sys


def run_gui(*, db=None, self_test: bool = False, create: bool = False) -> int:
    try:
        from .gui.main import main as gui_main
    except ImportError as exc:
        print(f"memdesk: the window cannot start: {exc}", file=sys.stderr)
        return 1
    return gui_main(db=db, self_test=self_test, create=create)
