"""`memdesk persona list | add | rename | delete`."""

from __future__ import annotations

from .options import add_command
from .output import print_json


def cmd_persona(args, store) -> int:
    if args.persona_cmd == "list":
        personas = store.personas()
        if args.json:
            print_json([p.to_json() for p in personas])
        else:
            for p in personas:
                print(f"{p.name}\t{p.id}\t{p.colour}\t{p.description}")
        return 0
    if args.persona_cmd == "add":
        persona_id, _ = store.create_persona(
            name=args.name, description=args.description or "", colour=args.colour or ""
        )
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
            print_json({"deleted": result.to_json(), "memories": moved, "policy": args.memories})
        else:
            where = "moved to the trash" if args.memories == "trash" else "made global"
            print(f"deleted persona {result.name}; {moved} memories {where}")
        return 0
    if args.json:
        print_json(result.to_json())
    else:
        print(f"{result.name}\t{result.id}")
    return 0


def register(sub) -> None:
    p = add_command(sub, "persona", cmd_persona, "manage personas")
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
    pd.add_argument(
        "--memories",
        required=True,
        choices=("global", "trash"),
        help="what happens to its memories: make them global, or move them to the trash",
    )
