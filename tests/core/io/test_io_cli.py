"""`memdesk import` with the new formats, --strict and --dry-run, as a user runs it."""

import json
import os
import subprocess
import sys


def run(db, *args):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "memdesk", "--db", str(db), *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_import_prints_invalid_records_and_strict_refuses(tmp_path):
    db = tmp_path / "cli.db"
    assert run(db, "init").returncode == 0
    path = tmp_path / "notes.csv"
    path.write_text("content,tags,extra\n用户喜欢猫,宠物,x\n,空的,y\n用户喜欢猫,宠物,z\n", encoding="utf-8")
    strict = run(db, "import", str(path), "--strict")
    assert strict.returncode == 1 and "--strict refused" in strict.stderr and "Traceback" not in strict.stderr
    assert "record 2" in strict.stdout and "content" in strict.stdout
    assert json.loads(run(db, "list", "--json").stdout) == []
    dry = json.loads(run(db, "import", str(path), "--dry-run", "--json").stdout)
    assert dry["format"] == "csv" and dry["summary"]["new"] == 1 and dry["duplicates"] == 1
    assert dry["notes"] == ["columns ignored: extra"] and dry["written"] == 0
    done = run(db, "import", str(path))
    assert done.returncode == 0 and "written: 1; 1 invalid records skipped" in done.stdout
    wrong = run(db, "import", str(path), "--format", "blockcell")
    assert wrong.returncode == 1 and "not an SQLite database" in wrong.stderr
