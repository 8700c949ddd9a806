"""A damaged database at start: a plain message and the newest backup offered."""

from memdesk.core.storage.backup import make_backup
from memdesk.core.store import Store
from memdesk.gui.main import App


def _damage(path):
    path.write_bytes(b"this is not an SQLite file any more" * 100)
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def test_damaged_file_offers_the_newest_backup(tmp_path, asker, qtbot):
    path = tmp_path / "m.db"
    store = Store.open(path)
    store.add(content="备份里的记忆")
    store.close()
    make_backup(path, "import")
    _damage(path)
    asker.choices.append("restore")
    app = App(ask=asker, maintenance_delay_ms=10**9)
    try:
        assert app.open(str(path))
        assert asker.asked[0] in ("The database cannot be opened.", "无法打开数据库。")
        assert [m.content for m in app.session.store.list()] == ["备份里的记忆"]
    finally:
        app.window.close()
        app.shutdown()


def test_damaged_file_without_backup_says_so(tmp_path, asker, qtbot):
    path = tmp_path / "m.db"
    _damage(path)
    app = App(ask=asker, maintenance_delay_ms=10**9)
    assert not app.open(str(path))
    assert asker.informed and "not a MemDesk database" in asker.informed[0]
    assert path.read_bytes().startswith(b"this is not")  # left as it was
