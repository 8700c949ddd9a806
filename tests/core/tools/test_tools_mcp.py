"""`memdesk mcp` as a real subprocess, driven by the mcp SDK's own stdio client."""

import json
import sys
import time
from functools import partial

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from memdesk.core.store import Store


def _server(db_path, *extra):
    return StdioServerParameters(command=sys.executable, args=["-m", "memdesk", "--db", str(db_path), "mcp", *extra])


async def _session_run(db_path, body, *extra, client_info=None):
    async with stdio_client(_server(db_path, *extra)) as (read, write):
        async with ClientSession(read, write, client_info=client_info) as session:
            started = time.perf_counter()
            await session.initialize()
            return await body(session, time.perf_counter() - started)


def test_mcp_server_end_to_end(db_path):
    Store.open(db_path).close()

    async def body(session, init_seconds):
        print(f"MCP initialize took {init_seconds:.3f} s after the process started")
        tools = await session.list_tools()
        names = {t.name for t in tools.tools}
        assert {
            "memory_save",
            "memory_search",
            "memory_delete",
            "memory_upsert",
            "memory_query",
            "memory_forget",
            "memory_list",
        } <= names
        saved = await session.call_tool("memory_save", {"content": "用户家里有三只猫", "tags": "宠物,家庭"})
        assert not saved.is_error
        memory_id = json.loads(saved.content[0].text)["id"]
        found = await session.call_tool("memory_search", {"query": "猫"})
        assert [r["id"] for r in json.loads(found.content[0].text)["results"]] == [memory_id]
        bad = await session.call_tool("memory_upsert", {"content": "x", "importance": 42})
        assert bad.is_error and "between 1 and 10" in bad.content[0].text
        brief = await session.read_resource("memdesk://brief")
        assert "用户家里有三只猫" in brief.contents[0].text
        deleted = await session.call_tool("memory_delete", {"query": "三只猫"})
        assert json.loads(deleted.content[0].text)["deleted"][0]["id"] == memory_id
        return memory_id

    memory_id = anyio.run(_session_run, db_path, body)
    store = Store.open(db_path)
    try:
        assert store.get(memory_id).deleted_at is not None  # in the trash, restorable
    finally:
        store.close()


def test_mcp_brief_as_resource_and_prompt(db_path):
    store = Store.open(db_path)
    store.add(content="用户对花生过敏", importance=9)
    store.close()

    async def body(session, _):
        resources = (await session.list_resources()).resources
        prompts = (await session.list_prompts()).prompts
        prompt = await session.get_prompt("memory_brief", {"message": "晚饭吃什么"})
        try:
            await session.get_prompt("no_such_prompt")
        except Exception as exc:  # the SDK raises the server's error as an McpError
            unknown = str(exc)
        else:
            unknown = ""
        return resources, prompts, prompt, unknown

    resources, prompts, prompt, unknown = anyio.run(_session_run, db_path, body)
    assert [(r.name, str(r.uri)) for r in resources] == [("memory_brief", "memdesk://brief")]
    assert [p.name for p in prompts] == ["memory_brief"] and [a.name for a in prompts[0].arguments] == ["message"]
    assert prompt.messages[0].role == "user" and "用户对花生过敏" in prompt.messages[0].content.text
    assert "unknown prompt" in unknown


def test_mcp_persona_switched_off_offers_no_tools(db_path):
    store = Store.open(db_path)
    persona_id, _ = store.create_persona(name="安静助手")
    store.update_persona(persona_id, auto_save_memory=False)
    store.close()

    async def body(session, _):
        return (await session.list_tools()).tools

    assert anyio.run(_session_run, db_path, body, "--persona", "安静助手") == []


def test_mcp_unknown_persona_fails_clearly(db_path, capfd):
    import subprocess

    Store.open(db_path).close()

    result = subprocess.run(
        [sys.executable, "-m", "memdesk", "--db", str(db_path), "mcp", "--persona", "nobody"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 1 and "no persona named" in result.stderr


def test_the_log_names_the_client_as_it_calls_itself(db_path):
    from mcp import types

    Store.open(db_path).close()

    async def body(session, _):
        saved = await session.call_tool("memory_save", {"content": "用户每周三开部门例会"})
        assert not saved.is_error

    for info, shown in (
        (types.Implementation(name="claude-ai", title="Claude Desktop", version="1.0"), "Claude Desktop"),
        (types.Implementation(name="cherry-studio", version="1.5"), "cherry-studio"),
    ):
        anyio.run(partial(_session_run, db_path, body, client_info=info))
        store = Store.open(db_path)
        try:
            from memdesk.core.io.common import bind
            from memdesk.core.tools import log

            bind(store)
            assert log.calls(limit=1)[0].client == shown
        finally:
            store.close()
