"""The CLI's rough edges from issue 16: global options after the command.

Commands run in this process through memdesk.cli.main (the real parser and a real SQLite
file; nothing of MemDesk is replaced); `mcp` runs as a real subprocess.
"""
import json
import sys

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from memdesk.cli import main
from memdesk.core.store import Store

# Two memories share the prefix "abcd"; a third starts differently.
IDS = ("abcd1111-0000-4000-8000-000000000001", "abcd2222-0000-4000-8000-000000000002",
       "ef015678-0000-4000-8000-000000000003")


@pytest.fixture
def db(db_path):
    store = Store.open(db_path)
    for memory_id, content in zip(IDS, ("用户喜欢猫", "用户住在上海", "morning coffee every day")):
        store.add(id=memory_id, content=content)
    store.close()
    return db_path


@pytest.fixture
def cli(capsys):
    def run(*argv):
        """(exit code, stdout, stderr) of `memdesk *argv`; argparse's exit 2 included."""
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err
    return run


def state(db_path, memory_id):
    store = Store.open(db_path)
    try:
        record = store.get_many([memory_id]).get(memory_id)
        return None if record is None else ("trash" if record.is_deleted else "live")
    finally:
        store.close()


# ---- global options after the command -----------------------------------------------------------------
def test_db_and_json_after_the_command(db, tmp_path, cli):
    before = cli("--db", db, "--json", "list")
    after = cli("list", "--db", db, "--json")
    mixed = cli("--json", "list", "--db", db)
    assert before[0] == after[0] == mixed[0] == 0
    assert {m["id"] for m in json.loads(after[1])} == set(IDS)
    assert before[1] == after[1] == mixed[1]
    other = tmp_path / "other.db"
    assert json.loads(cli("list", "--json", "--db", other)[1]) == []  # the later --db is the one used
    assert cli("stats", "--db", db, "--json")[0] == 0
    assert json.loads(cli("persona", "list", "--json", "--db", db)[1]) == []  # an action of a command
    code, _, err = cli("backup", "list", "--db", other)
    assert code == 0 and str(other) in err  # commands that open no store read --db too


def test_json_only_where_the_command_has_it(db, cli):
    code, _, err = cli("--db", db, "--json", "mcp")
    assert code == 2 and "`memdesk mcp` has no JSON output" in err
    code, _, err = cli("--db", db, "mcp", "--json")
    assert code == 2 and "unrecognized arguments: --json" in err


def test_mcp_with_db_after_the_command_serves_that_database(db):
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdesk", "mcp", "--db", str(db)])

    async def session_run():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                found = await session.call_tool("memory_search", {"query": "猫"})
                return json.loads(found.content[0].text)["results"]

    assert [r["id"] for r in anyio.run(session_run)] == [IDS[0]]


