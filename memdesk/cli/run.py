"""`memdesk` command line: the store's operations for people and scripts.

Exit codes: 0 ok, 1 a user error (message on stderr), 2 bad usage (argparse).
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys

import peewee

from . import __version__
from .cli_format import memory_details, memory_line, why_found, why_missing
from .cli_options import add_everywhere, add_global, json_option
from .cli_options import finish as finish_global
from .core.changes import Changes
from .core.errors import MemDeskError, ValidationError
from .core.ids import resolve_memory_id
from .core.io.export import EXPORT_FORMATS, export_file, export_text
from .core.io.personas import GLOBAL_WORDS, Choice
from .core.io.plan import FORMATS, apply_import, plan_file
from .core.queries import ALL, GLOBAL, SORTS, STATES
from .core.records import SCOPES, TIERS, TYPES
from .core.store import Store
from .core.times import days_from_now, parse_time


def _print_json(value) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def _persona_names(store) -> dict:
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


def cmd_add(args, store) -> int:
    fields = _memory_fields(args, store)
    if args.upsert:
        changes = store.upsert(reason="edit", source="manual", **fields)
        memory_id = (changes.added or changes.updated)[0]
    else:
        memory_id = store.add(source="manual", **fields).added[0]
    record = store.get(memory_id)
    if args.json:
        _print_json(record.to_json())
    else:
        print(f"added {record.id}" if not args.upsert else f"saved {record.id}")
    return 0


def cmd_show(args, store) -> int:
    record = store.get(resolve_memory_id(store, args.id))
    revisions = store.revisions(record.id)
    if args.json:
        data = record.to_json()
        data["revisions"] = [r.to_json() for r in revisions]
        _print_json(data)
    else:
        print(memory_details(record, _persona_names(store), revisions))
    return 0


def cmd_edit(args, store) -> int:
    current = store.get(resolve_memory_id(store, args.id))
    fields = _memory_fields(args, store)
    if not fields:
        raise MemDeskError("nothing to change: give at least one of --title, --content, --group, ...")
    changes = store.update(current.id, expected_version=current.version, **fields)
    record = store.get(current.id)
    if args.json:
        _print_json(record.to_json())
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
    records = store.list(sort=args.sort, descending=not args.asc, offset=args.offset, limit=args.limit,
                         **_filters(args, store))
    if args.json:
        _print_json([r.to_json() for r in records])
    else:
        names = _persona_names(store)
        for record in records:
            print(memory_line(record, names))
        if not records:
            print("no memories", file=sys.stderr)
    return 0


def _index_progress(done: int, total: int) -> None:
    """Only an upgraded store has memories left to cut; say how far that got."""
    if total and done < total:
        print(f"\rbuilding the search index (once, after an upgrade): {done} of {total}",
              end="", file=sys.stderr, flush=True)
    elif total:
        print(f"\rbuilding the search index (once, after an upgrade): {total} of {total}", file=sys.stderr)


def cmd_search(args, store) -> int:
    from .core.embed import active_embedder
    from .core.search import SearchEngine

    # --why: resolve first (a bad id fails before the index is built); is:deleted finds the trash too
    memory_id = resolve_memory_id(store, args.why) if args.why else None
    embedder, hint = (None, "") if args.keyword_only else active_embedder()
    engine = SearchEngine(store, embedder)
    engine.build(progress=_index_progress)
    persona = "" if args.persona is None else (store.resolve_persona(args.persona) or "")
    persona = None if args.persona is None else persona
    result = engine.search(args.query, persona=persona, limit=args.limit)
    if memory_id:
        miss = engine.explain_missing(args.query, memory_id, persona=persona, limit=args.limit)
        if args.json:
            _print_json(miss.to_json())
            return 0
        print(memory_line(store.get(memory_id), _persona_names(store)))
        hit = next((h for h in result.hits if h.record.id == memory_id), None)
        print(why_found(hit, args.query) if hit is not None else why_missing(miss, args.query))
        return 0
    if args.json:
        out = []
        for hit in result.hits:
            item = hit.record.to_json()
            item["score"] = hit.score
            if args.explain:
                item["explain"] = hit.explain.to_json()
            out.append(item)
        _print_json(out)
    else:
        names = _persona_names(store)
        for hit in result.hits:
            print(f"{hit.score:6.3f}  " + memory_line(hit.record, names))
            if args.explain:
                print("        " + hit.explain.describe().replace("\n", "\n        "))
        note = (hint or result.notice) if not result.semantic else result.notice
        print(f"{len(result.hits)} of {result.total} shown; query: {result.query}" + (f"\n{note}" if note else ""),
              file=sys.stderr)
    return 0


def _apply_ids(args, store, action: str) -> int:
    # restore and purge act on the trash, delete on what is not in it: a prefix only looks there
    where = "live" if action == "delete" else "trash"
    ids = [resolve_memory_id(store, text, where=where) for text in args.ids]  # all resolve, or nothing changes
    changes = getattr(store, action)(ids)
    done = {"delete": changes.deleted, "restore": changes.restored, "purge": changes.purged}[action]
    if args.json:
        _print_json({"ids": list(done)})
    else:
        past = {"delete": "moved to the trash", "restore": "restored", "purge": "purged"}[action]
        print(f"{len(done)} {past}" + (f": {', '.join(done)}" if done else ""))
    return 0


def cmd_persona(args, store) -> int:
    if args.persona_cmd == "list":
        personas = store.personas()
        if args.json:
            _print_json([p.to_json() for p in personas])
        else:
            for p in personas:
                print(f"{p.name}\t{p.id}\t{p.colour}\t{p.description}")
        return 0
    if args.persona_cmd == "add":
        persona_id, _ = store.create_persona(name=args.name, description=args.description or "",
                                             colour=args.colour or "")
        result = store.persona(persona_id)
    elif args.persona_cmd == "rename":
        persona_id = store.resolve_persona(args.name)
        store.rename_persona(persona_id, args.new_name)
        result = store.persona(persona_id)
    else:
        persona_id = store.resolve_persona(args.name)
        result = store.persona(persona_id)
        changes = store.delete_persona(persona_id, memories=args.memories)
        moved = len(changes.deleted) if args.memories == "trash" else len(changes.updated)
        if args.json:
            _print_json({"deleted": result.to_json(), "memories": moved, "policy": args.memories})
        else:
            where = "moved to the trash" if args.memories == "trash" else "made global"
            print(f"deleted persona {result.name}; {moved} memories {where}")
        return 0
    if args.json:
        _print_json(result.to_json())
    else:
        print(f"{result.name}\t{result.id}")
    return 0


def cmd_stats(args, store) -> int:
    from .core.stats import overview

    stats = overview(store)  # the same call the window's statistics view makes
    if args.json:
        _print_json(stats)
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
    print("in use, by heat: " + ", ".join(
        f"{lo:g}-{hi:g}: {n}" for lo, hi, n in zip(heat["edges"], heat["edges"][1:], heat["counts"])))
    weekly = charts["weekly"]
    added = {source: sum(weekly[source]) for source in ("manual", "ai", "import")}
    print(f"added in the last {len(weekly['weeks'])} weeks (in use): "
          + ", ".join(f"{source} {n}" for source, n in added.items()))
    return 0


def cmd_clean(args, store) -> int:
    changes = store.clean(trash_days=args.trash_days)
    result = {"expired_to_trash": len(changes.deleted), "purged": len(changes.purged)}
    if args.json:
        _print_json(result)
    else:
        print(f"{result['expired_to_trash']} expired memories moved to the trash; "
              f"{result['purged']} purged from the trash")
    return 0


def cmd_export(args, store) -> int:
    persona = ALL
    if args.persona:
        persona = store.resolve_persona(args.persona) or GLOBAL  # 'global': global memories only
    options = {"format": args.format, "persona": persona, "group": args.group,
               "state": "active" if args.no_trash else None}
    if args.file in (None, "-"):
        text, _ = export_text(store, **options)
        sys.stdout.write(text)
    else:
        result = export_file(store, args.file, **options)  # temp file + rename: never half-written
        print(f"exported {result.count} memories to {result.path} ({result.format})", file=sys.stderr)
    return 0


def _cli_language() -> str:
    """zh when the terminal's locale is Chinese (names of new personas follow it)."""
    import os

    for key in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        if os.environ.get(key):
            return "zh_CN" if os.environ[key].lower().startswith("zh") else "en"
    return "en"


