"""A backup restored from another process while the window has the store open (issue 36): the
restore is refused, naming the window's process, and what the window saves afterwards is in
the file, as the CLI reads it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memdesk.core.storage.backup import make_backup
from memdesk.core.store import Store

ROOT = Path(__file__).resolve().parents[2]


def memdesk(path, *args):
    return subprocess.run(
        [sys.executable, "-m", "memdesk", "--db", str(path), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(ROOT),
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )


def test_a_restore_under_the_window_is_refused_and_its_later_saves_are_kept(tmp_path, launch, type_text):
    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add(content="备份里有的")
    make_backup(path, "manual")
    store.add(content="备份之后加的")
    store.close()
    window = launch(path)
    refused = memdesk(path, "backup", "restore", "1", "--yes")
    assert refused.returncode == 1, refused.stdout
    assert "is open in" in refused.stderr and f"pid {os.getpid()}" in refused.stderr
    assert "Nothing was changed" in refused.stderr
    window.new_memory()
    type_text(window.editor.form.content, "还原之后在窗口里写的")
    window.editor.save()
    window.settle()
    listed = json.loads(memdesk(path, "list", "--json").stdout)
    assert sorted(m["content"] for m in listed) == sorted(["备份里有的", "备份之后加的", "还原之后在窗口里写的"])
    assert window.browser.counts()["active"] == len(listed)  # the window and the file agree


HOLDER = """
import sys
from memdesk.core.store import Store
store = Store.open(sys.argv[1])
store.count()
print("ready", flush=True)
sys.stdin.readline()
store.close()
"""


def test_the_windows_own_restore_of_a_damaged_file_is_refused_while_another_process_has_it_open(tmp_path, asker, qtbot):
    from memdesk.gui.main import App

    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add(content="备份里的记忆")
    store.close()
    make_backup(path, "manual")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        with open(path, "r+b") as fh:  # damaged under the other process
            fh.write(b"this is not an SQLite file any more")
        asker.choices.append("restore")  # the window offers the newest backup
        app = App(ask=asker, maintenance_delay_ms=10**9)
        assert not app.open(str(path))
        assert asker.informed and "was not restored" in asker.informed[-1] and str(holder.pid) in asker.informed[-1]
        assert path.read_bytes().startswith(b"this is not")  # left as it was
    finally:
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(timeout=60)
