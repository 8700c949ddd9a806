"""Every earlier schema version upgrades cleanly, after a backup, in one transaction."""

import sqlite3

import pytest

from memdesk.core.domain.errors import CorruptDatabaseError
from memdesk.core.storage import migrations
from memdesk.core.storage.backup import list_backups
from memdesk.core.storage.db import schema_version
from memdesk.core.store import Store

V1_MEMORY = (
    "m1",
    None,
    "偏好",
    "不喝咖啡因",
    "用户下午后不喝含咖啡因饮品",
    "",
    '["习惯"]',
    "preference",
    "long_term",
    7,
    1,
    "manual",
    None,
    "h",
    "2026-01-01 00:00:00.000000",
    "2026-01-01 00:00:00.000000",
    None,
    0,
    0,
    None,
    None,
    None,
    "hot",
    100.0,
    1,
)


def make_old_file(path, version):
    """A file as MemDesk at schema ``version`` left it, with one memory in it."""
    conn = sqlite3.connect(path, isolation_level=None)
    for number, step in migrations.MIGRATIONS:
        if number <= version:
            step(conn)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.execute(f"INSERT INTO memory VALUES ({','.join('?' * len(V1_MEMORY))})", V1_MEMORY)
    conn.execute("INSERT INTO memory_tag VALUES ('m1', '习惯')")
    conn.close()


@pytest.mark.parametrize("version", [v for v, _ in migrations.MIGRATIONS[:-1]])
def test_old_versions_upgrade_with_backup(tmp_path, version):
    path = tmp_path / "old.db"
    make_old_file(path, version)
    store = Store.open(path)
    try:
        assert schema_version(path) == migrations.LATEST_VERSION
        memory = store.get("m1")
        assert memory.content == "用户下午后不喝含咖啡因饮品" and memory.tags == ("习惯",)
        assert memory.importance == 7
        [backup] = list_backups(path)
        assert backup.reason == f"before_v{migrations.LATEST_VERSION}"
        old = sqlite3.connect(backup.path)
        assert old.execute("PRAGMA user_version").fetchone()[0] == version
        old.close()
        store.add(content="升级后还能写")
        assert store.count() == 2
    finally:
        store.close()


def test_failed_step_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    make_old_file(path, 1)

    def broken(conn):
        conn.execute("CREATE TABLE half_done (x)")
        raise sqlite3.OperationalError("disk trouble")

    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:1] + [(2, broken)])
    monkeypatch.setattr("memdesk.core.storage.db.MIGRATIONS", migrations.MIGRATIONS)
    monkeypatch.setattr("memdesk.core.storage.db.LATEST_VERSION", 2)
    with pytest.raises(CorruptDatabaseError, match="disk trouble"):
        Store.open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "half_done" not in tables
    assert conn.execute("SELECT content FROM memory").fetchone()[0] == "用户下午后不喝含咖啡因饮品"
    conn.close()
