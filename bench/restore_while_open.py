"""A backup restored while the window and an MCP server have the store open (issue 36).

    python bench/restore_while_open.py [--writes 20]

In this process: the real window (offscreen Qt) on a store with a backup; beside it the MCP
server (`memdesk mcp`, driven over stdio by the mcp SDK's client). A third process runs
`memdesk backup restore 1 --yes`. Then the window (its own write path: the session's db
lane) and the server (memory_save) each write --writes memories. Every write must be in
the file afterwards, whatever the restore did; the window must show what the file holds.

Prints one JSON line: {"restore_refused", "writes_sent", "writes_present",
"window_shows_restored"}; the restore's message and the counts go to stderr.
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
from functools import partial
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from memdesk.core.storage.backup import make_backup  # noqa: E402
from memdesk.core.store import Store  # noqa: E402

BEFORE_BACKUP, AFTER_BACKUP = 3, 2  # memories in the backup, and added after it


def seed(path: Path) -> None:
    store = Store.open(path)
    for i in range(BEFORE_BACKUP):
        store.add(content=f"备份里的记忆 {i}", tags=["seed"])
    make_backup(path, "manual")
    for i in range(AFTER_BACKUP):
        store.add(content=f"备份之后的记忆 {i}", tags=["seed"])
    store.close()


class McpClient(threading.Thread):
    """The MCP server's client on a thread of its own: connects, then saves when told to."""

    def __init__(self, path: Path, writes: int):
        super().__init__(daemon=True)
        self.path, self.writes = path, writes
        self.ready, self.done = threading.Event(), threading.Event()
        self.go: queue.Queue = queue.Queue()
        self.errors: list[str] = []
        self.sent = 0

    def run(self) -> None:
        try:
            anyio.run(self._session)
        except BaseException as exc:  # noqa: BLE001 - a bench reports whatever broke
            self.errors.append(f"mcp: {exc!r}")
            self.ready.set()
            self.done.set()

    async def _session(self) -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "memdesk", "--db", str(self.path), "mcp"], cwd=str(ROOT)
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("memory_search", {"query": "备份"})
            self.ready.set()
            while self.go.empty():
                await anyio.sleep(0.02)
            for i in range(self.writes):
                self.sent += 1
                result = await session.call_tool("memory_save", {"content": f"助手在还原后写的 {i}", "tags": ["mcp"]})
                if result.is_error:
                    self.errors.append(f"mcp: {result.content[0].text}")
            self.done.set()
            while self.go.qsize() < 2:  # stay connected (the store open) until the window is done
                await anyio.sleep(0.02)


def open_window(path: Path):
    from PySide6.QtCore import QSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from memdesk.gui.dialogs.ask import Asker
    from memdesk.gui.main import App, application

    class Told(Asker):
        """Records what the window says instead of waiting on a dialog."""

        def __init__(self):
            self.informed: list[str] = []

        def inform(self, parent, title, text):
            self.informed.append(text)

    qt_app = application()
    app = App(ask=Told(), maintenance_delay_ms=10**9)
    if not app.open(path):
        raise SystemExit("the window could not open the store")
    return qt_app, app


def pump(qt_app, until, timeout_s: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        qt_app.processEvents()
        if until():
            return True
        time.sleep(0.01)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=20, help="memories written by the window and by the server each")
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="memdesk-restore-")) / "memdesk.db"
    seed(path)
    qt_app, app = open_window(path)
    window = app.window
    pump(qt_app, lambda: not window.browser.tree.building)
    client = McpClient(path, args.writes)
    client.start()
    client.ready.wait(120)

    restore = subprocess.run(
        [sys.executable, "-m", "memdesk", "--db", str(path), "backup", "restore", "1", "--yes"],
        capture_output=True,
        text=True,
        cwd=str(ROOT),
        timeout=120,
    )
    refused = restore.returncode != 0
    print(f"restore exit {restore.returncode}: {(restore.stderr or restore.stdout).strip()}", file=sys.stderr)

    client.go.put("write")
    from memdesk.core.ops.memories import add_memory

    session, failed = window.session, []
    for i in range(args.writes):
        fields = {"content": f"窗口在还原后写的 {i}", "tags": ["window"]}
        session.perform(partial(add_memory, fields=fields), label="add", on_error=lambda exc: failed.append(exc))
    pump(qt_app, lambda: not session.writing and client.done.is_set(), timeout_s=300)
    sent = args.writes + client.sent

    # What the window shows, once its change feed has taken in the server's writes.
    expected_if_restored = BEFORE_BACKUP + sent
    expected_if_kept = BEFORE_BACKUP + AFTER_BACKUP + sent
    wanted = expected_if_kept if refused else expected_if_restored
    pump(qt_app, lambda: window.browser.counts()["active"] == wanted, timeout_s=30)
    shown = window.browser.counts()["active"]
    told = list(app.ask.informed)
    client.go.put("close")
    client.join(60)
    window.editor._dirty = False
    window.close()
    app.shutdown()

    store = Store.open(path)  # after every other holder closed: what the file holds
    present = store.count(tag="window") + store.count(tag="mcp")
    total = store.count()
    store.close()
    print(
        f"file: {total} memories ({present} of the {sent} written after the restore); window shows {shown}; "
        f"window said: {told or 'nothing'}; errors: {[repr(e) for e in failed] + client.errors}",
        file=sys.stderr,
    )
    result = {
        "restore_refused": refused,
        "writes_sent": sent,
        "writes_present": present,
        "window_shows_restored": (not refused) and shown == expected_if_restored == total,
    }
    print(json.dumps(result))
    return 0 if present == sent and shown == total else 1


if __name__ == "__main__":
    sys.exit(main())
