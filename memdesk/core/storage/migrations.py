"""Schema versions, applied in order, each inside one exclusive transaction.

The schema of each version is frozen here as SQL (never generated from the
current models), so an old file always upgrades through the same steps. The
version lives in SQLite's PRAGMA user_version. Keep this an in-code list:
globbing migration files breaks inside a PyInstaller bundle.
"""

from __future__ import annotations

from collections.abc import Callable

_V1 = """
CREATE TABLE "persona" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, "description" TEXT NOT NULL, "colour" TEXT NOT NULL, "auto_save_memory" INTEGER NOT NULL, "created_at" TEXT NOT NULL);
CREATE UNIQUE INDEX "persona_name" ON "persona" ("name");
CREATE TABLE "memory" ("id" TEXT NOT NULL PRIMARY KEY, "persona_id" TEXT, "group_name" TEXT NOT NULL, "title" TEXT NOT NULL, "content" TEXT NOT NULL, "summary" TEXT NOT NULL, "tags" TEXT NOT NULL, "type" TEXT NOT NULL, "scope" TEXT NOT NULL, "importance" INTEGER NOT NULL, "importance_set" INTEGER NOT NULL, "source" TEXT NOT NULL, "dedup_key" TEXT, "content_hash" TEXT NOT NULL, "created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL, "last_access_at" TEXT, "access_count" INTEGER NOT NULL, "mention_count" INTEGER NOT NULL, "expires_at" TEXT, "deleted_at" TEXT, "superseded_by" TEXT, "tier" TEXT NOT NULL, "heat" REAL NOT NULL, "version" INTEGER NOT NULL, FOREIGN KEY ("persona_id") REFERENCES "persona" ("id") ON DELETE RESTRICT);
CREATE INDEX "memory_persona_id" ON "memory" ("persona_id");
CREATE INDEX "memory_group_name" ON "memory" ("group_name");
CREATE INDEX "memory_content_hash" ON "memory" ("content_hash");
CREATE INDEX "memory_created_at" ON "memory" ("created_at");
CREATE INDEX "memory_updated_at" ON "memory" ("updated_at");
CREATE INDEX "memory_expires_at" ON "memory" ("expires_at");
CREATE INDEX "memory_deleted_at" ON "memory" ("deleted_at");
CREATE INDEX "memory_superseded_by" ON "memory" ("superseded_by");
CREATE INDEX "memory_tier" ON "memory" ("tier");
CREATE UNIQUE INDEX "memory_dedup_key" ON "memory" (COALESCE("persona_id", ''), "dedup_key") WHERE "dedup_key" IS NOT NULL AND "superseded_by" IS NULL;
CREATE TABLE "memory_tag" ("memory_id" TEXT NOT NULL, "tag" TEXT NOT NULL, PRIMARY KEY ("memory_id", "tag"), FOREIGN KEY ("memory_id") REFERENCES "memory" ("id") ON DELETE CASCADE);
CREATE INDEX "memory_tag_tag" ON "memory_tag" ("tag");
CREATE TABLE "revision" ("id" INTEGER NOT NULL PRIMARY KEY, "memory_id" TEXT NOT NULL, "at" TEXT NOT NULL, "reason" TEXT NOT NULL, "version" INTEGER NOT NULL, "before" TEXT NOT NULL, "after" TEXT NOT NULL, FOREIGN KEY ("memory_id") REFERENCES "memory" ("id") ON DELETE CASCADE);
CREATE INDEX "revision_memory_id" ON "revision" ("memory_id");
CREATE TABLE "memory_vector" ("memory_id" TEXT NOT NULL, "model_id" TEXT NOT NULL, "text_hash" TEXT NOT NULL, "dim" INTEGER NOT NULL, "vector" BLOB NOT NULL, PRIMARY KEY ("memory_id", "model_id"), FOREIGN KEY ("memory_id") REFERENCES "memory" ("id") ON DELETE CASCADE);
CREATE INDEX "memory_vector_model_id" ON "memory_vector" ("model_id");
CREATE TABLE "setting" ("key" TEXT NOT NULL PRIMARY KEY, "value" TEXT NOT NULL);
"""


# v2: the log of assistants' tool calls, so the user can see and revert them.
_V2 = """
CREATE TABLE "tool_call" ("id" INTEGER NOT NULL PRIMARY KEY, "at" TEXT NOT NULL, "persona_id" TEXT, "client" TEXT NOT NULL, "tool" TEXT NOT NULL, "arguments" TEXT NOT NULL, "result" TEXT NOT NULL, "ok" INTEGER NOT NULL, "effects" TEXT NOT NULL, "reverted_at" TEXT);
CREATE INDEX "tool_call_at" ON "tool_call" ("at");
"""


# v3: a change feed written by triggers, so any process (the window) can see
# what other processes (CLI, MCP server) changed without rescanning the store.
_V3 = [
    'CREATE TABLE "change_log" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "memory_id" TEXT, "kind" TEXT NOT NULL)',
] + [
    f'CREATE TRIGGER "{table}_{suffix}" AFTER {event} ON "{table}" BEGIN '
    f'INSERT INTO "change_log" ("memory_id", "kind") VALUES ({ref}, \'{kind}\'); END'
    for table, suffix, event, ref, kind in (
        ("memory", "ai", "INSERT", 'NEW."id"', "added"),
        ("memory", "au", "UPDATE", 'NEW."id"', "updated"),
        ("memory", "ad", "DELETE", 'OLD."id"', "purged"),
        ("persona", "ai", "INSERT", "NULL", "personas"),
        ("persona", "au", "UPDATE", "NULL", "personas"),
        ("persona", "ad", "DELETE", "NULL", "personas"),
    )
]


