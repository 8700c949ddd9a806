"""`--db` (or MEMDESK_DB) naming a file that does not exist is an error that creates nothing,
not a new empty store that looks like the user's own emptied (issue 36); `memdesk init PATH`
and `--create` make one; the default store is still made on first use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.core.store import Store

pytestmark = pytest.mark.sqlite_only  # files and folders that must not appear
ROOT = Path(__file__).resolve().parents[2]


def memdesk(*args, env=None, stdin=subprocess.DEVNULL):
    full = dict(os.environ, PYTHONIOENCODING="utf-8", **(env or {}))
    if env is not None and "MEMDESK_DB" not in env:
        full.pop("MEMDESK_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "memdesk", *map(str, args)],
        capture_output=True,
        text=True,
        env=full,
        timeout=120,
        cwd=str(ROOT),
        stdin=stdin,
    )


@pytest.mark.parametrize(
    "command",
    [["list"], ["stats"], ["search", "咖啡"], ["add", "--content", "写进错的地方"], ["mcp"], ["persona", "list"]],
)
def test_a_db_that_does_not_exist_is_refused_and_nothing_is_created(tmp_path, command):
    missing = tmp_path / "none" / "x.db"
    done = memdesk("--db", missing, *command)
    assert done.returncode == 1, done.stderr
    assert f"no store at {missing}; use `memdesk init {missing}` or `--create`" in done.stderr
    assert "Traceback" not in done.stderr
    assert not missing.parent.exists()  # not the folder either


def test_memdesk_db_that_does_not_exist_is_refused_too(tmp_path):
    missing = tmp_path / "none" / "x.db"
    done = memdesk("list", env={"MEMDESK_DB": str(missing)})
    assert done.returncode == 1 and "no store at" in done.stderr
    assert not missing.parent.exists()


def test_create_and_init_make_the_store(tmp_path):
    made = tmp_path / "a" / "made.db"
    done = memdesk("add", "--content", "新库里的第一条", "--db", made, "--create")
    assert done.returncode == 0, done.stderr
    assert memdesk("--db", made, "list").stdout.count("新库里的第一条") == 1
    fresh = tmp_path / "b" / "fresh.db"
    done = memdesk("init", fresh)
    assert done.returncode == 0 and "created a new store" in done.stdout
    assert memdesk("--db", fresh, "stats").returncode == 0
    again = memdesk("init", made)  # an existing store is left as it was
    assert again.returncode == 0 and "already a MemDesk store (1 memories)" in again.stdout


def test_init_refuses_a_file_that_is_not_a_store_unchanged(tmp_path):
    notes = tmp_path / "notes.db"
    notes.write_text("不是数据库", encoding="utf-8")
    done = memdesk("init", notes)
    assert done.returncode == 1 and "not a MemDesk database" in done.stderr
    assert notes.read_text(encoding="utf-8") == "不是数据库"


def test_the_default_store_is_created_on_first_use(tmp_path):
    home = tmp_path / "home"
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    done = memdesk("list", env=env)
    assert done.returncode == 0, done.stderr
    assert (home / "data" / "MemDesk" / "memdesk.db").is_file()


def test_an_existing_store_opens_as_before(tmp_path):
    path = tmp_path / "m.db"
    Store.open(path).close()
    assert memdesk("--db", path, "list").returncode == 0
