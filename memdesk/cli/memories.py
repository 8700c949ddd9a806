"""`memdesk add | show | edit | list | delete | restore | purge | stats | clean`: the memories themselves."""

from __future__ import annotations

import sys

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.domain.records import SCOPES, TIERS, TYPES
from memdesk.core.domain.times import days_from_now, parse_time
from memdesk.core.views.ids import resolve_memory_id
from memdesk.core.views.queries import SORTS, STATES

from .format import memory_details, memory_line
from .options import add_command
from .output import print_json


def persona_names(store) -> dict:
    return {p.id: p.name for p in store.personas()}


def _expiry(text):
    """'7d' / '12h' / a number of days, or a date/time."""
    if text is None:
        return None
    value = text.strip().lower()
    try:
        if value.endswith("d"):
            return days_from_now(float(value[:-1]))
        if value.endswith("h"):
            return days_from_now(float(value[:-1]) / 24)
        return parse_time(text, field="expires")
    except ValueError as exc:
        raise MemDeskError(f"--expires: {exc}; use e.g. 7d, 12h or 2026-12-31") from None


def _content_arg(value):
    return sys.stdin.read() if value == "-" else value


def _memory_fields(args, store) -> dict:
    fields = {}
    for name in ("title", "summary", "group", "type", "scope", "importance", "dedup_key"):
        value = getattr(args, name, None)
        if value is not None:
            fields[name] = value
    if getattr(args, "content", None) is not None:
        fields["content"] = _content_arg(args.content)
    if getattr(args, "tags", None) is not None:
        fields["tags"] = args.tags
    if getattr(args, "persona", None) is not None:
        fields["persona_id"] = store.resolve_persona(args.persona)
    if getattr(args, "expires", None) is not None:
        fields["expires_at"] = None if args.expires in ("", "never") else _expiry(args.expires)
    return fields


def _embed(store, changes) -> None:
    """The memory's vector now, with the active model (as an assistant's save does)."""
    from memdesk.core.embed import embed_written

    try:
        embed_written(store, changes)
    except MemDeskError as exc:
        print(f"warning: {exc}; `memdesk maintain --task reembed` retries", file=sys.stderr)


def cmd_add(args, store) -> int:
    fields = _memory_fields(args, store)
    if args.upsert:
        changes = store.upsert(reason="edit", source="manual", **fields)
        memory_id = (changes.added or changes.updated)[0]
    else:
        changes = store.add(source="manual", **fields)
        memory_id = changes.added[0]
    _embed(store, changes)
    record = store.get(memory_id)
    if args.json:
        print_json(record.to_json())
    else:
        print(f"added {record.id}" if not args.upsert else f"saved {record.id}")
    return 0


def cmd_show(args, store) -> int:
    record = store.get(resolve_memory_id(store, args.id))
    revisions = store.revisions(record.id)
    if args.json:
        data = record.to_json()
        data["revisions"] = [r.to_json() for r in revisions]
        print_json(data)
    else:
        print(memory_details(record, persona_names(store), revisions))
    return 0


def cmd_edit(args, store) -> int:
    current = store.get(resolve_memory_id(store, args.id))
    fields = _memory_fields(args, store)
    if not fields:
        raise MemDeskError("nothing to change: give at least one of --title, --content, --group, ...")
    changes = store.update(current.id, expected_version=current.version, **fields)
    _embed(store, changes)
    record = store.get(current.id)
    if args.json:
        print_json(record.to_json())
    else:
        print(f"updated {record.id} (version {record.version})" if changes else "no change")
    return 0


def _filters(args, store) -> dict:
    filters = {"state": args.state}
    if args.persona is not None:
        filters["persona"] = store.resolve_persona(args.persona) or ""
        filters["merge_global"] = not args.only_persona
    for name in ("group", "tag", "type", "scope", "tier"):
        if getattr(args, name) is not None:
            filters[name] = getattr(args, name)
    if args.min_importance is not None:
        filters["importance_min"] = args.min_importance
    if args.max_importance is not None:
        filters["importance_max"] = args.max_importance
    return filters


def cmd_list(args, store) -> int:
    records = store.list(
        sort=args.sort, descending=not args.asc, offset=args.offset, limit=args.limit, **_filters(args, store)
    )
    if args.json:
        print_json([r.to_json() for r in records])
    else:
        names = persona_names(store)
        for record in records:
            print(memory_line(record, names))
        if not records:
            print("no memories", file=sys.stderr)
    return 0


