"""The CLI's rough edges from issue 16: id prefixes, global options after the command, --why in words.

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
IDS = (
    "abcd1111-0000-4000-8000-000000000001",
    "abcd2222-0000-4000-8000-000000000002",
    "ef015678-0000-4000-8000-000000000003",
)


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


# ---- prefixes in every command that takes a memory id -------------------------------------------------
def test_the_ids_list_prints_work_everywhere(db, cli):
    code, out, _ = cli("--db", db, "list")
    assert code == 0
    short = {line.split()[0] for line in out.splitlines()}
    assert short == {i[:8] for i in IDS}
    coffee = IDS[2][:8]
    code, out, _ = cli("--db", db, "show", coffee)
    assert code == 0 and IDS[2] in out and "morning coffee" in out
    assert cli("--db", db, "edit", coffee, "--title", "咖啡")[0] == 0
    assert json.loads(cli("--db", db, "show", coffee, "--json")[1])["title"] == "咖啡"
    code, out, _ = cli("--db", db, "delete", coffee)
    assert code == 0 and IDS[2] in out and state(db, IDS[2]) == "trash"
    code, out, _ = cli("--db", db, "restore", coffee)
    assert code == 0 and state(db, IDS[2]) == "live"
    cli("--db", db, "delete", coffee)
    code, out, _ = cli("--db", db, "purge", coffee, "--json")
    assert code == 0 and json.loads(out) == {"ids": [IDS[2]]} and state(db, IDS[2]) is None


@pytest.mark.parametrize(
    "argv",
    [
        ("show", "abcd"),
        ("edit", "abcd", "--title", "x"),
        ("delete", "abcd"),
        ("search", "猫", "--why", "abcd"),
    ],
)
def test_an_ambiguous_prefix_lists_the_candidates(db, cli, argv):
    code, out, err = cli("--db", db, *argv)
    assert code == 1 and out == ""
    assert "matches 2 memories" in err and IDS[0] in err and IDS[1] in err and IDS[2] not in err
    assert "Traceback" not in err
    assert state(db, IDS[0]) == state(db, IDS[1]) == "live"


@pytest.mark.parametrize("command", ["restore", "purge"])
def test_trash_commands_choose_among_the_trash(db, cli, command):
    cli("--db", db, "delete", IDS[0], IDS[1])
    code, _, err = cli("--db", db, command, "abcd")
    assert code == 1 and "matches 2 memories" in err and "(in the trash)" in err
    cli("--db", db, "restore", IDS[0])
    code, out, err = cli("--db", db, command, "abcd")  # only one of the two is still in the trash
    assert code == 0, err
    assert IDS[1] in out and state(db, IDS[0]) == "live"
    assert state(db, IDS[1]) == ("live" if command == "restore" else None)


@pytest.mark.parametrize(
    "argv",
    [
        ("show", "{}"),
        ("edit", "{}", "--title", "x"),
        ("delete", "{}"),
        ("restore", "{}"),
        ("purge", "{}"),
        ("search", "猫", "--why", "{}"),
    ],
)
def test_unknown_and_too_short_prefixes_are_refused(db, cli, argv):
    code, out, err = cli("--db", db, *[a.format("9999") for a in argv])
    assert code == 1 and out == "" and "no memory id starts with '9999'" in err
    code, out, err = cli("--db", db, *[a.format("abc") for a in argv])
    assert code == 1 and out == "" and "'abc' is too short for an id prefix: give at least 4 characters" in err


def test_one_bad_id_among_several_changes_nothing(db, cli):
    code, _, err = cli("--db", db, "delete", IDS[2][:8], "abcd")
    assert code == 1 and "matches 2 memories" in err
    assert state(db, IDS[2]) == "live"


def test_delete_says_where_a_prefix_of_a_trashed_memory_is(db, cli):
    cli("--db", db, "delete", "ef01")
    code, _, err = cli("--db", db, "delete", "ef01")
    assert code == 1 and f"names memory {IDS[2]}, which is in the trash" in err


def test_tools_revert_takes_a_call_number_and_says_so(db, cli):
    code, _, err = cli("--db", db, "tools", "revert", "abcd1111")
    assert code == 2 and "'abcd1111' is not a tool call number" in err and "tools log" in err
    code, _, err = cli("--db", db, "tools", "revert", "12345")
    assert code == 1 and "no tool call 12345" in err


# ---- global options after the command -----------------------------------------------------------------
def test_db_and_json_after_the_command(db, tmp_path, cli):
    before = cli("--db", db, "--json", "list")
    after = cli("list", "--db", db, "--json")
    mixed = cli("--json", "list", "--db", db)
    assert before[0] == after[0] == mixed[0] == 0
    assert {m["id"] for m in json.loads(after[1])} == set(IDS)
    assert before[1] == after[1] == mixed[1]
    other = tmp_path / "other.db"
    code, _, err = cli("list", "--json", "--db", other)  # the later --db is the one used: refused, as it
    assert code == 1 and f"no store at {other}" in err and not other.exists()  # does not exist
    assert cli("stats", "--db", db, "--json")[0] == 0
    assert json.loads(cli("persona", "list", "--json", "--db", db)[1]) == []  # an action of a command
    assert json.loads(cli("--json", "persona", "--db", db, "list")[1]) == []
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


# ---- --why in words ------------------------------------------------------------------------------------
def test_why_found_in_words(db, cli):
    code, out, err = cli("--db", db, "search", "猫", "--keyword-only", "--why", "abcd1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(IDS[0][:8])
    assert lines[1].startswith("Search “猫”: score ")
    assert "    Matched words: 猫" in lines and "    Found by: keywords" in lines
    assert "    Place in the results: 1" in lines and "    Place in each ranking:" in lines
    assert "{" not in out and "matched_words" not in out


def test_why_not_found_in_words_and_json_stays_json(db, cli):
    code, out, _ = cli("--db", db, "search", "猫", "--keyword-only", "--why", "ef01")
    assert code == 0
    assert "Search “猫”: not in the results: it contains none of the search words" in out
    assert "{" not in out
    cli("--db", db, "delete", "ef01")
    code, out, _ = cli("--db", db, "search", "coffee", "--keyword-only", "--why", "ef01")
    assert code == 0 and "it is in the trash; add is:deleted to the query to see it" in out
    code, out, _ = cli("--db", db, "search", "猫", "--keyword-only", "--why", "abcd1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["memory_id"] == IDS[0] and data["reason"] == "returned" and data["position"] == 1


def test_every_part_of_an_explanation_has_words():
    from dataclasses import fields

    from memdesk.cli.format import WHY_LABELS
    from memdesk.core.search.rank.explain import HitExplanation

    assert {f.name for f in fields(HitExplanation)} <= set(WHY_LABELS)
    assert {"keyword", "expansion", "substring", "vector", "context"} <= set(WHY_LABELS)  # ranking names