def _persona_choice(store, name: str) -> Choice:
    """NAME of --persona / --persona-map: 'global', an existing persona (name or id), or a new one."""
    name = name.strip()
    if name.lower() in GLOBAL_WORDS:
        return Choice.make_global()
    existing = store.persona_by_name(name)
    if existing is None and name in {p.id for p in store.personas()}:
        return Choice.map_to(name)
    return Choice.map_to(existing.id) if existing else Choice.create(name)


def _persona_options(args, store) -> dict:
    """plan_file's persona arguments from --persona and --persona-map (checked against the file)."""
    options = {"language": _cli_language()}
    if args.persona is not None and args.persona_map:
        raise ValidationError("--persona", "puts every record into one persona; leave out --persona-map with it")
    if args.persona is not None:
        options["everything"] = _persona_choice(store, args.persona)
        return options
    if not args.persona_map:
        return options
    refs = plan_file(store, args.file, format=args.format, **options).persona_refs
    choices = {}
    for text in args.persona_map:
        source, sep, name = text.partition("=")
        source = source.strip()
        if not sep or not source or not name.strip():
            raise ValidationError("--persona-map", f"{text!r}: write it as ID=NAME (NAME may be 'global')")
        matches = [r for r in refs if r == source] or [r for r in refs if len(source) >= 4 and r.startswith(source)]
        if len(matches) != 1:
            listed = ", ".join(refs) if refs else "none"
            raise ValidationError("--persona-map", (f"{source!r} matches {len(matches)} persona ids of the file"
                                                    if matches else f"the file has no persona id {source!r}")
                                  + f"; its persona ids: {listed}")
        if matches[0] in choices:
            raise ValidationError("--persona-map", f"{matches[0]} is mapped twice")
        choices[matches[0]] = _persona_choice(store, name)
    options["choices"] = choices
    return options


