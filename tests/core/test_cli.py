"""The `memdesk` command as a user and a script run it (real processes)."""

import json
import os
import subprocess
import sys

import pytest


def run(db, *args, stdin=None):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "memdesk", "--db", str(db), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture
def db(db_path):
    """The test's store, made beforehand: `--db` to a file that does not exist is refused."""
    from memdesk.core.store import Store

    Store.open(db_path).close()
    return db_path


def test_add_then_list_json_prints_every_field(db):
    result = run(
        db,
        "add",
        "--title",
        "不喝咖啡因",
        "--content",
        "用户下午后不喝含咖啡因饮品",
        "--group",
        "偏好",
        "--tags",
        "习惯,健康",
    )
    assert result.returncode == 0, result.stderr
    listed = run(db, "list", "--json")
    assert listed.returncode == 0
    [memory] = json.loads(listed.stdout)
    assert memory["title"] == "不喝咖啡因" and memory["content"] == "用户下午后不喝含咖啡因饮品"
    assert memory["group"] == "偏好" and memory["tags"] == ["习惯", "健康"]
    expected = {
        "id",
        "persona_id",
        "group",
        "title",
        "content",
        "summary",
        "tags",
        "type",
        "scope",
        "importance",
        "source",
        "dedup_key",
        "content_hash",
        "created_at",
        "updated_at",
        "last_access_at",
        "access_count",
        "mention_count",
        "expires_at",
        "deleted_at",
        "superseded_by",
        "tier",
        "heat",
    }
    assert expected <= set(memory)


def test_exit_codes(db):
    bad = run(db, "add", "--content", "x", "--importance", "42")
    assert bad.returncode == 1 and "importance" in bad.stderr and "Traceback" not in bad.stderr
    assert run(db, "no-such-command").returncode == 2
    assert run(db, "show", "missing-id").returncode == 1
    assert run(db, "list", "--json").stdout.strip() == "[]"


def test_edit_show_delete_restore_purge(db):
    memory_id = json.loads(run(db, "add", "--content", "住在北京", "--json").stdout)["id"]
    assert run(db, "edit", memory_id, "--content", "住在上海").returncode == 0
    shown = json.loads(run(db, "show", memory_id, "--json").stdout)
    assert shown["content"] == "住在上海" and shown["revisions"][0]["before"]["content"] == "住在北京"
    assert run(db, "purge", memory_id).returncode == 1  # not in the trash yet
    assert run(db, "delete", memory_id).returncode == 0
    assert json.loads(run(db, "list", "--json").stdout) == []
    assert len(json.loads(run(db, "list", "--state", "deleted", "--json").stdout)) == 1
    assert run(db, "restore", memory_id).returncode == 0
    run(db, "delete", memory_id)
    assert json.loads(run(db, "purge", memory_id, "--json").stdout) == {"ids": [memory_id]}


def test_personas_and_stats(db):
    assert run(db, "persona", "add", "工作助手").returncode == 0
    run(db, "add", "--content", "量化交易", "--persona", "工作助手")
    run(db, "add", "--content", "全局的")
    run(db, "add", "--content", "临时", "--scope", "short_term", "--expires", "7d")
    listed = json.loads(run(db, "list", "--persona", "工作助手", "--json").stdout)
    assert {m["content"] for m in listed} == {"量化交易", "全局的", "临时"}
    stats = json.loads(run(db, "stats", "--json").stdout)
    assert stats["total"] == 3 and stats["by_persona"]["工作助手"] == 1
    usage = run(db, "persona", "delete", "工作助手")
    assert usage.returncode == 2 and "--memories" in usage.stderr
    assert run(db, "persona", "delete", "工作助手", "--memories", "trash").returncode == 0
    assert json.loads(run(db, "stats", "--json").stdout)["total"] == 2


def test_export_import_round_trip(db, tmp_path):
    run(db, "add", "--content", "用户喜欢猫", "--tags", "宠物")
    out = tmp_path / "out.json"
    assert run(db, "export", str(out)).returncode == 0
    other = tmp_path / "other.db"
    assert run(other, "init").returncode == 0
    dry = json.loads(run(other, "import", str(out), "--dry-run", "--json").stdout)
    assert dry["summary"]["new"] == 1 and dry["written"] == 0
    assert run(other, "import", str(out)).returncode == 0
    assert json.loads(run(other, "list", "--json").stdout)[0]["tags"] == ["宠物"]
    broken = tmp_path / "broken.json"
    broken.write_text("{oops", encoding="utf-8")
    result = run(other, "import", str(broken))
    assert result.returncode == 1 and "not valid JSON" in result.stderr


def test_search_finds_substrings(db):
    run(db, "add", "--content", "茅台(600519)是重点关注股票")
    run(db, "add", "--content", "用户偏好 Python")
    found = json.loads(run(db, "search", "600519", "--json").stdout)
    assert [m["content"] for m in found] == ["茅台(600519)是重点关注股票"]


def test_newer_database_message(tmp_path):
    import sqlite3

    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    result = run(path, "list")
    assert result.returncode == 1 and "newer MemDesk" in result.stderr
