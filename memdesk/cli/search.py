"""`memdesk search`: the search language, --explain and --why."""

from __future__ import annotations

import sys

from memdesk.core.views.ids import resolve_memory_id

from .format import memory_line, why_found, why_missing
from .memories import persona_names
from .options import add_command
from .output import print_json


def _index_progress(done: int, total: int) -> None:
    """Only an upgraded store has memories left to cut; say how far that got."""
    if total and done < total:
        print(
            f"\rbuilding the search index (once, after an upgrade): {done} of {total}",
            end="",
            file=sys.stderr,
            flush=True,
        )
    elif total:
        print(f"\rbuilding the search index (once, after an upgrade): {total} of {total}", file=sys.stderr)


def cmd_search(args, store) -> int:
    from memdesk.core.embed import active_embedder
    from memdesk.core.search import SearchEngine

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
            print_json(miss.to_json())
            return 0
        print(memory_line(store.get(memory_id), persona_names(store)))
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
        print_json(out)
    else:
        names = persona_names(store)
        for hit in result.hits:
            print(f"{hit.score:6.3f}  " + memory_line(hit.record, names))
            if args.explain:
                print("        " + hit.explain.describe().replace("\n", "\n        "))
        note = (hint or result.notice) if not result.semantic else result.notice
        print(
            f"{len(result.hits)} of {result.total} shown; query: {result.query}" + (f"\n{note}" if note else ""),
            file=sys.stderr,
        )
    return 0


def register(sub) -> None:
    p = add_command(
        sub, "search", cmd_search, 'search memories (words, "phrases", -not, OR, tag:, type:, is:deleted …)'
    )
    p.add_argument("query")
    p.add_argument("--persona", help="a persona name (its memories plus global ones); 'global' for global only")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--explain", action="store_true", help="show why each memory ranked where it did")
    p.add_argument("--why", metavar="ID", help="explain why this memory (id or unique prefix) was or was not found")
    p.add_argument("--keyword-only", action="store_true", help="do not use the embedding model")