def cmd_import(args, store) -> int:
    plan = plan_file(store, args.file, format=args.format, **_persona_options(args, store))
    invalid = plan.count("invalid")
    refused = args.strict and invalid > 0
    changes = Changes()
    if not args.dry_run and not refused:
        changes = apply_import(store, plan, on_conflict=args.on_conflict)
    summary = plan.summary()
    mapped = [i for i in plan.items
              if i.status in ("new", "updated") and i.reason and not i.reason.startswith("differs")]
    if args.json:
        _print_json({"format": plan.format, "dry_run": args.dry_run, "summary": summary,
                     "duplicates": plan.duplicates, "notes": plan.notes, "refused": refused,
                     "written": len(changes.memory_ids),
                     "problems": [{"index": i.index, "id": i.memory_id, "status": i.status, "reason": i.reason}
                                  for i in plan.problems()],
                     "mapped": [{"index": i.index, "id": i.memory_id, "note": i.reason} for i in mapped],
                     "unknown_personas": [u.to_json() for u in plan.unknown_personas]})
    else:
        print(f"format: {plan.format}; " + ", ".join(f"{k} {v}" for k, v in summary.items())
              + (f" (of which {plan.duplicates} duplicates of stored text)" if plan.duplicates else ""))
        for note in plan.notes:
            print(f"  note: {note}")
        for item in mapped[:20]:  # e.g. a foreign type stored as a MemDesk type plus a tag
            print(f"  record {item.index} ({item.memory_id or 'no id'}): {item.reason}")
        if len(mapped) > 20:
            print(f"  … {len(mapped) - 20} more records with notes (--json lists them all)")
        for item in plan.problems():
            print(f"  record {item.index} ({item.memory_id or 'no id'}): {item.status}: {item.reason}")
        _print_unknown_personas(plan, store, done=not args.dry_run and not refused and bool(changes))
        if summary["conflict"] and args.on_conflict == "skip":
            print(f"  {summary['conflict']} conflict(s) " + ("would be" if args.dry_run else "were")
                  + " skipped; --on-conflict theirs takes the file's version")
        if not refused:
            print("dry run: nothing written" if args.dry_run else f"written: {len(changes.memory_ids)}"
                  + (f"; {invalid} invalid records skipped" if invalid else ""))
    if refused:
        print(f"memdesk: error: {invalid} invalid record(s); --strict refused the import and nothing was written",
              file=sys.stderr)
        return 1
    return 0


