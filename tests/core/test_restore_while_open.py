"""Restoring a backup never replaces a store under a process that has it open (issue 36):
refused while any Store, in this process or another, is open on the file; nothing anyone
writes is lost either way (core/storage/sole_access.py says why this design)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from memdesk.core.domain.errors import StoreInUseError
from memdesk.core.storage.backup import make_backup, restore_backup
from memdesk.core.store import Store

pytestmark = pytest.mark.sqlite_only  # the file, its locks and its backups
ROOT = Path(__file__).resolve().parents[2]

HOLDER = """
import sys
from memdesk.core.store import Store
store = Store.open(sys.argv[1])
store.count()
print("ready", flush=True)
sys.stdin.readline()  # hold the store open until told to write
store.add(content="另一个进程在还原之后写的")
store.close()
print("done", flush=True)
"""


@pytest.fixture(autouse=True)
def short_wait(monkeypatch):
    """A refused restore waits for the holders this long first (2 s in use: a CLI write ending)."""
    from memdesk.core.storage import sole_access

    monkeypatch.setattr(sole_access, "WAIT_S", 0.05)


def contents(path: Path) -> list[str]:
    """What the file holds, read by a plain connection closed at once (no Store left open)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return sorted(c for (c,) in conn.execute("SELECT content FROM memory WHERE deleted_at IS NULL"))
    finally:
        conn.close()


def seeded(tmp_path: Path) -> tuple[Path, Path]:
    """A store with one memory and a backup of it, then a second memory; (store, backup)."""
    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add(content="备份之前")
    backup = make_backup(path, "manual")
    store.add(content="备份之后")
    store.close()
    assert backup is not None
    return path, backup


def test_a_restore_is_refused_while_a_store_of_this_process_is_open(tmp_path):
    path, backup = seeded(tmp_path)
    store = Store.open(path)
    try:
        store.count()
        with pytest.raises(StoreInUseError) as err:
            restore_backup(path, backup)
        assert "this process" in str(err.value) and "Nothing was changed" in str(err.value)
        assert err.value.code == "store_in_use"
        store.add(content="还原被拒之后写的")
        assert store.count() == 3
    finally:
        store.close()
    assert contents(path) == sorted(["备份之前", "备份之后", "还原被拒之后写的"])


def test_a_restore_is_refused_while_another_process_has_the_store_open(tmp_path):
    path, backup = seeded(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=str(ROOT),
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(StoreInUseError) as err:
            restore_backup(path, backup)
        assert f"pid {holder.pid}" in str(err.value)  # named (Linux: by its open -shm)
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "done"
    finally:
        holder.kill() if holder.poll() is None else None
        holder.wait(timeout=60)
    assert contents(path) == sorted(["备份之前", "备份之后", "另一个进程在还原之后写的"])


def test_once_every_store_is_closed_the_restore_goes_through_in_place(tmp_path):
    path, backup = seeded(tmp_path)
    inode = path.stat().st_ino
    safety = restore_backup(path, backup)
    assert contents(path) == ["备份之前"]
    assert safety is not None and contents(safety) == sorted(["备份之前", "备份之后"])
    assert path.stat().st_ino == inode  # written through SQLite, not renamed over
    store = Store.open(path)  # and the store works on: writes after the restore are kept
    store.add(content="还原之后")
    store.close()
    assert contents(path) == sorted(["备份之前", "还原之后"])


class RestoreMachine(RuleBasedStateMachine):
    """Stores opened and closed, writes, backups and restores in any order: a restore goes
    through exactly when no store is open, and the file always holds what the model says."""

    def __init__(self):
        super().__init__()
        import tempfile

        self.folder = Path(tempfile.mkdtemp(prefix="restore-machine-"))
        self.path = self.folder / "m.db"
        Store.open(self.path).close()
        self.open: list[Store] = []
        self.expected: list[str] = []
        self.backups: list[tuple[Path, list[str]]] = []
        self.counter = 0

    @rule()
    def open_store(self):
        store = Store.open(self.path)
        store.count()
        self.open.append(store)

    @precondition(lambda self: self.open)
    @rule(which=st.integers(min_value=0))
    def close_store(self, which):
        self.open.pop(which % len(self.open)).close()

    @precondition(lambda self: self.open)
    @rule(which=st.integers(min_value=0))
    def write(self, which):
        self.counter += 1
        text = f"记忆{self.counter}"
        self.open[which % len(self.open)].add(content=text)
        self.expected.append(text)

    @rule()
    def back_up(self):
        made = make_backup(self.path, "manual", keep=100)
        if made is not None:
            self.backups.append((made, sorted(self.expected)))

    @precondition(lambda self: self.backups)
    @rule(which=st.integers(min_value=0))
    def restore(self, which):
        backup, held = self.backups[which % len(self.backups)]
        if self.open:
            with pytest.raises(StoreInUseError):
                restore_backup(self.path, backup)
        else:
            restore_backup(self.path, backup)
            self.expected = list(held)

    @invariant()
    def the_file_holds_every_write_the_model_kept(self):
        assert contents(self.path) == sorted(self.expected)

    def teardown(self):
        import shutil

        for store in self.open:
            store.close()
        shutil.rmtree(self.folder, ignore_errors=True)


TestRestoreMachine = RestoreMachine.TestCase
TestRestoreMachine.settings = settings(
    max_examples=12, stateful_step_count=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def test_a_restore_names_an_open_mcp_server(tmp_path):
    path, backup = seeded(tmp_path)
    server = subprocess.Popen(
        [sys.executable, "-m", "memdesk", "--db", str(path), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=str(ROOT),
    )
    try:
        server.stdin.write(
            b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
            b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
        )
        server.stdin.flush()
        assert b'"id":1' in server.stdout.readline()  # answered: its store is open (opened before serving)
        with pytest.raises(StoreInUseError) as err:
            restore_backup(path, backup)
        assert f"an MCP server (pid {server.pid})" in err.value.holders
    finally:
        server.kill()
        server.wait(timeout=60)
    assert contents(path) == sorted(["备份之前", "备份之后"])
