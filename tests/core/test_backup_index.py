"""Backups leave the search index out (backup_copy.py): the copy holds every other row as it
was, and a restored store builds its index again, equal to a fresh build."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

from memdesk.core.search import SearchEngine
from memdesk.core.storage.backup import make_backup, restore_backup
from memdesk.core.store import Store
from tests.core.search.test_search_persistent import assert_equals_rebuild

WHEN = datetime(2030, 1, 1, tzinfo=timezone.utc)


def _rows(path, sql: str) -> list:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_a_backup_leaves_the_index_out_and_a_restore_builds_it_again(tmp_path):
    path = tmp_path / "m.db"
    store = Store.open(path)
    store.create_persona(name="跑步教练")
    ids = store.add_many(
        [
            {"content": f"第{i}条：周末和家人去杭州西湖喝咖啡{i}", "title": f"记录{i % 7}", "tags": ["生活"]}
            for i in range(400)
        ]
    ).added
    store.delete(ids[:30])
    store.purge(ids[:10])  # rowids with a gap: the copy keeps them
    engine = SearchEngine(store)
    engine.build()
    before = [(h.id, round(h.score, 9)) for h in engine.search("周末 咖啡 跑步", limit=None, now=WHEN).hits]
    store.close()

    backup = make_backup(path, "manual")
    assert backup is not None and backup.stat().st_size < 0.8 * path.stat().st_size
    assert _rows(backup, "SELECT COUNT(*) FROM search_doc") == [(0,)]
    for sql in (
        "SELECT rowid, * FROM memory ORDER BY rowid",
        "SELECT * FROM memory_tag ORDER BY memory_id, tag",
        "SELECT * FROM persona",
        "SELECT * FROM change_log ORDER BY seq",
        "SELECT * FROM sqlite_sequence",
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name",
        "PRAGMA user_version",
    ):
        assert _rows(backup, sql) == _rows(path, sql), sql

    restore_backup(path, backup)
    store = Store.open(path)
    try:
        engine = SearchEngine(store)
        engine.build()
        after = [(h.id, round(h.score, 9)) for h in engine.search("周末 咖啡 跑步", limit=None, now=WHEN).hits]
        assert after == before
        store.add(content="恢复以后又记了一条：跑步")  # the feed's triggers are there
        assert engine.search("恢复").hits
        assert_equals_rebuild(store)
    finally:
        store.close()
