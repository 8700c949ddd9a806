"""Opening files: schema version, newer files refused, damaged files, backups."""

import sqlite3

import pytest

from memdesk.core.domain.errors import CorruptDatabaseError, SchemaTooNewError
from memdesk.core.storage.backup import list_backups, make_backup
from memdesk.core.storage.db import schema_version
from memdesk.core.storage.migrations import LATEST_VERSION
from memdesk.core.store import Store

pytestmark = pytest.mark.sqlite_only  # the file itself: header, WAL, file backups


def test_new_file_is_at_latest_version_in_wal_mode(store, db_path):
    assert schema_version(db_path) == LATEST_VERSION
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_file_from_newer_memdesk_is_refused_unchanged(tmp_path):
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE memory (id TEXT)")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(SchemaTooNewError) as err:
        Store.open(path)
    assert "newer MemDesk" in str(err.value) and "99" in str(err.value)
    assert path.read_bytes() == before


def test_not_a_database_is_refused_unchanged(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("这不是数据库", encoding="utf-8")
    with pytest.raises(CorruptDatabaseError) as err:
        Store.open(path)
    assert "not a MemDesk database" in str(err.value)
    assert path.read_text(encoding="utf-8") == "这不是数据库"


def test_backups_rotate_and_are_readable(store, db_path):
    store.add(content="重要的记忆")
    made = [make_backup(db_path, "test", keep=3) for _ in range(5)]
    backups = list_backups(db_path)
    assert len(backups) == 3 and backups[0].path == made[-1]
    conn = sqlite3.connect(backups[0].path)
    assert conn.execute("SELECT content FROM memory").fetchone()[0] == "重要的记忆"
    conn.close()


def test_reopening_keeps_data(db_path):
    store = Store.open(db_path)
    memory_id = store.add(content="persist").added[0]
    store.close()
    again = Store.open(db_path)
    assert again.get(memory_id).content == "persist"
    again.close()


def test_restore_backup_after_damage(tmp_path):
    import subprocess
    import sys

    from memdesk.core.storage.backup import check_integrity

    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add(content="备份里的记忆")
    store.close()

    def run(*a):
        return subprocess.run(
            [sys.executable, "-m", "memdesk", "--db", str(path), *a], capture_output=True, text=True, timeout=60
        )

    assert run("backup", "make").returncode == 0
    # damage the file: overwrite pages past the header
    data = bytearray(path.read_bytes())
    data[100 : 4096 * 3] = b"\x00" * (4096 * 3 - 100)
    path.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"m.db{suffix}").unlink(missing_ok=True)
    assert check_integrity(path) != "ok"
    refused = run("backup", "restore", "1")
    assert refused.returncode == 1 and "--yes" in refused.stderr
    restored = run("backup", "restore", "1", "--yes")
    assert restored.returncode == 0, restored.stderr
    assert check_integrity(path) == "ok"
    listed = run("list", "--json")
    assert "备份里的记忆" in listed.stdout
