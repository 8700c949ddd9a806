"""Schema 6 (search/index/upgrade.py): a store with the old index upgrades in place on first
open, in one transaction, to the index a fresh build makes; a kill -9 during the upgrade
leaves the old store as it was, and usable."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.vocab import stub_all
from memdesk.core.storage.migrations import LATEST_VERSION
from memdesk.core.store import Store
from tests.core.search.test_search_persistent import assert_equals_rebuild
from tests.old_index import TEXTS, make_v5_store, write_old_index

ROOT = Path(__file__).resolve().parents[3]
OLD_TABLES = ("search_word", "search_gram", "search_pinyin", "search_doc", "search_meta", "search_text", "memory")


def _counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(str(path))
    try:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in OLD_TABLES}
    finally:
        conn.close()


def test_an_old_store_upgrades_in_place_to_the_index_a_fresh_build_makes(tmp_path):
    path = tmp_path / "old.db"
    make_v5_store(path, 400)
    before = _counts(path)
    assert before["search_word"] > 400
    store = Store.open(path)
    try:
        conn = store.connection()
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
        tables = {t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not tables & {"search_word", "search_gram", "search_pinyin", "search_segment", "search_dirty"}
        assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0  # VACUUMed once upgraded
        engine = SearchEngine(store)
        engine.build()
        assert engine._index.pending == 0  # nothing left to cut: converted, not cut again
        hits = engine.search("咖啡", limit=None)
        assert len(hits.hits) > 100
        assert_equals_rebuild(store)
    finally:
        store.close()


CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from memdesk.core.storage import db, migrations
    from memdesk.core.store import Store

    real = dict(migrations.MIGRATIONS)[6]

    def step(conn):
        real(conn)  # every row of the upgrade written, not yet committed
        print("converted", flush=True)
        sys.stdin.read()  # until killed

    db.MIGRATIONS = [(v, step if v == 6 else s) for v, s in migrations.MIGRATIONS]
    Store.open({path!r})
""")


def test_kill_during_the_upgrade_leaves_the_old_store_usable(tmp_path):
    path = tmp_path / "old.db"
    make_v5_store(path, 300)
    before = _counts(path)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=str(ROOT), path=str(path))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "converted"  # the event: mid-upgrade, all written
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    conn = sqlite3.connect(str(path))
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 5
    conn.close()
    assert _counts(path) == before  # the old store, as it was
    store = Store.open(path)  # and the next open upgrades it
    try:
        assert store.count(state="all") == 300
        engine = SearchEngine(store)
        engine.build()
        assert len(engine.search("跑步", limit=None).hits) > 30
        assert_equals_rebuild(store)
    finally:
        store.close()


_PG_OLD = [
    'DROP TABLE "search_term"',
    'DROP TABLE "search_post"',
    'DROP TABLE "search_doc"',
    'CREATE TABLE "search_doc" ("doc" INTEGER NOT NULL PRIMARY KEY, "memory_id" TEXT NOT NULL UNIQUE, "words" TEXT, '
    '"grams" TEXT, "vocab" TEXT NOT NULL, "tags" TEXT NOT NULL, "ehash" TEXT, "key" TEXT, "pinyin" TEXT)',
    'CREATE INDEX "search_doc_uncut" ON "search_doc" ("doc") WHERE "words" IS NULL',
    'CREATE TABLE "search_segment" ("field" TEXT NOT NULL, "term" TEXT NOT NULL, "docs" BYTEA NOT NULL, '
    '"tfs" BYTEA NOT NULL, PRIMARY KEY ("field", "term"))',
    'CREATE TABLE "search_dirty" ("doc" INTEGER NOT NULL PRIMARY KEY)',
    *(
        f'CREATE TABLE "{t}" ("term" TEXT NOT NULL, "doc" INTEGER NOT NULL, "tf" REAL NOT NULL, '
        'PRIMARY KEY ("term", "doc"))'
        for t in ("search_word", "search_gram", "search_pinyin")
    ),
    'CREATE TABLE "search_tag" ("tag" TEXT NOT NULL, "doc" INTEGER NOT NULL, PRIMARY KEY ("tag", "doc"))',
    *(f'DELETE FROM "{t}"' for t in ("search_meta", "search_text", "search_vocab", "search_code")),
    "DELETE FROM search_stat WHERE name != 'epoch'",
    'UPDATE "memdesk_schema" SET "version" = 5',
]


@pytest.mark.postgresql
def test_an_old_postgresql_store_upgrades_to_the_index_a_fresh_build_makes(pg_database):
    store = Store.open(pg_database)
    store.create_persona(name="跑步教练")
    store.add_many([{"content": f"第{i}条：{TEXTS[i % len(TEXTS)]}", "title": f"记录{i % 7}"} for i in range(200)])
    with store.write():  # the database as schema 5 left it: its tables, its rows
        conn = store.connection()
        for statement in _PG_OLD:
            conn.execute(statement)
        stub_all(conn, tags_column=True)
        write_old_index(conn)
    store.close()
    store = Store.open(pg_database)
    try:
        conn = store.connection()
        assert conn.execute("SELECT version FROM memdesk_schema").fetchone()[0] == LATEST_VERSION
        assert conn.execute("SELECT COUNT(*) FROM search_doc WHERE terms IS NULL").fetchone()[0] == 0
        engine = SearchEngine(store)
        engine.build()
        assert len(engine.search("跑步", limit=None).hits) == 40
        assert_equals_rebuild(store)
    finally:
        store.close()
