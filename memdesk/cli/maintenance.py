"""`memdesk maintain` and `memdesk proposals`: maintenance runs, their reports, the merge inbox.

register(subparsers) adds the commands; each handler gets (args, store) and
returns an exit code. Ctrl-C during a run cancels the current task (its
writes roll back) and still stores the report.
"""

from __future__ import annotations

import signal
import sys
import threading

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.maintenance import TASKS, dismiss, keep_both, last_reports, merge_proposal, proposals, run_maintenance

from .options import json_option
from .output import print_json


def _counts(counts: dict) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items())


def _print_report(report: dict) -> None:
    state = "cancelled" if report.get("cancelled") else "ok" if report.get("ok") else "with failures"
    print(
        f"maintenance at {report.get('started_at')}: {len(report.get('tasks', []))} tasks, "
        f"{report.get('seconds')} s, {state}"
    )
    for task in report.get("tasks", []):
        line = f"  {task['name']:<12} {task['status']:<9} {task['seconds']:>7.2f} s  {_counts(task['counts'])}"
        print(line.rstrip() + (f"  ({task['message']})" if task.get("message") else ""))
        moves = task.get("details", {}).get("moves")
        if moves:
            print("               tier moves: " + _counts(moves))
        groups = task.get("details", {}).get("groups")
        if task["name"] == "duplicates" and groups:
            for group in groups[:10]:
                print("               same text: " + (", ".join(group) if isinstance(group, list) else group))


def _embedder_for(names):
    if not names or "reembed" not in names:
        return None
    from memdesk.core.embed import active_embedder  # local: model discovery only when asked to re-embed

    embedder, hint = active_embedder()
    if embedder is None:
        print(f"reembed skipped: {hint}", file=sys.stderr)
    return embedder


def cmd_maintain(args, store) -> int:
    if args.report:
        reports = last_reports(store, args.last)
        if args.json:
            print_json(reports)
        elif not reports:
            print("no maintenance has run on this database yet")
        for report in [] if args.json else reports:
            _print_report(report)
        return 0
    stop = threading.Event()
    previous = (
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        if threading.current_thread() is threading.main_thread()
        else None
    )
    try:
        report = run_maintenance(
            store, args.task or None, cancel=stop.is_set, embedder=_embedder_for(args.task), trash_days=args.trash_days
        )
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if args.json:
        print_json(report.to_json())
    else:
        _print_report(report.to_json())
    return 1 if report.cancelled else 0


def cmd_proposals(args, store) -> int:
    action = args.action or "list"
    if action == "list":
        found = proposals(store)
        if args.json:
            print_json([dict(p.to_json(), stale=p.stale) for p in found])
            return 0
        if not found:
            print("no merge proposals (run `memdesk maintain --task consolidate`)")
        for p in found:
            print(
                f"{p.id}  {p.kind} {p.score:.2f}  {len(p.memory_ids)} memories"
                + ("  (changed since proposed)" if p.stale else "")
            )
            for memory_id in p.memory_ids:
                print(f"    {memory_id}")
            print(f"    suggested: {p.suggested_content[:80]}")
        return 0
    if not args.id:
        raise MemDeskError(f"proposals {action} needs a proposal id (see `memdesk proposals list`)")
    if action == "merge":
        content = sys.stdin.read() if args.content == "-" else args.content
        merged_id, changes = merge_proposal(store, args.id, content=content, title=args.title)
        result = {"merged": merged_id, "superseded": [i for i in changes.updated if i != merged_id]}
    elif action == "keep":
        result = {"kept": keep_both(store, args.id)}
    else:
        result = {"dismissed": dismiss(store, args.id)}
    if args.json:
        print_json(result)
    else:
        print(", ".join(f"{k}: {v if not isinstance(v, list) else ', '.join(v)}" for k, v in result.items()))
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "maintain",
        help="run maintenance (expiry, trash, heat, importance, duplicates, "
        "merge proposals, optimize) or show its reports",
    )
    p.set_defaults(func=cmd_maintain)
    p.add_argument(
        "--task",
        action="append",
        choices=list(TASKS),
        metavar="NAME",
        help="run only this task (repeatable): " + ", ".join(TASKS),
    )
    p.add_argument(
        "--trash-days", type=int, help="purge trash older than this (default: the window's setting, else 30)"
    )
    p.add_argument("--report", action="store_true", help="show the stored reports of earlier runs")
    p.add_argument("--last", type=int, help="with --report: only the newest N")
    json_option(p)
    p = subparsers.add_parser("proposals", help="the merge inbox: list, merge, keep both, dismiss")
    p.set_defaults(func=cmd_proposals)
    p.add_argument("action", nargs="?", choices=("list", "merge", "keep", "dismiss"))
    p.add_argument("id", nargs="?", help="proposal id, or a unique prefix of it (4 characters or more)")
    p.add_argument("--content", help="merge: the merged text ('-' reads stdin; default: the suggestion)")
    p.add_argument("--title", help="merge: the merged title")
    json_option(p)
