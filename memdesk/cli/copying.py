"""`memdesk copy SRC DST [--merge]`: a whole store to another one, SQLite or PostgreSQL, checked by
counts and a content checksum (core/transfer says what is copied and what --merge does)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import peewee

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.storage.location import is_url, redact, scrub

from .options import json_option
from .output import fail, print_json, run_guarded

BIG = 5000  # rows: below this a copy takes a moment and says nothing on the way
_OTHER_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")


def _target(text: str, *, source: bool):
    """A path or URL as Store.open takes it; a clear error for what it cannot be."""
    if is_url(text):
        return text.strip()
    if _OTHER_SCHEME.match(text.strip()):
        raise MemDeskError(f"{redact(text.split('?')[0])}: not a SQLite file path or a postgresql:// URL")
    path = Path(text).expanduser()
    if source and not path.is_file():
        raise MemDeskError(f"{path} does not exist" if not path.exists() else f"{path} is not a file")
    if path.is_dir():
        raise MemDeskError(f"{path} is a folder; give the database file's path")
    return path


class _Progress:
    """Lines on stderr, at most one a second, for a copy of BIG rows or more."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.last = 0.0
        self.big = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage == "copy":
            self.big = total >= BIG
        if self.quiet or not self.big:
            return
        now = time.monotonic()
        if stage == "copy":
            if now - self.last < 1.0 and done < total:
                return
            print(f"copying… {done:,} of {total:,} rows ({100 * done // max(total, 1)}%)", file=sys.stderr)
        elif stage == "check":
            print("checking counts and checksum…", file=sys.stderr)
        elif stage == "index":
            print(f"building the target's search index ({total:,} memories)…", file=sys.stderr)
        self.last = now


def _print_report(report) -> None:
    kind = "merged" if report.merge else "copied"
    print(f"{kind} {report.source} -> {report.target} in {report.seconds:.1f} s")
    print(f"  {'table':<14}{'copied':>10}{'skipped':>10}")
    for name, n in report.copied.items():
        skipped = report.skipped.get(name, 0)
        print(f"  {name:<14}{n:>10,}{(f'{skipped:,}' if skipped else ''):>10}")
    if report.merge:
        print(f"  target checksum (sha256): {report.target_summary.checksum}")
        if report.mapped_personas:
            print(f"  personas joined by name: {len(report.mapped_personas)}")
        if any(report.skipped.values()):
            print("  skipped: already in the target (same id or dedup key); the target's version was kept")
    else:
        print(f"  checksum (sha256): {report.source_summary.checksum}")
        print("    source and target: identical (counts per table and content)")
    noun = "memory" if report.indexed == 1 else "memories"
    what = "rebuilt" if not report.merge else "updated"
    print(f"  search index: {what} in the target ({report.indexed:,} {noun} cut)")


def _report_json(report) -> dict:
    return {
        "source": report.source,
        "target": report.target,
        "merge": report.merge,
        "copied": report.copied,
        "skipped": report.skipped,
        "source_checksum": report.source_summary.checksum if report.source_summary else None,
        "target_checksum": report.target_summary.checksum if report.target_summary else None,
        "target_counts": report.target_summary.counts if report.target_summary else None,
        "search_index": "rebuilt",
        "seconds": round(report.seconds, 3),
    }


def cmd_copy(args) -> int:
    from memdesk.core.io.transfer import copy_store
    from memdesk.core.store import Store

    try:
        source = _target(args.source, source=True)
        target = _target(args.target, source=False)
    except MemDeskError as exc:
        return fail(str(exc))
    opened = []
    try:
        for where in (source, target):
            opened.append(Store.open(where))
        src, dst = opened

        def run() -> int:
            report = copy_store(src, dst, merge=args.merge, progress=_Progress(quiet=args.json))
            print_json(_report_json(report)) if args.json else _print_report(report)
            return 0

        try:
            return run_guarded(run, interrupted="copy interrupted; the target was not changed")
        except peewee.DatabaseError as exc:  # on either side: say which, never the password
            detail = " ".join(str(exc).split())
            for where in (args.source, args.target):
                detail = scrub(detail, where) if is_url(where) else detail
            return fail(f"the copy failed and was rolled back; the target was not changed ({detail})")
    except MemDeskError as exc:
        return fail(str(exc))
    finally:
        for store in opened:
            store.close()


def register(sub) -> None:
    p = sub.add_parser(
        "copy",
        help="copy a whole store to another (SQLite file or postgresql:// URL), checked by a checksum",
        description=(
            "Copy every memory (ids, history, trash), persona, vector, setting and tool call from SRC to DST. "
            "DST must be empty unless --merge; the copy is one transaction, checked (row counts per table and a "
            "sha256 of the content, printed) before it commits. The search index is rebuilt in DST."
        ),
    )
    p.add_argument("source", metavar="SRC", help="a database file or a postgresql:// URL")
    p.add_argument("target", metavar="DST", help="a database file (created if missing) or a postgresql:// URL")
    p.add_argument(
        "--merge",
        action="store_true",
        help="DST may hold data: add what it lacks; where ids or dedup keys clash, DST's version is kept",
    )
    json_option(p)
    p.set_defaults(func=cmd_copy, needs_store=False)
