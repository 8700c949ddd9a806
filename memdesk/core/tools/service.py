"""The assistant tools over the store, acting as one persona, with every call logged."""

from __future__ import annotations

from collections.abc import Callable

from memdesk.core.domain.errors import MemDeskError, ValidationError
from memdesk.core.domain.records import MemoryRecord
from memdesk.core.domain.times import to_iso

from . import log
from .args import ToolError, normalise
from .schemas import TOOL_NAMES, TOOLS, schema

DELETE_LIMIT = 20  # memory_delete refuses queries matching more than this
SearchFn = Callable[..., list]  # (query, *, persona, limit, scope, type) -> [(MemoryRecord, score)]


def _plain(params: dict) -> dict:
    """An error's params as JSON keeps them (the call log is stored as JSON)."""
    return {k: v if isinstance(v, (str, int, float, bool)) or v is None else str(v) for k, v in params.items()}


def memory_json(m: MemoryRecord, score: float | None = None) -> dict:
    out = {
        "id": m.id,
        "title": m.title,
        "content": m.content,
        "group": m.group,
        "tags": list(m.tags),
        "type": m.type,
        "scope": m.scope,
        "importance": m.importance,
        "created_at": to_iso(m.created_at),
        "updated_at": to_iso(m.updated_at),
    }
    if m.expires_at:
        out["expires_at"] = to_iso(m.expires_at)
    if score is not None:
        out["score"] = round(float(score), 4)
    return out