def _apply_ids(args, store, action: str) -> int:
    # restore and purge act on the trash, delete on what is not in it: a prefix only looks there
    where = "live" if action == "delete" else "trash"
    ids = [resolve_memory_id(store, text, where=where) for text in args.ids]  # all resolve, or nothing changes
    changes = getattr(store, action)(ids)
    done = {"delete": changes.deleted, "restore": changes.restored, "purge": changes.purged}[action]
    if args.json:
        print_json({"ids": list(done)})
    else:
        past = {"delete": "moved to the trash", "restore": "restored", "purge": "purged"}[action]
        print(f"{len(done)} {past}" + (f": {', '.join(done)}" if done else ""))
    return 0


def cmd_stats(args, store) -> int:
    from memdesk.core.views.stats import overview

    stats = overview(store)  # the same call the window's statistics view makes
    if args.json:
        print_json(stats)
        return 0
    charts = stats.pop("charts")
    for key, value in stats.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for name, count in value.items():
                print(f"    {name or '(none)'}: {count}")
        else:
            print(f"{key}: {value}")
    print(f"in use, by tag (top {len(charts['tag'])}):")
    for bar in charts["tag"]:
        print(f"    {bar['label']}: {bar['count']}")
    heat = charts["heat"]
    print(
        "in use, by heat: "
        + ", ".join(f"{lo:g}-{hi:g}: {n}" for lo, hi, n in zip(heat["edges"], heat["edges"][1:], heat["counts"]))
    )
    weekly = charts["weekly"]
    added = {source: sum(weekly[source]) for source in ("manual", "ai", "import")}
    print(
        f"added in the last {len(weekly['weeks'])} weeks (in use): "
        + ", ".join(f"{source} {n}" for source, n in added.items())
    )
    return 0


def cmd_clean(args, store) -> int:
    changes = store.clean(trash_days=args.trash_days)
    result = {"expired_to_trash": len(changes.deleted), "purged": len(changes.purged)}
    if args.json:
        print_json(result)
    else:
        print(
            f"{result['expired_to_trash']} expired memories moved to the trash; "
            f"{result['purged']} purged from the trash"
        )
    return 0


def _add_filter_args(p) -> None:
    p.add_argument("--persona", help="persona name (its memories plus global ones); 'global' for global only")
    p.add_argument("--only-persona", action="store_true", help="leave out global memories")
    p.add_argument("--group")
    p.add_argument("--tag")
    p.add_argument("--type", choices=TYPES)
    p.add_argument("--scope", choices=SCOPES)
    p.add_argument("--tier", choices=TIERS)
    p.add_argument("--state", choices=STATES, default="active")
    p.add_argument("--min-importance", type=int)
    p.add_argument("--max-importance", type=int)


def _add_memory_args(p, *, content_required: bool) -> None:
    p.add_argument("--content", required=content_required, help="the memory text ('-' reads stdin)")
    p.add_argument("--title")
    p.add_argument("--summary")
    p.add_argument("--group")
    p.add_argument("--tags", help="comma-separated (，、 work too)")
    p.add_argument("--type", choices=TYPES)
    p.add_argument("--scope", choices=SCOPES)
    p.add_argument("--importance", type=int, help="1–10")
    p.add_argument("--persona", help="persona name; omit or 'global' for a global memory")
    p.add_argument("--expires", help="7d, 12h, a date, or 'never'")
    p.add_argument("--dedup-key", dest="dedup_key")


def register(sub) -> None:
    p = add_command(sub, "add", cmd_add, "add a memory")
    _add_memory_args(p, content_required=True)
    p.add_argument("--upsert", action="store_true", help="update the memory with the same --dedup-key instead")
    p = add_command(sub, "show", cmd_show, "show one memory with its history")
    p.add_argument("id", help="the memory's id, or a unique prefix of it (4 characters or more)")
    p = add_command(sub, "edit", cmd_edit, "change fields of a memory")
    p.add_argument("id", help="the memory's id, or a unique prefix of it (4 characters or more)")
    _add_memory_args(p, content_required=False)
    p = add_command(sub, "list", cmd_list, "list memories")
    _add_filter_args(p)
    p.add_argument("--sort", choices=SORTS, default="updated_at")
    p.add_argument("--asc", action="store_true")
    p.add_argument("--limit", type=int)
    p.add_argument("--offset", type=int, default=0)
    for name, text in (
        ("delete", "move memories to the trash"),
        ("restore", "restore from the trash"),
        ("purge", "remove memories from the trash for good"),
    ):
        p = add_command(sub, name, lambda a, s, n=name: _apply_ids(a, s, n), text)
        p.add_argument("ids", nargs="+", metavar="ID", help="ids, or unique prefixes of 4 characters or more")
    add_command(
        sub, "stats", cmd_stats, "counts by persona, group, type, scope, tier, tag, heat and week (--json: all figures)"
    )
    p = add_command(sub, "clean", cmd_clean, "expire short-term memories; purge old trash")
    p.add_argument(
        "--trash-days",
        type=int,
        help="purge what has been in the trash longer (default: the window's setting, else 30)",
    )
