"""Does the open window show at once what other processes change, and stay responsive while
another process holds the write lock?

    python bench/live_sync.py [--json] [--memories 300]

The real window (App from memdesk/gui/main.py, offscreen) is opened on a fresh store with a
search running and a memory open in the editor. A second process (a small Python writer
using memdesk.core.store.Store, driven over stdin) then makes each kind of change:
add, edit, delete, restore, purge, import (keeping the file's old updated_at), merge,
persona, revert (an assistant's tool call) and maintenance (purge_trash). For each, the
time from the writer's commit to the change being visible in the window (tree, search
results, the open editor and the status-bar counts, as that kind calls for) is reported.

- touch_refreshes: view refreshes caused by 2,000 access-count touches (must be 0).
- counts_match: the status bar's counts equal the store's at the end.
- ui_max_stall_ms_while_locked: the writer holds the write lock for 10 s (BEGIN IMMEDIATE;
  sleep; COMMIT) while the user saves an edit: the longest gap between ticks of a 5 ms UI
  timer, minus the interval. The edit must be stored afterwards (edit_saved_after_lock).
- change_log_rows_after_prune: the writer adds touches, then maintenance prunes the feed
  (keep 1,000): rows left; the window, behind the prune, reloads and still matches.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from ui_stall import StallMeter  # noqa: E402  (bench/ is on sys.path when run as a script)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

WRITER = r"""
import json, sys, time
from memdesk.core.store import Store
store = Store.open(sys.argv[1])
conn = None
def done(**kw):
    kw["at"] = time.time()
    print(json.dumps(kw), flush=True)
for line in sys.stdin:
    cmd = json.loads(line)
    kind = cmd["kind"]
    if kind == "add":
        done(id=store.add(content="同步测试 新加的记忆 " + cmd["text"], title="新加的").added[0])
    elif kind == "edit":
        store.update(cmd["id"], expected_version=None, reason="ai", title=cmd["title"])
        done()
    elif kind == "delete":
        store.delete([cmd["id"]]); done()
    elif kind == "restore":
        store.restore([cmd["id"]]); done()
    elif kind == "purge":
        store.delete([cmd["id"]]); store.purge([cmd["id"]]); done()
    elif kind == "import":
        items = [{"content": f"同步测试 导入的旧记忆 {i}", "created_at": "2020-03-01T08:00:00Z",
                  "updated_at": "2020-03-01T08:00:00Z"} for i in range(cmd["n"])]
        done(ids=list(store.add_many(items, source="import").added))
    elif kind == "merge":
        from memdesk.core.maintenance import merge
        new_id, _ = merge(store, cmd["ids"], content="同步测试 合并后的记忆")
        done(id=new_id)
    elif kind == "persona":
        pid, _ = store.create_persona(name=cmd["name"]); done(id=pid)
    elif kind == "tool_save":
        from memdesk.core.tools.service import MemoryTools
        tools = MemoryTools(store, persona=None, client="bench")
        mid = tools.call("memory_save", {"content": "同步测试 助手保存的"})["id"]
        from memdesk.core.tools import log
        call = log.calls(limit=1)[0]
        done(id=mid, call=call.id)
    elif kind == "revert":
        from memdesk.core.tools import log
        with store.write():
            log.revert(cmd["call"])
        done()
    elif kind == "maintenance":
        from memdesk.core.maintenance import run_maintenance
        report = run_maintenance(store, ["purge_trash"], trash_days=0)
        done(purged=list(report.changes.purged))
    elif kind == "touch":
        ids = cmd["ids"]
        for i in range(cmd["n"]):
            store.touch([ids[i % len(ids)]])
        done()
    elif kind == "prune":
        from memdesk.core.maintenance import run_maintenance
        run_maintenance(store, ["prune_feed"], feed_keep=cmd["keep"])
        rows = store.connection().execute("SELECT COUNT(*) FROM change_log").fetchone()[0]
        done(rows=rows)
    elif kind == "lock":
        c = store.connection()
        c.execute("BEGIN IMMEDIATE")
        done()
        time.sleep(cmd["seconds"])
        c.execute("COMMIT")
        done(released=True)
    elif kind == "quit":
        done(); break