# v4: the search index lives in the store (search/index/indexer.py says why this
# shape). The step creates the tables and a row per existing memory with its
# vocabulary; cutting the text (jieba, slow) is left to search.indexer.build,
# which works in short resumable batches, so a kill -9 loses at most a batch.
_V4 = """
CREATE TABLE "search_doc" ("doc" INTEGER NOT NULL PRIMARY KEY, "memory_id" TEXT NOT NULL UNIQUE, "words" TEXT, "grams" TEXT, "vocab" TEXT NOT NULL, "tags" TEXT NOT NULL, "ehash" TEXT, "key" TEXT);
CREATE TABLE "search_text" ("doc" INTEGER NOT NULL PRIMARY KEY, "text" TEXT NOT NULL);
CREATE INDEX "search_doc_uncut" ON "search_doc" ("doc") WHERE "words" IS NULL;
CREATE TABLE "search_segment" ("field" TEXT NOT NULL, "term" TEXT NOT NULL, "docs" BLOB NOT NULL, "tfs" BLOB NOT NULL, PRIMARY KEY ("field", "term")) WITHOUT ROWID;
CREATE TABLE "search_dirty" ("doc" INTEGER NOT NULL PRIMARY KEY);
CREATE TABLE "search_meta" ("doc" INTEGER NOT NULL PRIMARY KEY, "meta" BLOB NOT NULL);
CREATE TABLE "search_word" ("term" TEXT NOT NULL, "doc" INTEGER NOT NULL, "tf" REAL NOT NULL, PRIMARY KEY ("term", "doc")) WITHOUT ROWID;
CREATE TABLE "search_gram" ("term" TEXT NOT NULL, "doc" INTEGER NOT NULL, "tf" REAL NOT NULL, PRIMARY KEY ("term", "doc")) WITHOUT ROWID;
CREATE TABLE "search_tag" ("tag" TEXT NOT NULL, "doc" INTEGER NOT NULL, PRIMARY KEY ("tag", "doc")) WITHOUT ROWID;
CREATE TABLE "search_vocab" ("term" TEXT NOT NULL PRIMARY KEY, "refs" INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE "search_code" ("kind" TEXT NOT NULL, "name" TEXT NOT NULL, "code" INTEGER NOT NULL, PRIMARY KEY ("kind", "name"));
CREATE TABLE "search_stat" ("name" TEXT NOT NULL PRIMARY KEY, "value")
"""


def _run_script(conn, script: str) -> None:
    # executescript would COMMIT the open transaction; run statement by statement.
    for statement in script.split(";\n"):
        if statement.strip():
            conn.execute(statement)


def _v1(conn) -> None:
    _run_script(conn, _V1)


def _v2(conn) -> None:
    _run_script(conn, _V2)


def _v3(conn) -> None:
    for statement in _V3:
        conn.execute(statement)


def _v4(conn) -> None:
    _run_script(conn, _V4)
    from memdesk.core.search.index.vocab import stub_all  # the vocabulary rules live with the index

    stub_all(conn, tags_column=True)


# v5: the index also holds pinyin readings (search/language/pinyin.py) and folds
# traditional to simplified (search/language/script.py). What a cut holds changed, so
# the index is emptied to stubs and search.indexer.build cuts every memory
# again, resumably, as after v4.
_V5 = """
ALTER TABLE "search_doc" ADD COLUMN "pinyin" TEXT;
CREATE TABLE "search_pinyin" ("term" TEXT NOT NULL, "doc" INTEGER NOT NULL, "tf" REAL NOT NULL, PRIMARY KEY ("term", "doc")) WITHOUT ROWID
"""


def _v5(conn) -> None:
    _run_script(conn, _V5)
    # Emptied to stubs, as search.indexer.reset did at schema 5.
    for table in (*_V5_INDEX, "search_tag", "search_vocab", "search_code", "search_meta", "search_text", "search_doc"):
        conn.execute(f'DELETE FROM "{table}"')
    conn.execute("DELETE FROM search_stat WHERE name != 'epoch'")
    from memdesk.core.search.index.vocab import stub_all

    stub_all(conn, tags_column=True)


_V5_INDEX = ("search_word", "search_gram", "search_pinyin", "search_segment", "search_dirty")


# v6: a compact index (search/index/indexer.py says why and what it measured): postings as
# varint blocks per term id (search_post) against a vocabulary of terms (search_term),
# each memory's bags as a term list instead of three JSON copies. Converted from the old
# rows in this one transaction (search/index/upgrade.py); nothing is cut again. db.migrate
# then VACUUMs the file once, so the room the old rows took goes back to the disk.
def _v6(conn) -> None:
    from memdesk.core.search.index.upgrade import upgrade_sqlite

    upgrade_sqlite(conn)


# (version, step): step(conn) upgrades from version-1 to version.
MIGRATIONS: list[tuple[int, Callable]] = [
    (1, _v1),
    (2, _v2),
    (3, _v3),
    (4, _v4),
    (5, _v5),
    (6, _v6),
]
VACUUM_BELOW = 6  # a file upgraded from below this version is VACUUMed once after the upgrade
LATEST_VERSION = MIGRATIONS[-1][0]
