"""A fast, light listing of memories (a Brief per row) for the window's tree and result list.

store.list() builds a full MemoryRecord per row (about 0.2 ms each: 20 s for
100k memories). The tree needs a dozen short columns, so this module runs
the core's own filter query with a narrow column list on a raw cursor
(0.6 s for 100k, off the UI thread). It only reads. It lives in the core so
the GUI never touches peewee or the ORM models.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone

from peewee import fn

from memdesk.core.domain.times import now_utc
from memdesk.core.feed.store_feed import bound
from memdesk.core.storage import models
from memdesk.core.storage.models import Memory
from memdesk.core.views import collector, queries
from memdesk.core.views.brief_table import Brief, BriefTable

TITLE_CHARS = 40
YIELD_EVERY = 2000


def display_title(title: str, content_start: str) -> str:
    """The same rule as MemoryRecord.display_title."""
    if title:
        return title
    text = (content_start or "").strip()
    first = text.splitlines()[0] if text else ""
    return first[:TITLE_CHARS] + ("…" if len(first) > TITLE_CHARS else "")


def brief_of(record) -> Brief:
    """A Brief from a full MemoryRecord (the search engine hands those out)."""
    if record.is_deleted:
        state = "deleted"
    elif record.is_superseded:
        state = "superseded"
    elif record.is_expired():
        state = "expired"
    else:
        state = "active"
    return Brief(
        record.id,
        record.persona_id,
        record.group,
        record.display_title,
        tuple(record.tags),
        record.type,
        record.tier,
        state,
        record.importance,
        record.updated_at.timestamp() if record.updated_at else 0.0,
        float(record.heat or 0.0),
    )


def _columns():
    return (
        Memory.id,
        Memory.persona,
        Memory.group,
        Memory.title,
        fn.substr(Memory.content, 1, 200),
        Memory.tags,
        Memory.type,
        Memory.tier,
        Memory.deleted_at,
        Memory.superseded_by,
        Memory.expires_at,
        Memory.importance,
        Memory.updated_at,
        Memory.heat,
    )


def _rows(query):
    sql, params = query.sql()
    return models.database.execute_sql(sql, params).fetchall()


def _streamed(query):
    """The rows one at a time: fetchall held every row of 100k, content start included
    (~35 MB more at the peak, and memory the allocator keeps)."""
    sql, params = query.sql()
    return models.database.execute_sql(sql, params)


@bound  # as a Store method: bound to this store, PostgreSQL drops retried or named (reconnect.py)
def load_briefs(store, *, persona=queries.ALL, ids=None, cancel=lambda: False) -> dict[str, Brief]:
    """Every memory in the persona's view (all states), or just ``ids``; id -> Brief."""
    out: dict[str, Brief] = {}
    for fields in _brief_fields(store, persona, ids, cancel):
        out[fields[0]] = Brief(*fields)
    return out


@bound
def load_table(store, *, persona=queries.ALL, cancel=lambda: False):
    """Every memory in the persona's view (all states) as a BriefTable: the same briefs as
    load_briefs, in a tenth of the memory (brief_table.py)."""
    table = BriefTable()
    for fields in _brief_fields(store, persona, None, cancel):
        table.add(*fields)
    return table.seal()


def _brief_fields(store, persona, ids, cancel):
    """The fields of each brief, in Brief's order, as rows stream in."""
    store.bind()
    now = models.stored_time(now_utc())
    # A store has a few groups, types, tiers, personas and tags, each repeated on thousands of
    # rows; the driver hands out a new string per row. One object each: at 100k memories
    # the briefs held 68 MB, now 35.
    shared: dict = {}
    one = shared.setdefault
    chunks = [None] if ids is None else [list(ids)[i : i + 500] for i in range(0, len(ids), 500)]
    with collector.paused():
        for chunk in chunks:
            if cancel():
                break
            query = queries.filtered(persona=persona, merge_global=True, state="all", ids=chunk).select(*_columns())
            for n, row in enumerate(_streamed(query)):
                if n % YIELD_EVERY == 0:
                    time.sleep(0)  # hand the GIL to the UI thread now and then
                    if n and cancel():
                        return
                yield _fields(row, now, one)


def _fields(row, now, one) -> tuple:
    """A row of _columns() as Brief's fields; ``one`` gives the one shared object for a value."""
    mid, pid, group, title, start, tags, mtype, tier, deleted, superseded, expires, importance, updated, heat = row
    if deleted is not None:
        state = "deleted"
    elif superseded is not None:
        state = "superseded"
    elif expires is not None and expires <= now:
        state = "expired"
    else:
        state = "active"
    try:
        tag_tuple = tuple(one(t, t) for t in json.loads(tags)) if tags and tags != "[]" else ()
        tag_tuple = one(tag_tuple, tag_tuple)
    except (ValueError, TypeError):  # not JSON, or not a list of strings
        tag_tuple = ()
    return (
        mid,
        one(pid, pid),
        one(group, group) if group else "",
        display_title(title, start),
        tag_tuple,
        one(mtype, mtype),
        one(tier, tier),
        state,
        importance,
        _seconds(updated),
        float(heat or 0.0),
    )


def _seconds(stored) -> float:
    """The stored UTC text ("2026-12-05 08:10:00.000000") as seconds since the epoch."""
    if not stored:
        return 0.0
    if isinstance(stored, datetime):  # a driver that hands out datetimes
        value = stored
    else:
        try:
            value = datetime.fromisoformat(str(stored))
        except ValueError:
            return 0.0
    return (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).timestamp()


@bound
def memory_ids(store, **filters) -> list[str]:
    """Ids matching store.list-style filters, without building records."""
    store.bind()
    query = queries.filtered(**filters).select(Memory.id)
    return [row[0] for row in _rows(query)]


@bound
def contents(store, ids) -> dict[str, tuple[str, str]]:
    """id -> (title, content) for a few ids (search fallback, snippets)."""
    store.bind()
    ids = list(ids)
    out = {}
    for start in range(0, len(ids), 500):
        query = Memory.select(Memory.id, Memory.title, Memory.content).where(Memory.id.in_(ids[start : start + 500]))
        out.update({mid: (title, content) for mid, title, content in _rows(query)})
    return out


@bound
def content_starts(store, chars: int = 24) -> dict[str, str]:
    """id -> the first ``chars`` characters of every memory's content, in one narrow query:
    the memory table's content column sorts by them (0.11 s for 100k, on the work lane)."""
    store.bind()
    return dict(_rows(Memory.select(Memory.id, fn.substr(Memory.content, 1, chars))))
