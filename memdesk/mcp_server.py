"""`memdesk mcp`: the memory tools served to assistants over MCP (stdio only).

Built on the official SDK's low-level server so the tools keep our own JSON
Schemas and forgiving argument handling. Nothing heavy (jieba, numpy, the ONNX
model) is imported before the handshake: the search index (kept in the store)
is opened and jieba loaded by a background thread while the client shakes
hands, so initialize answers at once and the first search does not wait
long. No network socket is ever opened.

build_server is longer than our usual 60 lines on purpose: it is a table of six short
handlers that share ``tools`` and ``in_worker``, and reads best in one place.
"""

from __future__ import annotations

import json
import sys
import threading

BRIEF_URI = "memdesk://brief"


def _text(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def build_server(tools):
    """An MCP Server exposing ``tools`` (a MemoryTools), the brief as a resource and a prompt."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from . import __version__
    from .core.errors import MemDeskError
    from .core.tools.service import brief_for

    lane = anyio.CapacityLimiter(1)  # one store operation at a time, off the event loop

    async def in_worker(func, *args):
        return await anyio.to_thread.run_sync(func, *args, limiter=lane)

    async def list_tools(ctx, params):
        specs = await in_worker(tools.list_tools)
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=s["function"]["name"],
                    description=s["function"]["description"],
                    input_schema=s["function"]["parameters"],
                )
                for s in specs
            ]
        )

    async def call_tool(ctx, params):
        try:
            result = await in_worker(tools.call, params.name, params.arguments or {})
        except MemDeskError as exc:
            return types.CallToolResult(content=[types.TextContent(type="text", text=str(exc))], is_error=True)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=_text(result))], structured_content=result
        )

    async def list_resources(ctx, params):
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    name="memory_brief",
                    uri=BRIEF_URI,
                    mime_type="text/plain",
                    description="The memories this assistant should keep in mind (top long- and short-term).",
                )
            ]
        )

    async def read_resource(ctx, params):
        if str(params.uri) != BRIEF_URI:
            raise ValueError(f"unknown resource {params.uri}")
        brief = await in_worker(lambda: brief_for(tools))
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=BRIEF_URI, mime_type="text/plain", text=brief.text)]
        )

    async def list_prompts(ctx, params):
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name="memory_brief",
                    description="Memory brief for the system prompt, ranked for a user message.",
                    arguments=[
                        types.PromptArgument(name="message", description="The user's current message", required=False)
                    ],
                )
            ]
        )

    async def get_prompt(ctx, params):
        if params.name != "memory_brief":
            raise ValueError(f"unknown prompt {params.name}")
        message = (params.arguments or {}).get("message")
        brief = await in_worker(lambda: brief_for(tools, message=message))
        return types.GetPromptResult(
            description="Memory brief",
            messages=[
                types.PromptMessage(
                    role="user", content=types.TextContent(type="text", text=brief.text or "(no memories)")
                )
            ],
        )

    return Server(
        "memdesk",
        version=__version__,
        instructions="Long-term memory of the user, shared with the MemDesk desktop app. Save what is worth "
        "remembering across conversations with memory_save/memory_upsert; look things up with "
        "memory_search/memory_query before asking the user again.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def _warm(tools) -> None:
    try:
        tools.warm_up()
    except Exception as exc:  # the first search reports it properly
        print(f"memdesk mcp: search warm-up failed: {exc}", file=sys.stderr)


def serve(*, db=None, persona: str | None = None) -> int:
    import anyio
    from mcp.server.stdio import stdio_server

    from .core.errors import MemDeskError
    from .core.store import Store
    from .core.tools.service import MemoryTools

    try:
        store = Store.open(db)
        if persona:
            store.resolve_persona(persona)  # fail now, clearly, not on the first call
    except MemDeskError as exc:
        print(f"memdesk mcp: error: {exc}", file=sys.stderr)
        return 1
    tools = MemoryTools(store, persona=persona, client="mcp")
    server = build_server(tools)
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
