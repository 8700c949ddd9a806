"""CLI commands for assistants: `mcp`, `tools schema|log|revert`, `brief`."""

from __future__ import annotations

import argparse
import sys

from .options import json_option
from .output import print_json


def cmd_mcp(args) -> int:
    from memdesk.mcp_server import serve

    return serve(db=args.db, persona=args.persona, create=args.create)


def cmd_tools(args, store) -> int:
    from memdesk.core.tools import log
    from memdesk.core.tools.schemas import TOOLS

    if args.tools_cmd == "schema":
        print_json(TOOLS)
        return 0
    if args.tools_cmd == "log":
        entries = log.calls(limit=args.limit)
        if args.json:
            print_json([e.to_json() for e in entries])
        else:
            for e in entries:
                status = "ok" if e.ok else "error"
                reverted = " (reverted)" if e.reverted_at else ""
                touched = ", ".join(f"{x['action']} {x['id'][:8]}" for x in e.effects) or "-"
                print(f"{e.id:>5}  {e.at:%Y-%m-%d %H:%M:%S}  {e.tool:<14} {status:<5} {touched}{reverted}")
        return 0
    with store.write():
        changes = log.revert(args.call_id)
    if args.json:
        print_json({"reverted": args.call_id, "memories": list(changes.memory_ids)})
    else:
        print(f"reverted tool call {args.call_id} ({len(changes.memory_ids)} memories)")
    return 0


def cmd_brief(args, store) -> int:
    from memdesk.core.tools.service import MemoryTools, brief_for

    tools = MemoryTools(store, persona=args.persona, client="cli")
    brief = brief_for(tools, message=args.message, budget=args.budget, record_access=not args.preview)
    if args.json:
        print_json(
            {
                "text": brief.text,
                "tokens": brief.tokens,
                "counted_with": brief.counted_with,
                "enabled": brief.enabled,
                "long_term": list(brief.long_term),
                "short_term": list(brief.short_term),
            }
        )
    elif not brief.enabled:
        print("memory is switched off for this persona (autoSaveMemory)", file=sys.stderr)
    else:
        print(brief.text or "(no memories)")
        print(f"[{brief.tokens} tokens, {brief.counted_with}]", file=sys.stderr)
    return 0


def _call_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a tool call number; `memdesk tools log` lists them (the first column)"
        ) from None


def register(sub) -> None:
    p = sub.add_parser("mcp", help="serve the memory tools to an assistant over MCP (stdio)")
    p.add_argument("--persona", help="act as this persona (default: global memories)")
    p.set_defaults(func=cmd_mcp, needs_store=False)

    p = sub.add_parser("tools", help="assistant tools: JSON schemas, call log, revert a call")
    json_option(p)
    tsub = p.add_subparsers(dest="tools_cmd", required=True, metavar="ACTION")
    tsub.add_parser("schema", help="print the tools' JSON Schemas (OpenAI function-calling form)")
    tl = tsub.add_parser("log", help="recent tool calls")
    tl.add_argument("--limit", type=int, default=50)
    tr = tsub.add_parser("revert", help="undo what one tool call did")
    tr.add_argument(
        "call_id",
        type=_call_number,
        metavar="CALL",
        help="the call's number from `memdesk tools log` (a number, not a memory id)",
    )
    p.set_defaults(func=cmd_tools)

    p = sub.add_parser("brief", help="the memory brief an assistant receives")
    json_option(p)
    p.add_argument("--persona")
    p.add_argument("--message", help="the user's current message (ranks memories by it)")
    p.add_argument("--budget", type=int, default=1200, help="token budget (default 1200)")
    p.add_argument("--preview", action="store_true", help="do not count this as an access")
    p.set_defaults(func=cmd_brief)
