"""`memdesk import | export`: files in and out, with the file's personas mapped to ours."""

from __future__ import annotations

import sys
from pathlib import Path

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import ValidationError
from memdesk.core.io.export import EXPORT_FORMATS, export_file, export_text
from memdesk.core.io.personas import Choice
from memdesk.core.io.plan import FORMATS, apply_import, import_workers, plan_file, plan_source
from memdesk.core.io.sources import read_file
from memdesk.core.views.queries import ALL, GLOBAL, means_global

from .options import add_command
from .output import fail, print_json


def cmd_export(args, store) -> int:
    persona = ALL
    if args.persona:
        persona = store.resolve_persona(args.persona) or GLOBAL  # 'global': global memories only
    options = {
        "format": args.format,
        "persona": persona,
        "group": args.group,
        "state": "active" if args.no_trash else None,
    }
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
    if means_global(name):
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
            raise ValidationError(
                "--persona-map",
                (
                    f"{source!r} matches {len(matches)} persona ids of the file"
                    if matches
                    else f"the file has no persona id {source!r}"
                )
                + f"; its persona ids: {listed}",
            )
        if matches[0] in choices:
            raise ValidationError("--persona-map", f"{matches[0]} is mapped twice")
        choices[matches[0]] = _persona_choice(store, name)
    options["choices"] = choices
    return options


def _plan_and_apply(args, store):
    """(plan, changes written, refused by --strict)."""
    options = _persona_options(args, store)
    source = read_file(args.file, args.format)
    with import_workers(store, source, wanted=not args.dry_run) as workers:  # they load while the plan is made
        plan = plan_source(store, source, name=Path(args.file).stem, **options)
        refused = args.strict and plan.count("invalid") > 0
        if args.dry_run or refused:
            return plan, Changes(), refused
        return plan, apply_import(store, plan, on_conflict=args.on_conflict, workers=workers), False


def cmd_import(args, store) -> int:
    plan, changes, refused = _plan_and_apply(args, store)
    invalid = plan.count("invalid")
    summary = plan.summary()
    mapped = [i for i in plan.items if i.status in ("new", "updated") and i.code == "note"]
    if args.json:
        print_json(
            {
                "format": plan.format,
                "dry_run": args.dry_run,
                "summary": summary,
                "duplicates": plan.duplicates,
                "notes": plan.notes,
                "refused": refused,
                "written": len(changes.memory_ids),
                "problems": [
                    {"index": i.index, "id": i.memory_id, "status": i.status, "reason": i.reason}
                    for i in plan.problems()
                ],
                "mapped": [{"index": i.index, "id": i.memory_id, "note": i.reason} for i in mapped],
                "unknown_personas": [u.to_json() for u in plan.unknown_personas],
            }
        )
    else:
        print(
            f"format: {plan.format}; "
            + ", ".join(f"{k} {v}" for k, v in summary.items())
            + (f" (of which {plan.duplicates} duplicates of stored text)" if plan.duplicates else "")
        )
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
            print(
                f"  {summary['conflict']} conflict(s) "
                + ("would be" if args.dry_run else "were")
                + " skipped; --on-conflict theirs takes the file's version"
            )
        if not refused:
            print(
                "dry run: nothing written"
                if args.dry_run
                else f"written: {len(changes.memory_ids)}" + (f"; {invalid} invalid records skipped" if invalid else "")
            )
    if refused:
        return fail(f"{invalid} invalid record(s); --strict refused the import and nothing was written")
    return 0


def _print_unknown_personas(plan, store, *, done: bool) -> None:
    if not plan.unknown_personas:
        return
    created = {p.id for p in store.personas()} if done else set()
    verb = (
        {"create": "became", "map": "went to", "global": "were made"}
        if done
        else {"create": "would become", "map": "would go to", "global": "would be made"}
    )
    print(
        "persona ids of the file:"
        if all(u.chosen for u in plan.unknown_personas)
        else "persona ids this store did not know:"
    )
    for u in plan.unknown_personas:
        target = {
            "create": f"new persona “{u.choice.name}”",
            "global": "global",
            "map": f"persona “{plan.persona_names.get(u.local_id, u.local_id)}”",
        }[u.choice.action]
        if done and u.choice.action == "create" and u.local_id not in created:
            print(f"  {u.source_id}: no record of it was written, so persona “{u.choice.name}” was not created")
            continue
        print(f"  {u.source_id} ({u.records} record{'' if u.records == 1 else 's'}) {verb[u.choice.action]} {target}")
    named = [u for u in plan.unknown_personas if u.choice.action == "create" and not u.chosen]
    if named:
        short = named[0].source_id[:8]
        print(
            f"  rename them with `memdesk persona rename NAME NEW_NAME`, or import with "
            f"--persona-map {short}=NAME (an existing persona, a new name, or 'global')"
        )


def register(sub) -> None:
    p = add_command(sub, "export", cmd_export, "export memories (MemDesk JSON, seed 000 JSON, Markdown or CSV)")
    p.add_argument("file", nargs="?", help="output file (default: stdout)")
    p.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        default="native",
        help="native keeps everything; the others hold memories in use only",
    )
    p.add_argument("--persona", help="a persona (its memories plus global ones); 'global' for global only")
    p.add_argument("--group", help="one group (and the groups under it)")
    p.add_argument("--no-trash", action="store_true", help="native: leave out deleted and superseded memories")
    p = add_command(sub, "import", cmd_import, "import a file (format detected from content)")
    p.add_argument("file")
    p.add_argument("--format", choices=FORMATS, default="auto")
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    p.add_argument("--on-conflict", choices=("skip", "theirs"), default="skip")
    p.add_argument("--strict", action="store_true", help="refuse the whole import if any record is invalid")
    p.add_argument(
        "--persona-map",
        action="append",
        default=[],
        metavar="ID=NAME",
        help="where the file's persona ID goes: an existing persona, a new one of that NAME, or "
        "'global' (repeatable; a unique ID prefix of 4+ characters will do). Remembered "
        "for the next import",
    )
    p.add_argument(
        "--persona", metavar="NAME", help="every record into this persona (created if new; 'global' for global)"
    )
