"""The Store: one SQLite file (or PostgreSQL database) of memories, personas, history and vectors.

A thin facade: each mutation opens one short IMMEDIATE transaction, calls the
operation in memory_writes / persona_writes and returns its Changes value. Reads
return plain records, never peewee objects, so results may cross threads.
Peewee gives every thread its own connection.

On PostgreSQL (``Store.open("postgresql://…")``) the same code runs: connection()
hands out a sqlite3-like connection (pg_conn.py), and each write transaction takes
an advisory lock so writers queue as behind SQLite's BEGIN IMMEDIATE.
"""

from __future__ import annotations

import builtins  # Store.list shadows list in the class body
import json
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any

from peewee import SQL

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import NotFoundError, ValidationError
from memdesk.core.domain.records import MemoryRecord, PersonaRecord, RevisionRecord
from memdesk.core.feed.store_feed import ChangeFeed, bound
from memdesk.core.storage import models, reconnect, vectors
from memdesk.core.storage.checkpoint import Checkpoints
from memdesk.core.storage.convert import memory_record, persona_record, revision_record
from memdesk.core.storage.db import default_db_path, open_database
from memdesk.core.storage.location import display_name, is_url, redact
from memdesk.core.storage.models import Memory, Persona, Revision, Setting
from memdesk.core.views import queries
from memdesk.core.views.ids import resolve_prefix
from memdesk.core.writes import memories as memory_writes
from memdesk.core.writes import personas as persona_writes

ALL = queries.ALL
GLOBAL = queries.GLOBAL


def _ids(ids) -> list[str]:
    return [ids] if isinstance(ids, str) else list(ids)