store.close()
"""


class Writer:
    def __init__(self, db: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=str(ROOT),
            bufsize=1,
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def send(self, **cmd):
        self.proc.stdin.write(json.dumps(cmd, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()

    def reply(self, pump, timeout_s=60):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                return self.lines.get_nowait()
            except queue.Empty:
                pump(0.005)
        raise TimeoutError("the writer did not answer")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--memories", type=int, default=300)
    args = parser.parse_args(argv)

    from PySide6.QtCore import QEventLoop, QSettings, QTimer

    from memdesk.core.store import Store

    work = Path(tempfile.mkdtemp(prefix="memdesk-live-"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(work / "settings"))
    db = work / "live.db"
    store = Store.open(db)
    ids = list(
        store.add_many(
            [{"content": f"同步测试 记忆 {i}", "title": f"记忆{i}"} for i in range(args.memories)], source="manual"
        ).added
    )
    store.close()

    from memdesk.gui.main import App, application

    _qt_app = application()  # held: the QApplication must outlive the window
    app = App(maintenance_delay_ms=10**9)
    app.open(db, create=True)
    window = app.window
    window.show()
    browser, tree = window.browser, window.browser.tree

    def pump(seconds: float) -> None:
        loop = QEventLoop()
        QTimer.singleShot(max(1, int(seconds * 1000)), loop.quit)
        loop.exec()

    def wait(condition, timeout_s=30.0) -> float:
        """Pump until condition(); returns the time it became true."""
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("not visible in time")
            pump(0.002)
        return time.time()

    wait(lambda: not tree.building and browser.backend.engine_ready, 120)
    wait(lambda: not app.session.taskman.tasks(), 120)
    window.search_bar.set_text("同步测试")
    wait(lambda: browser.searching and browser.table.model.rowCount() > 0)
    edited = ids[0]
    window.open_memory(edited)
    writer = Writer(db)

    def briefs():
        return tree.model.tree.briefs

    def result_ids():
        model = browser.table.model
        return {model.hit(r).id for r in range(model.rowCount())}

    def counts_ok():
        probe = Store.open(db)
        try:
            active, trash = probe.count(state="active"), probe.count(state="deleted")
        finally:
            probe.close()
        c = tree.counts()
        text = window.counts_label.text()
        return (
            c["active"] == active
            and c["trash"] == trash
            and f"{active} memories" in text
            and f"{trash} in the trash" in text
        )

    def state(memory_id):
        b = briefs().get(memory_id)
        return b.state if b else None

    kinds: dict[str, float] = {}

    def measure(kind, cmd, visible):
        writer.send(**cmd)
        reply = writer.reply(pump)
        seen = wait(lambda: visible(reply))
        kinds[kind] = round(max(0.0, seen - reply["at"]), 3)
        return reply

    measure(
        "add", {"kind": "add", "text": "甲"}, lambda r: r["id"] in briefs() and r["id"] in result_ids() and counts_ok()
    )
    measure(
        "edit",
        {"kind": "edit", "id": edited, "title": "外部改的标题"},
        lambda r: briefs()[edited].title == "外部改的标题" and window.editor.form.title.text() == "外部改的标题",
    )
    victim = ids[1]
    measure("delete", {"kind": "delete", "id": victim}, lambda r: state(victim) == "deleted" and counts_ok())
    measure(
        "restore",
        {"kind": "restore", "id": victim},
        lambda r: state(victim) == "active" and victim in result_ids() and counts_ok(),
    )
    measure(
        "purge",
        {"kind": "purge", "id": ids[2]},
        lambda r: ids[2] not in briefs() and ids[2] not in result_ids() and counts_ok(),
    )
    measure("import", {"kind": "import", "n": 50}, lambda r: all(i in briefs() for i in r["ids"]) and counts_ok())
    merged = ids[3:5]
    measure(
        "merge",
        {"kind": "merge", "ids": merged},
        lambda r: r["id"] in briefs() and all(state(i) == "superseded" for i in merged) and counts_ok(),
    )
    measure("persona", {"kind": "persona", "name": "同步角色"}, lambda r: window.persona_combo.findData(r["id"]) >= 0)
    writer.send(kind="tool_save")
    saved = writer.reply(pump)
    wait(lambda: saved["id"] in briefs())
    measure(
        "revert", {"kind": "revert", "call": saved["call"]}, lambda r: state(saved["id"]) == "deleted" and counts_ok()
    )
    measure(
        "maintenance",
        {"kind": "maintenance"},
        lambda r: r["purged"] and all(i not in briefs() for i in r["purged"]) and counts_ok(),
    )

    # Touches: feed rows, nothing visible; they must not refresh anything.
    refreshes = []
    app.session.changes_applied.connect(refreshes.append)
    writer.send(kind="touch", ids=ids[5:50], n=2000)
    writer.reply(pump)
    pump(1.0)
    touch_refreshes = len(refreshes)
    app.session.changes_applied.disconnect(refreshes.append)

    # Another process holds the write lock for 10 s while the user saves an edit.
    wait(lambda: not app.session.taskman.tasks())
    meter = StallMeter()
    writer.send(kind="lock", seconds=10)
    writer.reply(pump)  # the lock is held from here
    meter.start()
    editor = window.editor
    editor.form.content.setPlainText("锁住期间保存的内容")
    editor.save()
    waiting_shown = []
    released = None
    deadline = time.monotonic() + 30
    while released is None and time.monotonic() < deadline:
        pump(0.05)
        waiting_shown.append(window.waiting_label.isVisible())
        try:
            released = writer.lines.get_nowait()
        except queue.Empty:
            pass
    wait(lambda: not editor.saving)
    stall = meter.stop()
    probe = Store.open(db)
    edit_saved = probe.get(edited).content == "锁住期间保存的内容"
    probe.close()

    # Prune the feed past the window's marker: it reloads and still matches.
    writer.send(kind="touch", ids=ids[5:50], n=3000)
    writer.reply(pump)
    writer.send(kind="prune", keep=1000)
    rows = writer.reply(pump)["rows"]
    writer.send(kind="add", text="乙")
    after_prune = writer.reply(pump)
    wait(lambda: after_prune["id"] in briefs() and counts_ok())
    pump(0.5)
    counts_match = counts_ok()
    writer.send(kind="quit")
    writer.reply(pump)
    writer.proc.wait(10)

    figures = {
        "kinds": kinds,
        "max_visible_s": max(kinds.values()),
        "counts_match": counts_match,
        "touch_refreshes": touch_refreshes,
        "ui_max_stall_ms_while_locked": round(stall, 1) if stall is not None else None,
        "waiting_shown_while_locked": any(waiting_shown),
        "edit_saved_after_lock": edit_saved,
        "change_log_rows_after_prune": rows,
    }
    app.shutdown()
    window.close()
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    else:
        for kind, seconds in kinds.items():
            print(f"{kind:<12} visible after {seconds:.3f} s")
        for key, value in figures.items():
            if key != "kinds":
                print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
