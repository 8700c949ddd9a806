"""The PostgreSQL schema: created from the peewee models, plus what SQLite has built in.

Every table, column, index and foreign key comes from models.ALL_MODELS and
index_models.INDEX_MODELS (peewee writes the DDL; PgDatabase maps SQLite's types).
Written by hand here, because SQLite gives them for free or peewee cannot express them:
- the version table (SQLite keeps it in PRAGMA user_version);
- memory.rowid, an identity column: SQLite's implicit rowid, the storage order that
  iter_records and the search index's doc numbers follow;
- the change-feed trigger (plpgsql), which also wakes listeners with NOTIFY;
- instr(text, text), SQLite's built-in, which the search index's SQL calls.

The schema started at BASELINE (the SQLite version the models described when PostgreSQL
support came); a later SQLite migration needs its PostgreSQL step in STEPS as well
(tests/core/test_pg_backend.py fails until it has one). A new database is created from
the models as they are now, at MODELS_VERSION; STEPS bring older databases there.
"""

from __future__ import annotations

from collections.abc import Callable

from memdesk.core.storage import index_models, models

BASELINE = 5
VERSION_TABLE = "memdesk_schema"
CHANNEL = "memdesk_changes"  # LISTEN/NOTIFY channel of the change feed


def _v6(conn) -> None:
    """SQLite's v6 (migrations._v6): the compact index, converted from the old rows."""
    from memdesk.core.search.index.upgrade import convert_and_swap

    conn.execute(
        'CREATE TABLE "search_term" ("id" INTEGER NOT NULL PRIMARY KEY, "field" INTEGER NOT NULL, '
        '"term" TEXT NOT NULL, "df" INTEGER NOT NULL)'
    )
    conn.execute('CREATE UNIQUE INDEX "search_term_field_term" ON "search_term" ("field", "term")')
    conn.execute(
        'CREATE TABLE "search_post" ("term" INTEGER NOT NULL, "first_doc" INTEGER NOT NULL, '
        '"data" BYTEA NOT NULL, PRIMARY KEY ("term", "first_doc"))'
    )
    conn.execute(
        'CREATE TABLE "search_doc6" ("doc" INTEGER NOT NULL PRIMARY KEY, "memory_id" TEXT NOT NULL UNIQUE, '
        '"terms" BYTEA, "vocab" TEXT NOT NULL, "ehash" TEXT, "key" BYTEA)'
    )
    convert_and_swap(conn)


# (version, step): step(conn) upgrades a PostgreSQL store from version-1.
STEPS: list[tuple[int, Callable]] = [(6, _v6)]
MODELS_VERSION = STEPS[-1][0]  # what the models describe

_FEED_FUNCTION = f"""
CREATE FUNCTION memdesk_log_change() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF TG_TABLE_NAME = 'persona' THEN
        INSERT INTO change_log (memory_id, kind) VALUES (NULL, 'personas');
    ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO change_log (memory_id, kind) VALUES (NEW.id, 'added');
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO change_log (memory_id, kind) VALUES (NEW.id, 'updated');
    ELSE
        INSERT INTO change_log (memory_id, kind) VALUES (OLD.id, 'purged');
    END IF;
    -- one payload per transaction: PostgreSQL folds equal notifications, delivered at commit
    PERFORM pg_notify('{CHANNEL}', current_schema());
    RETURN NULL;
END
$body$"""

_EXTRAS = [
    'ALTER TABLE "memory" ADD COLUMN "rowid" BIGINT GENERATED ALWAYS AS IDENTITY',
    'CREATE UNIQUE INDEX "memory_rowid" ON "memory" ("rowid")',
    _FEED_FUNCTION,
    'CREATE TRIGGER "memory_feed" AFTER INSERT OR UPDATE OR DELETE ON "memory" '
    "FOR EACH ROW EXECUTE FUNCTION memdesk_log_change()",
    'CREATE TRIGGER "persona_feed" AFTER INSERT OR UPDATE OR DELETE ON "persona" '
    "FOR EACH ROW EXECUTE FUNCTION memdesk_log_change()",
]

_INSTR = (
    "CREATE FUNCTION instr(text, text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT strpos($1, $2)'"
)


def version(conn) -> int | None:
    """The stored schema version; 0 for an empty database; None when it holds tables of
    ours but no version (not a MemDesk store, or a foreign one)."""
    # pg_tables, not to_regclass(): after waiting for the schema lock, the catalog cache
    # may not yet show a table another opener just committed; a query's snapshot does.
    exists = "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?"
    if conn.execute(exists, (VERSION_TABLE,)).fetchone() is not None:
        row = conn.execute(f'SELECT "version" FROM "{VERSION_TABLE}"').fetchone()
        return row[0] if row else 0
    ours = [m._meta.table_name for m in (*models.ALL_MODELS, *index_models.INDEX_MODELS)]
    marks = ", ".join("?" * len(ours))
    taken = conn.execute(
        f"SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ({marks})", ours
    ).fetchone()[0]
    return None if taken else 0


def create(db) -> None:
    """The whole schema at MODELS_VERSION, inside the caller's transaction."""
    conn = db.connection()
    conn.execute(f'CREATE TABLE "{VERSION_TABLE}" ("version" INTEGER NOT NULL)')
    tables = [*models.ALL_MODELS, *index_models.INDEX_MODELS]
    with db.bind_ctx(tables):  # the models' own database is the shared proxy
        db.create_tables(tables, safe=False)
    for statement in _EXTRAS:
        conn.execute(statement)
    if conn.execute("SELECT to_regprocedure('instr(text, text)')").fetchone()[0] is None:
        conn.execute(_INSTR)
    conn.execute(f'INSERT INTO "{VERSION_TABLE}" ("version") VALUES (?)', (MODELS_VERSION,))
    from memdesk.core.search.index.vocab import (
        stub_all,  # the index's starting rows, as SQLite's v4/v5 steps leave them
    )

    stub_all(conn)


def set_version(conn, value: int) -> None:
    conn.execute(f'UPDATE "{VERSION_TABLE}" SET "version" = ?', (value,))
