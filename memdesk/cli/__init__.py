"""The `memdesk` command line: one module per command family, each with its register(sub).

run.py builds the parser and holds main(); output.py the one JSON printer and the one rule
from errors to exit codes; options.py the global options (--db, --json on either side of the
command); format.py the human-readable output.
"""

from .run import build_parser, main

__all__ = ["build_parser", "main"]