def _print_unknown_personas(plan, store, *, done: bool) -> None:
    if not plan.unknown_personas:
        return
    created = {p.id for p in store.personas()} if done else set()
    verb = {"create": "became", "map": "went to", "global": "were made"} if done else \
        {"create": "would become", "map": "would go to", "global": "would be made"}
    print("persona ids of the file:" if all(u.chosen for u in plan.unknown_personas)
          else "persona ids this store did not know:")
    for u in plan.unknown_personas:
        target = {"create": f"new persona “{u.choice.name}”", "global": "global",
                  "map": f"persona “{plan.persona_names.get(u.local_id, u.local_id)}”"}[u.choice.action]
        if done and u.choice.action == "create" and u.local_id not in created:
            print(f"  {u.source_id}: no record of it was written, so persona “{u.choice.name}” was not created")
            continue
        print(f"  {u.source_id} ({u.records} record{'' if u.records == 1 else 's'}) {verb[u.choice.action]} {target}")
    named = [u for u in plan.unknown_personas if u.choice.action == "create" and not u.chosen]
    if named:
        short = named[0].source_id[:8]
        print(f"  rename them with `memdesk persona rename NAME NEW_NAME`, or import with "
              f"--persona-map {short}=NAME (an existing persona, a new name, or 'global')")


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memdesk", description="MemDesk (记忆台): AI assistant memory workbench")
    add_global(parser)  # --db and --json; add_everywhere below lets them follow the command too
    parser.add_argument("--version", action="version", version=f"memdesk {__version__}")
    parser.add_argument("--self-test", action="store_true", help="check that MemDesk works here (headless) and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name, func, help_text):
        p = sub.add_parser(name, help=help_text)
        p.set_defaults(func=func)
        json_option(p)
        return p

    p = command("add", cmd_add, "add a memory")
    _add_memory_args(p, content_required=True)
    p.add_argument("--upsert", action="store_true", help="update the memory with the same --dedup-key instead")
    p = command("show", cmd_show, "show one memory with its history")
    p.add_argument("id", help="the memory's id, or a unique prefix of it (4 characters or more)")
    p = command("edit", cmd_edit, "change fields of a memory")
    p.add_argument("id", help="the memory's id, or a unique prefix of it (4 characters or more)")
    _add_memory_args(p, content_required=False)
    p = command("list", cmd_list, "list memories")
    _add_filter_args(p)
    p.add_argument("--sort", choices=SORTS, default="updated_at")
    p.add_argument("--asc", action="store_true")
    p.add_argument("--limit", type=int)
    p.add_argument("--offset", type=int, default=0)
    p = command("search", cmd_search, "search memories (words, \"phrases\", -not, OR, tag:, type:, is:deleted …)")
    p.add_argument("query")
    p.add_argument("--persona", help="a persona name (its memories plus global ones); 'global' for global only")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--explain", action="store_true", help="show why each memory ranked where it did")
    p.add_argument("--why", metavar="ID", help="explain why this memory (id or unique prefix) was or was not found")
    p.add_argument("--keyword-only", action="store_true", help="do not use the embedding model")
    for name, text in (("delete", "move memories to the trash"), ("restore", "restore from the trash"),
                       ("purge", "remove memories from the trash for good")):
        p = command(name, lambda a, s, n=name: _apply_ids(a, s, n), text)
        p.add_argument("ids", nargs="+", metavar="ID", help="ids, or unique prefixes of 4 characters or more")
    p = command("persona", cmd_persona, "manage personas")
    psub = p.add_subparsers(dest="persona_cmd", required=True, metavar="ACTION")
    psub.add_parser("list", help="list personas")
    pa = psub.add_parser("add", help="add a persona")
    pa.add_argument("name")
    pa.add_argument("--description")
    pa.add_argument("--colour", help="#rrggbb")
    pr = psub.add_parser("rename", help="rename a persona")
    pr.add_argument("name")
    pr.add_argument("new_name")
    pd = psub.add_parser("delete", help="delete a persona")
    pd.add_argument("name")
    pd.add_argument("--memories", required=True, choices=("global", "trash"),
                    help="what happens to its memories: make them global, or move them to the trash")
    command("stats", cmd_stats, "counts by persona, group, type, scope, tier, tag, heat and week (--json: all figures)")
    p = command("clean", cmd_clean, "expire short-term memories; purge old trash")
    p.add_argument("--trash-days", type=int, default=30)
    p = command("export", cmd_export, "export memories (MemDesk JSON, seed 000 JSON, Markdown or CSV)")
    p.add_argument("file", nargs="?", help="output file (default: stdout)")
    p.add_argument("--format", choices=EXPORT_FORMATS, default="native",
                   help="native keeps everything; the others hold memories in use only")
    p.add_argument("--persona", help="a persona (its memories plus global ones); 'global' for global only")
    p.add_argument("--group", help="one group (and the groups under it)")
    p.add_argument("--no-trash", action="store_true", help="native: leave out deleted and superseded memories")
    p = command("import", cmd_import, "import a file (format detected from content)")
    p.add_argument("file")
    p.add_argument("--format", choices=FORMATS, default="auto")
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    p.add_argument("--on-conflict", choices=("skip", "theirs"), default="skip")
    p.add_argument("--strict", action="store_true", help="refuse the whole import if any record is invalid")
    p.add_argument("--persona-map", action="append", default=[], metavar="ID=NAME",
                   help="where the file's persona ID goes: an existing persona, a new one of that NAME, or "
                        "'global' (repeatable; a unique ID prefix of 4+ characters will do). Remembered "
                        "for the next import")
    p.add_argument("--persona", metavar="NAME",
                   help="every record into this persona (created if new; 'global' for global)")
    _register_optional(sub)
    add_everywhere(parser)
    return parser


def _register_optional(sub) -> None:
    """Command groups that live in their own modules."""
    from . import cli_backup, cli_maint, cli_tools

    cli_tools.register(sub)
    cli_backup.register(sub)
    cli_maint.register(sub)
    try:
        from .cli_model import register
    except ImportError:
        return
    register(sub)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    finish_global(parser, args)
    if args.self_test:
        from .selftest import run_self_test

        return run_self_test()
    if args.command is None:
        from .app import run_gui

        return run_gui(db=args.db, self_test=args.self_test)
    if getattr(args, "needs_store", True) is False:
        try:
            return args.func(args)
        except MemDeskError as exc:
            print(f"memdesk: error: {exc}", file=sys.stderr)
            return 1
    try:
        store = Store.open(args.db)
    except MemDeskError as exc:
        print(f"memdesk: error: {exc}", file=sys.stderr)
        return 1
    try:
        return args.func(args, store)
    except MemDeskError as exc:
        print(f"memdesk: error: {exc}", file=sys.stderr)
        return 1
    except (peewee.DatabaseError, sqlite3.DatabaseError) as exc:
        print(f"memdesk: error: the database {store.path} cannot be read ({exc}). It may be damaged: "
              "see `memdesk backup list` and `memdesk backup restore N --yes`.", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    finally:
        store.close()