class MemoryTools:
    """Tool calls from one client; ``persona`` (a name) is the default persona."""

    def __init__(self, store, *, persona: str | None = None, client: str = "", search: SearchFn | None = None):
        self.store = store
        self.default_persona = persona
        self.client = client
        self._search = search

    # ---- which persona, and may it use memory at all ----------------------------------
    def persona_id(self, name: str | None = None) -> str | None:
        return self.store.resolve_persona(name if name is not None else self.default_persona)

    def enabled(self, persona_id: str | None) -> bool:
        """The autoSaveMemory switch: off → no memory injected and no tools offered."""
        if persona_id is None:
            return bool(self.store.setting("global.auto_save_memory", True))
        return self.store.persona(persona_id).auto_save_memory

    def list_tools(self, persona: str | None = None) -> list[dict]:
        try:
            return TOOLS if self.enabled(self.persona_id(persona)) else []
        except ValidationError:
            return []

    # ---- calling ---------------------------------------------------------------------------
    def call(self, name: str, arguments=None) -> dict:
        """Run one tool call and log it. Raises ToolError with a message the assistant can act on."""
        persona_id = None
        try:
            if name not in TOOL_NAMES:
                raise ToolError(code="tool_unknown", tool=name, available=", ".join(TOOL_NAMES))
            args = normalise(name, arguments, schema(name))
            persona_id = self.persona_id(args.pop("persona", None))
            if not self.enabled(persona_id):
                raise ToolError(code="tool_memory_off")
            with self.store.write():
                result, changes = getattr(self, "_" + name)(args, persona_id)
                effects = log.effects_of(changes)
                log.record(
                    tool=name,
                    persona_id=persona_id,
                    client=self.client,
                    arguments=arguments,
                    result=result,
                    ok=True,
                    effects=effects,
                )
            self._embed_written(changes)
            return result
        except MemDeskError as exc:
            message = str(exc) if isinstance(exc, ToolError) else f"{name}: {exc}"
            failure = {"error": message, "code": exc.code, "params": _plain(exc.params)}  # the log says it by code
            if persona_id is None:
                persona_id = self._persona_for_log(arguments)
            with self.store.write():
                log.record(
                    tool=name,
                    persona_id=persona_id,
                    client=self.client,
                    arguments=arguments,
                    result=failure,
                    ok=False,
                    effects=[],
                )
            raise ToolError(message, code=exc.code, **exc.params) from None

    def _embed_written(self, changes) -> None:
        """Vectors for what the call saved, now (as `memdesk add` does): with the search's model."""
        from memdesk.core.embed import embed_written

        searcher = self._searcher()
        try:
            embed_written(self.store, changes, getattr(searcher, "embedder", lambda: None)())
        except MemDeskError:
            pass  # saved all the same: the re-embed job gives it its vector later

    def _persona_for_log(self, arguments) -> str | None:
        """Whom a call that failed early acted for: the log lists it under that persona, not global."""
        named = arguments.get("persona") if isinstance(arguments, dict) else None
        for name in (named, self.default_persona):
            if isinstance(name, str) and name:
                try:
                    return self.persona_id(name)
                except MemDeskError:
                    continue  # an unknown name: the call itself failed for it
        return None

    def _searcher(self):
        if self._search is None:
            from .searching import default_search

            self._search = default_search(self.store)
        return self._search

    def _run_search(self, query, persona_id, limit, **filters):
        return self._searcher()(query, persona=persona_id, limit=limit, **filters)

    def warm_up(self) -> None:
        """Open the search index and load jieba and the synonyms now (a server calls this
        in the background after start, so the first search does not wait for them)."""
        warm = getattr(self._searcher(), "warm_up", None)
        if warm is not None:
            warm()

    # ---- seed 000 ------------------------------------------------------------------------
    def _memory_save(self, args, persona_id):
        from memdesk.core.domain import validation
        from memdesk.core.writes import memories as memory_writes

        content = validation.content(args["content"])
        # Identical to a memory this persona already sees (its own or a global one)?
        same = self._same_content(
            {validation.content_hash(content, persona_id), validation.content_hash(content, None)}
        )
        if same:
            return {
                "saved": False,
                "id": same[0].id,
                "message": "an identical memory already exists; nothing was added",
            }, _no_changes()
        fields = {k: args[k] for k in ("title", "group", "tags") if k in args}
        changes = memory_writes.add({"content": content, "persona_id": persona_id, "source": "ai", **fields})
        return {"saved": True, "id": changes.added[0]}, changes

    def _same_content(self, digests: set) -> list[MemoryRecord]:
        from memdesk.core.storage.convert import memory_record
        from memdesk.core.storage.models import Memory

        rows = Memory.select().where(
            Memory.content_hash.in_(list(digests)) & Memory.deleted_at.is_null() & Memory.superseded_by.is_null()
        )
        return [memory_record(r) for r in rows]

    def _memory_list(self, args, persona_id):
        page, size = args.get("page", 1), args.get("page_size", 20)
        filters = {k: args[k] for k in ("group", "tag", "type") if k in args}
        scope = {"persona": persona_id or "", "merge_global": True, **filters}
        total = self.store.count(**scope)
        records = self.store.list(offset=(page - 1) * size, limit=size, **scope)
        if args.get("names_only"):
            items = [{"id": m.id, "title": m.display_title} for m in records]
        else:
            items = [memory_json(m) for m in records]
        pages = max(1, -(-total // size))
        return {"total": total, "page": page, "page_size": size, "pages": pages, "memories": items}, _no_changes()

    def _memory_search(self, args, persona_id):
        hits = self._run_search(args["query"], persona_id, args.get("limit", 10))
        total = max(len(hits), getattr(hits, "total", len(hits)))  # matches beyond the limit too
        return {"results": [memory_json(m, s) for m, s in hits], "total": total}, self._touch(hits)

    def _memory_delete(self, args, persona_id):
        from memdesk.core.writes import memories as memory_writes

        query = args["query"].strip()
        visible = self.store.list(persona=persona_id or "", merge_global=True)
        exact = [m for m in visible if m.id == query]
        needle = query.casefold()
        matches = exact or [m for m in visible if needle in f"{m.title}\n{m.content}".casefold()]
        if not matches:
            return {"deleted": [], "message": f"no memory contains {query!r}; nothing was deleted"}, _no_changes()
        if len(matches) > DELETE_LIMIT:
            raise ToolError(code="tool_delete_too_many", n=len(matches), query=query, limit=DELETE_LIMIT)
        listed = [{"id": m.id, "title": m.display_title} for m in matches]
        if args.get("dry_run"):
            return {"would_delete": listed}, _no_changes()
        changes = memory_writes.delete([m.id for m in matches])
        return {"deleted": listed, "message": "moved to the trash; the user can restore them"}, changes

    # ---- seed 001 ------------------------------------------------------------------------
    def _memory_upsert(self, args, persona_id):
        from memdesk.core.writes import memories as memory_writes

        fields = {
            k: args[k]
            for k in ("title", "content", "type", "scope", "importance", "tags", "dedup_key", "expires_in_days")
            if k in args
        }
        if "expires_in_days" in fields and "scope" not in fields:
            fields["scope"] = "short_term"
        changes = memory_writes.upsert({**fields, "persona_id": persona_id, "source": "ai"}, reason="ai")
        memory_id = (changes.added or changes.updated or changes.restored or (None,))[0]
        if memory_id is None:  # same key, same values
            existing = memory_writes.find_by_dedup_key(fields["dedup_key"], persona_id)
            assert existing is not None  # upsert just matched it: same key, same values
            return {"saved": True, "id": existing.id, "updated": False, "message": "no change"}, changes
        return {"saved": True, "id": memory_id, "updated": not changes.added}, changes

    def _memory_query(self, args, persona_id):
        filters = {k: args[k] for k in ("scope", "type") if k in args}
        hits = self._run_search(args["query"], persona_id, args.get("top_k", 5), **filters)
        return {"results": [memory_json(m, s) for m, s in hits]}, self._touch(hits)

    def _memory_forget(self, args, persona_id):
        from memdesk.core.writes import memories as memory_writes

        action = args["action"]
        if "id" in args:
            memory = self.store.get(args["id"])
            if memory.persona_id not in (None, persona_id):
                raise ToolError(code="tool_other_persona", id=args["id"])
            targets = [memory]
        else:
            filters = {k: args[k] for k in ("scope", "type") if k in args}
            tags = args.get("tags")
            if not filters and not tags:
                raise ToolError(code="tool_forget_nothing")
            state = "active" if action == "delete" else "deleted"
            targets = self.store.list(persona=persona_id or "", merge_global=True, state=state, **filters)
            if tags:
                from memdesk.core.domain.validation import tags as clean_tags

                wanted = set(clean_tags(tags))
                targets = [m for m in targets if wanted & set(m.tags)]
        ids = [m.id for m in targets]
        changes = memory_writes.delete(ids) if action == "delete" else memory_writes.restore(ids)
        done = changes.deleted if action == "delete" else changes.restored
        return {"action": action, "ids": list(done), "count": len(done)}, changes

    def _touch(self, hits):
        from memdesk.core.writes import memories as memory_writes

        ids = [m.id for m, _ in hits]
        memory_writes.touch(ids)
        return _no_changes()  # access counts are not edits: nothing to log or revert


def _no_changes():
    from memdesk.core.domain.changes import Changes

    return Changes()


def brief_for(tools: MemoryTools, *, persona: str | None = None, message: str | None = None, **options):
    """The memory brief for a persona, honouring its autoSaveMemory switch."""
    from .brief import build_brief

    persona_id = tools.persona_id(persona)
    search = None
    if message:

        def search(query, *, persona, limit):
            return tools._run_search(query, persona, limit)

    return build_brief(
        tools.store, persona_id=persona_id, message=message, search=search, enabled=tools.enabled(persona_id), **options
    )
