"""`memdesk mcp`: the memory tools served to assistants over MCP (stdio only).

Built on the official SDK's low-level server so the tools keep our own JSON
Schemas and forgiving argument handling. Nothing heavy (jieba, numpy, the ONNX
model) is imported before the handshake: the search index (kept in the store)
is opened and jieba loaded by a background thread while the client shakes
hands, so initialize answers at once and the first search does not wait
long. No network socket is ever opened.
"""

from __future__ import annotations

import json
import sys
import threading

BRIEF_URI = "memdesk://brief"


def _text(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def client_name(ctx) -> str:
    """What the client calls itself in its handshake (clientInfo: its title, else its name), for the
    activity log: "Claude Desktop" or "cherry-studio", not "mcp". Empty when it said nothing."""
    params = getattr(getattr(ctx, "session", None), "client_params", None)
    info = getattr(params, "client_info", None)
    if info is None:
        return ""
    return (getattr(info, "title", None) or getattr(info, "name", None) or "").strip()[:80]


class _Handlers:
    """The server's six answers (tools, the brief as a resource and as a prompt). Every store call
    runs in a worker thread, one at a time, off the event loop."""

    def __init__(self, tools):
        import anyio
        import mcp_types

        self.tools, self.types = tools, mcp_types
        self.lane = anyio.CapacityLimiter(1)

    async def in_worker(self, func, *args):
        import anyio

        return await anyio.to_thread.run_sync(func, *args, limiter=self.lane)

    async def list_tools(self, ctx, params):
        t = self.types
        specs = [s["function"] for s in await self.in_worker(self.tools.list_tools)]
        return t.ListToolsResult(
            tools=[t.Tool(name=f["name"], description=f["description"], input_schema=f["parameters"]) for f in specs]
        )

    async def call_tool(self, ctx, params):
        from memdesk.core.domain.errors import MemDeskError

        t = self.types
        self.tools.client = client_name(ctx) or self.tools.client
        try:
            result = await self.in_worker(self.tools.call, params.name, params.arguments or {})
        except MemDeskError as exc:
            return t.CallToolResult(content=[t.TextContent(type="text", text=str(exc))], is_error=True)
        return t.CallToolResult(content=[t.TextContent(type="text", text=_text(result))], structured_content=result)

    async def list_resources(self, ctx, params):
        resource = self.types.Resource(
            name="memory_brief",
            uri=BRIEF_URI,
            mime_type="text/plain",
            description="The memories this assistant should keep in mind (top long- and short-term).",
        )
        return self.types.ListResourcesResult(resources=[resource])

    async def read_resource(self, ctx, params):
        from .core.tools.service import brief_for

        if str(params.uri) != BRIEF_URI:
            raise ValueError(f"unknown resource {params.uri}")
        brief = await self.in_worker(lambda: brief_for(self.tools))
        text = self.types.TextResourceContents(uri=BRIEF_URI, mime_type="text/plain", text=brief.text)
        return self.types.ReadResourceResult(contents=[text])

    async def list_prompts(self, ctx, params):
        t = self.types
        argument = t.PromptArgument(name="message", description="The user's current message", required=False)
        prompt = t.Prompt(
            name="memory_brief",
            description="Memory brief for the system prompt, ranked for a user message.",
            arguments=[argument],
        )
        return t.ListPromptsResult(prompts=[prompt])

    async def get_prompt(self, ctx, params):
        from .core.tools.service import brief_for

        t = self.types
        if params.name != "memory_brief":
            raise ValueError(f"unknown prompt {params.name}")
        message = (params.arguments or {}).get("message")
        brief = await self.in_worker(lambda: brief_for(self.tools, message=message))
        content = t.TextContent(type="text", text=brief.text or "(no memories)")
        return t.GetPromptResult(description="Memory brief", messages=[t.PromptMessage(role="user", content=content)])


def build_server(tools):
    """An MCP Server exposing ``tools`` (a MemoryTools), the brief as a resource and a prompt."""
    from mcp.server.lowlevel import Server

    from . import __version__

    h = _Handlers(tools)
    return Server(
        "memdesk",
        version=__version__,
        instructions="Long-term memory of the user, shared with the MemDesk desktop app. Save what is worth "
        "remembering across conversations with memory_save/memory_upsert; look things up with "
        "memory_search/memory_query before asking the user again.",
        on_list_tools=h.list_tools,
        on_call_tool=h.call_tool,
        on_list_resources=h.list_resources,
        on_read_resource=h.read_resource,
        on_list_prompts=h.list_prompts,
        on_get_prompt=h.get_prompt,
    )


def _warm(tools) -> None:
    try:
        tools.warm_up()
    except Exception as exc:  # the first search reports it properly
        print(f"memdesk mcp: search warm-up failed: {exc}", file=sys.stderr)


def serve(*, db=None, persona: str | None = None, create: bool = False) -> int:
    import anyio
    from mcp.server.stdio import stdio_server

    from memdesk.core.domain.errors import MemDeskError
    from memdesk.core.storage.location import require_store

    from .core.store import Store
    from .core.tools.service import MemoryTools

    try:
        require_store(db, create=create)  # a mistyped --db: an error, not a new empty store
        store = Store.open(db)
        if persona:
            store.resolve_persona(persona)  # fail now, clearly, not on the first call
    except MemDeskError as exc:
        print(f"memdesk mcp: error: {exc}", file=sys.stderr)
        return 1
    tools = MemoryTools(store, persona=persona, client="mcp")
    server = build_server(tools)
    # The search modules now, before the handshake: the warm-up thread then only opens the
    # index and loads jieba beside it (importing ~100 modules there too made it finish later).
    from memdesk.core.search import engine  # noqa: F401
    from memdesk.core.search.index import indexer  # noqa: F401

    # The index is in the store; jieba and the synonym lists load while the client
    # shakes hands, so its first search does not wait for them.
    threading.Thread(target=_warm, args=(tools,), name="memdesk-warm-up", daemon=True).start()

    async def main():
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        store.close()
    return 0