class Store(ChangeFeed):
    def __init__(self, db, target):
        self._db = db
        self.is_postgres = is_url(target)
        self._target = str(target) if self.is_postgres else Path(target)  # a URL may hold a password
        # The file; None on PostgreSQL, where file copies and file paths do not apply.
        self.path: Path | None = None if self.is_postgres else Path(target)
        # What to show and remember (settings, recent files, titles): a URL without its password.
        self.location = redact(target)
        self._writing = threading.local()
        self._tokenizer: Any = None
        self._waiter: Any = None
        self._connection_listeners: list = []  # reconnect.py tells them of a lost / regained server
        self._connection_lost = False
        self._checkpoints = None if self.path is None else Checkpoints(self.path)

    def __repr__(self) -> str:
        return f"Store({self.location!r})"

    @property
    def display_name(self) -> str:
        """Short, for a window title: the file name, or database@host."""
        return display_name(self.location)

    def connect_target(self):
        """The path or URL this store was opened with, to open it again in another process.
        A URL may hold a password: pass it on in memory, never show or store it."""
        return self._target

    @property
    def tokenizer(self):
        """The tokenizer writes cut new text with (the process's shared one unless set)."""
        if self._tokenizer is None:
            from memdesk.core.search.language.tokenize import shared_tokenizer  # jieba only once something is cut

            self._tokenizer = shared_tokenizer()
        return self._tokenizer

    @tokenizer.setter
    def tokenizer(self, value) -> None:
        self._tokenizer = value

    def bind(self) -> None:
        """Point the shared model proxy at this store's file. Every Store method does it; a
        core module that queries the models in bulk (io, briefs) calls it first."""
        if models.database.obj is not self._db:
            models.database.initialize(self._db)

    @bound
    def execute_sql(self, sql: str, params: tuple = ()):
        """Plain SQL on this thread's connection (maintenance's ANALYZE and PRAGMAs); a cursor."""
        return self._db.execute_sql(sql, params)

    @bound
    def connection(self):
        """This thread's sqlite3 connection (the search index reads it directly)."""
        return self._db.connection()

    @classmethod
    def open(cls, target=None) -> Store:
        """Open a path (SQLite, the default) or a postgresql:// URL; MEMDESK_DB or the
        user data directory's memdesk.db when None."""
        target = target or default_db_path()
        if not is_url(target):
            target = Path(target).expanduser()
        return cls(open_database(target), target)

    def close(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.close()
        if self._waiter is not None:
            self._waiter.close()
            self._waiter = None
        if not self._db.is_closed():
            self._db.close()

    @contextmanager
    def write(self, *, ahead=None):
        """One short write transaction (BEGIN IMMEDIATE, waits for other writers).

        Before it commits, the search index takes in whatever the transaction
        changed (the trigger-written change feed says what), so every writer
        (window, CLI, MCP, import, maintenance) keeps it current. ``ahead``: an
        import's cuts made before the transaction (search/index/precut.py).
        """
        self.bind()
        depth = getattr(self._writing, "depth", 0)
        with reconnect.gone_as_dropped(self) if self.is_postgres and depth == 0 else nullcontext(), self._db.atomic():
            if depth == 0 and self.is_postgres:
                from memdesk.core.storage.pg_db import WRITE_LOCK

                self._db.execute_sql("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
                self._writing.sent = True  # from here a dropped connection loses the write: reported (reconnect.py)
            marker = (
                self._db.execute_sql("SELECT COALESCE(MAX(seq), 0) FROM change_log").fetchone()[0] if depth == 0 else 0
            )
            self._writing.depth = depth + 1
            try:
                yield
            finally:
                self._writing.depth = depth
            if depth == 0:
                self._index_since(marker, ahead)
                self._writing.committing = True  # COMMIT next: a drop now leaves the outcome unknown
        if depth == 0 and self._checkpoints is not None:
            self._checkpoints.after_commit()

    def _index_since(self, marker: int, ahead=None) -> None:
        rows = self._db.execute_sql("SELECT memory_id, kind FROM change_log WHERE seq > ?", (marker,)).fetchall()
        if not rows:
            return
        from memdesk.core.search.index.indexer import sync  # numpy and jieba stay out of read-only processes

        ids = [memory_id for memory_id, kind in rows if kind != "personas"]
        sync(self._db.connection(), self.tokenizer, ids, personas=len(ids) < len(rows), ahead=ahead)

    # ---- reading -----------------------------------------------------------------
    @bound
    def get(self, memory_id: str) -> MemoryRecord:
        row = Memory.get_or_none(Memory.id == memory_id)
        if row is None:
            raise NotFoundError(code="no_memory", id=memory_id)
        return memory_record(row)

    @bound
    def get_many(self, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        ids = list(dict.fromkeys(ids))
        found = {}
        for start in range(0, len(ids), 500):
            for row in Memory.select().where(Memory.id.in_(ids[start : start + 500])):
                found[row.id] = memory_record(row)
        return found

    @bound
    def iter_records(self, *, batch: int = 2000) -> Iterator[MemoryRecord]:
        """Every memory, deleted and superseded ones included, in the order they were stored.

        Storage order (SQLite's rowid) keeps memories saved together next to
        each other even when they share a timestamp; search uses that as context.
        """
        last = 0
        rowid = SQL("rowid")
        while True:
            rows = list(
                Memory.select(Memory, rowid.alias("stored_order")).where(rowid > last).order_by(rowid).limit(batch)
            )
            if not rows:
                return
            yield from (memory_record(r) for r in rows)
            last = rows[-1].stored_order

    @bound
    def list(self, *, sort="updated_at", descending=True, offset=0, limit=None, **filters) -> list[MemoryRecord]:
        query = queries.sorted_paged(
            queries.filtered(**filters), sort=sort, descending=descending, offset=offset, limit=limit
        )
        return [memory_record(r) for r in query]

    @bound
    def count(self, **filters) -> int:
        return queries.filtered(**filters).count()

    @bound
    def load_for_persona(self, persona_id: str | None, *, state="active") -> builtins.list[MemoryRecord]:
        """A persona's memories plus the global ones (seed 000); None = global only."""
        return self.list(persona=persona_id or GLOBAL, merge_global=True, state=state)

    @bound
    def stats(self, **kwargs) -> dict:
        return queries.stats(**kwargs)

    @bound
    def revisions(self, memory_id: str) -> builtins.list[RevisionRecord]:
        rows = Revision.select().where(Revision.memory == memory_id).order_by(Revision.id)
        return [revision_record(r) for r in rows]

    @bound
    def supersede_chain(self, memory_id: str) -> builtins.list[MemoryRecord]:
        """Oldest to newest: the memories this one replaced, itself, and its replacements."""
        start = self.get(memory_id)
        older, current = [], start
        seen = {start.id}
        while True:
            row = Memory.get_or_none(Memory.superseded_by == current.id)
            if row is None or row.id in seen:
                break
            current = memory_record(row)
            seen.add(current.id)
            older.append(current)
        chain = list(reversed(older)) + [start]
        current = start
        while current.superseded_by and current.superseded_by not in seen:
            row = Memory.get_or_none(Memory.id == current.superseded_by)
            if row is None:
                break
            current = memory_record(row)
            seen.add(current.id)
            chain.append(current)
        return chain

    @bound
    def group_names(self) -> builtins.list[str]:
        return [g for (g,) in Memory.select(Memory.group).distinct().order_by(Memory.group).tuples() if g]

    @bound
    def tag_names(self) -> builtins.list[str]:
        from memdesk.core.storage.models import MemoryTag

        return [t for (t,) in MemoryTag.select(MemoryTag.tag).distinct().order_by(MemoryTag.tag).tuples()]

    # ---- memory mutations -----------------------------------------------------------
    def _ready_to_cut(self) -> None:
        """Load what a memory write loads on first use before taking the write lock, not while
        holding it, where other writers (the CLI's processes, the MCP server) wait: jieba for
        the index (~1 s, several on a busy machine), jieba.posseg for the automatic importance
        (as long again), the indexer's numpy. Once per process."""
        from memdesk.core.search.index import indexer  # noqa: F401
        from memdesk.core.search.language.importance import score

        self.tokenizer.warm_up()
        score("预热")

    @bound
    def add(self, **fields) -> Changes:
        self._ready_to_cut()
        with self.write():
            return memory_writes.add(fields)

    @bound
    def add_many(self, items: builtins.list[dict], *, source: str = "import") -> Changes:
        self._ready_to_cut()
        with self.write():
            return memory_writes.add_many(items, source=source)

    @bound
    def update(self, memory_id: str, *, expected_version: int | None, reason: str = "edit", **fields) -> Changes:
        self._ready_to_cut()
        with self.write():
            return memory_writes.update(memory_id, fields, expected_version=expected_version, reason=reason)

    @bound
    def delete(self, ids) -> Changes:
        with self.write():
            return memory_writes.delete(_ids(ids))

    @bound
    def restore(self, ids) -> Changes:
        self._ready_to_cut()
        with self.write():
            return memory_writes.restore(_ids(ids))

    @bound
    def purge(self, ids) -> Changes:
        with self.write():
            return memory_writes.purge(_ids(ids))

    @bound
    def upsert(self, *, reason: str = "ai", **fields) -> Changes:
        """Update the memory with this dedup_key (and persona), else add one (seed 001)."""
        self._ready_to_cut()
        with self.write():
            return memory_writes.upsert(fields, reason=reason)

    @bound
    def supersede(self, old_id: str, *, new_id: str | None = None, reason: str = "supersede", **fields) -> Changes:
        self._ready_to_cut()
        with self.write():
            return memory_writes.supersede(old_id, new_id=new_id, fields=fields, reason=reason)

    @bound
    def revert(self, memory_id: str, revision_id: int, *, expected_version: int | None) -> Changes:
        self._ready_to_cut()
        with self.write():
            return memory_writes.revert(memory_id, revision_id, expected_version=expected_version)

    @bound
    def touch(self, ids, *, mentions: bool = False) -> Changes:
        with self.write():
            return memory_writes.touch(_ids(ids), mentions=mentions)

    @bound
    def clean(self, *, trash_days: int | None = None, now: datetime | None = None) -> Changes:
        """Expire short-term memories past expires_at (to the trash); purge trash older than
        ``trash_days`` (default: the maintenance.trash_days setting, else 30). The same steps
        maintenance runs (maintenance/expiry.py)."""
        from .maintenance import expiry

        return expiry.clean(self, trash_days=expiry.trash_days(self, trash_days), now=now)

    # ---- personas -------------------------------------------------------------------
    @bound
    def personas(self) -> builtins.list[PersonaRecord]:
        return [persona_record(p) for p in Persona.select().order_by(Persona.name)]

    @bound
    def persona(self, persona_id: str) -> PersonaRecord:
        return persona_record(persona_writes.get_row(persona_id))

    @bound
    def persona_by_name(self, name: str) -> PersonaRecord | None:
        row = Persona.get_or_none(Persona.name == name)
        return persona_record(row) if row else None

    @bound
    def resolve_persona(self, name_or_id: str | None) -> str | None:
        """A persona id from a name, an id or a unique prefix of one (4+ characters); ''/None/'global'
        mean global (None)."""
        if name_or_id is None or not name_or_id.strip() or queries.means_global(name_or_id):
            return None
        text = name_or_id.strip()
        row = Persona.get_or_none(Persona.name == text) or Persona.get_or_none(Persona.id == text)
        if row is None:
            known = {p.id: p.name for p in Persona.select(Persona.id, Persona.name)}
            found = resolve_prefix(text, known, kind="personas")
            row = Persona.get_or_none(Persona.id == found) if found else None
        if row is None:
            raise ValidationError("persona", code="no_persona_named", name=text)
        return row.id

    @bound
    def create_persona(self, **fields) -> tuple[str, Changes]:
        with self.write():
            return persona_writes.create(**fields)

    @bound
    def update_persona(self, persona_id: str, **fields) -> Changes:
        with self.write():
            return persona_writes.update(persona_id, **fields)

    @bound
    def rename_persona(self, persona_id: str, name: str) -> Changes:
        return self.update_persona(persona_id, name=name)

    @bound
    def delete_persona(self, persona_id: str, *, memories: str) -> Changes:
        with self.write():
            return persona_writes.delete(persona_id, memories=memories)

    # ---- vectors --------------------------------------------------------------------
    @bound
    def put_vectors(self, model_id: str, items) -> None:
        with self.write():
            vectors.put(model_id, items)

    @bound
    def stored_vectors(self, model_id: str, ids) -> dict:
        """{memory id: (text hash, vector)} of the model's stored vectors for ``ids``."""
        return vectors.of(model_id, ids)

    @bound
    def load_vectors(self, model_id: str):
        return vectors.load(model_id)

    @bound
    def texts_to_embed(self, ids: builtins.list[str]) -> dict[str, tuple[str, str]]:
        """(title, content) of the live memories among ``ids``: all the re-embed job reads
        (a light query: full records cost it several per cent of its time)."""
        found: dict[str, tuple[str, str]] = {}
        for start in range(0, len(ids), 500):
            rows = (
                Memory.select(Memory.id, Memory.title, Memory.content)
                .where(Memory.id.in_(ids[start : start + 500]) & Memory.deleted_at.is_null())
                .tuples()
            )
            found.update((memory_id, (title, content)) for memory_id, title, content in rows)
        return found

    @bound
    def stale_vector_ids(self, model_id: str) -> builtins.list[str]:
        return vectors.stale_ids(model_id)

    @bound
    def drop_vectors(self, model_id: str | None = None) -> int:
        with self.write():
            return vectors.drop(model_id)

    # ---- settings -------------------------------------------------------------------
    @bound
    def setting(self, key: str, default=None):
        row = Setting.get_or_none(Setting.key == key)
        return json.loads(row.value) if row else default

    @bound
    def set_setting(self, key: str, value) -> None:
        with self.write():
            text = json.dumps(value, ensure_ascii=False)
            Setting.insert(key=key, value=text).on_conflict(
                conflict_target=[Setting.key], update={Setting.value: text}
            ).execute()
