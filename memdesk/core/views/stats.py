"""The store at a glance: every figure of `memdesk stats` and the statistics view, in one call.

``overview(store)`` returns a plain dict (JSON-ready). The legacy keys of
``queries.stats`` (total, active, trash, expired, superseded, personas,
by_persona, by_group, by_type, by_scope, by_tier: memories not in the trash)
are kept as they were, and ``charts`` adds what the window draws:

- bars by persona, group (top N, a group counting its sub-groups), type,
  scope, tier and tag (top N), each ``{"key", "label", "count", "query"}``;
  ``query`` is the search text that lists exactly those memories;
- a heat histogram (10 bins of width 10 over 0-100, the last one closed);
- memories added per week (weeks start on Monday, UTC) by source (manual,
  ai, import) over the last 52 weeks, each week with its query.

Chart figures count memories *in use* (not in the trash, expired or
superseded): what a search shows, so a click on a bar lists that many.
Everything is SQL aggregates over indexed columns: no Python loop over
memories, fast on 100k of them. No Qt here.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from memdesk.core.domain.records import SCOPES, TIERS, TYPES
from memdesk.core.domain.times import now_utc
from memdesk.core.storage.models import stored_time

TOP_GROUPS = 15
TOP_TAGS = 20
WEEKS = 52
HEAT_BINS = 10
SOURCES = ("manual", "ai", "import")
GLOBAL_LABEL = "(global)"


def _quoted(field: str, value: str) -> str:
    from memdesk.core.search.query.query import Filter  # renders values with spaces or brackets quoted

    return Filter(field, ":", value).render()


def _bar(key, label: str, count: int, query: str | None) -> dict:
    return {"key": key, "label": label, "count": int(count), "query": query}


def week_start(moment: datetime) -> datetime:
    """Monday 00:00 UTC of the week holding ``moment``."""
    day = moment.astimezone(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


def source_kind(source: str) -> str:
    """manual / ai / import (import:NAME and anything unknown count as import)."""
    return source if source in ("manual", "ai") else "import"


_ROW = (
    "id, persona_id, group_name, type, scope, tier, heat, source, created_at, deleted_at IS NOT NULL, "
    "superseded_by IS NOT NULL, (expires_at IS NOT NULL AND expires_at <= ?)"
)
# Memories not in use, one indexed range each (an OR of them would scan the table).
_NOT_IN_USE = (
    f"SELECT {_ROW} FROM memory WHERE deleted_at IS NOT NULL "
    f"UNION ALL SELECT {_ROW} FROM memory WHERE deleted_at IS NULL AND superseded_by IS NOT NULL "
    f"UNION ALL SELECT {_ROW} FROM memory WHERE deleted_at IS NULL AND superseded_by IS NULL "
    "AND expires_at <= ?"
)
_SEP = "\x1f"


def _heat_bin(heat) -> int:
    return min(max(int((heat or 0) // (100 / HEAT_BINS)), 0), HEAT_BINS - 1)


def _counts(conn, sql: str, *args) -> dict:
    return {key: n for key, n in conn.execute(sql, args).fetchall()}


def _whole_table(conn, since: str) -> tuple[dict, list[int], list]:
    """Every memory, in the trash or not: counts by column, the heat histogram, additions per day."""
    every = {
        "persona": _counts(conn, "SELECT persona_id, COUNT(*) FROM memory GROUP BY 1"),
        "group": _counts(conn, "SELECT group_name, COUNT(*) FROM memory GROUP BY 1"),
        "tier": _counts(conn, "SELECT tier, COUNT(*) FROM memory GROUP BY 1"),
        "tag": _counts(conn, "SELECT tag, COUNT(*) FROM memory_tag GROUP BY 1"),
    }
    width = 100 / HEAT_BINS
    if getattr(conn, "is_postgres", False):  # its CAST rounds, and MIN/MAX are aggregates only
        bucket = f"LEAST(GREATEST(CAST(FLOOR(heat / {width}) AS INTEGER), 0), {HEAT_BINS - 1})"
    else:
        bucket = f"MIN(MAX(CAST(heat / {width} AS INTEGER), 0), {HEAT_BINS - 1})"
    mixed = _counts(
        conn,  # one scan; a text key groups faster than three columns
        f"SELECT type || '{_SEP}' || scope || '{_SEP}' || {bucket}, COUNT(*) FROM memory GROUP BY 1",
    )
    every["type"], every["scope"], heat_all = {}, {}, [0] * HEAT_BINS
    for key, n in mixed.items():
        type_, scope, bucket = key.split(_SEP)
        every["type"][type_] = every["type"].get(type_, 0) + n
        every["scope"][scope] = every["scope"].get(scope, 0) + n
        heat_all[int(bucket)] += n
    added = conn.execute(
        "SELECT substr(created_at, 1, 10), source, COUNT(*) FROM memory WHERE created_at >= ? GROUP BY 1, 2", (since,)
    ).fetchall()
    return every, heat_all, added


class _InUse:
    """The whole-table figures with what is not in use taken off: the trash from the "in the
    store" figures (kept), the trash, expired and superseded ones from the chart figures (in_use)."""

    def __init__(self, conn, every: dict, heat_all: list[int], *, at: str, since: str):
        self.kept = {name: dict(values) for name, values in every.items()}  # not in the trash
        self.in_use = {name: dict(values) for name, values in every.items()}
        self.heat = list(heat_all)
        self.late: list[tuple] = []  # (created day, source) of recent memories not in use
        self.trash = self.expired = self.superseded = 0
        gone = conn.execute(_NOT_IN_USE, (at, at, at, at)).fetchall()
        for row in gone:
            self._take_off(row, since)
        self._take_off_tags(conn, gone)
        for target in (self.kept, self.in_use):
            for name in target:
                target[name] = {k: v for k, v in target[name].items() if v > 0}

    def _take_off(self, row, since: str) -> None:
        (_memory_id, persona, group, type_, scope, tier, heat, source, created, deleted, is_superseded, is_expired) = (
            row
        )
        values = {"persona": persona, "group": group, "tier": tier, "type": type_, "scope": scope}
        for target in (self.kept, self.in_use) if deleted else (self.in_use,):
            for name, value in values.items():
                target[name][value] -= 1
        self.heat[_heat_bin(heat)] -= 1
        if created >= since:
            self.late.append((created[:10], source))
        if deleted:
            self.trash += 1
        else:
            self.expired += bool(is_expired)
            self.superseded += bool(is_superseded)

    def _take_off_tags(self, conn, gone: list) -> None:
        ids = [row[0] for row in gone]
        for chunk in range(0, len(ids), 900):  # SQLite's limit on parameters
            part = ids[chunk : chunk + 900]
            rows = conn.execute(
                f"SELECT m.memory_id, m.tag FROM memory_tag m WHERE m.memory_id IN ({','.join('?' * len(part))})", part
            ).fetchall()
            deleted_ids = {row[0] for row in gone[chunk : chunk + 900] if row[9]}
            for memory_id, tag in rows:
                self.in_use["tag"][tag] -= 1
                if memory_id in deleted_ids:
                    self.kept["tag"][tag] -= 1


def _persona_bars(in_use: dict, names: dict) -> list[dict]:
    bars = []
    for persona_id, count in in_use["persona"].items():
        if persona_id is None:
            bars.append(_bar(None, GLOBAL_LABEL, count, "persona:global"))
        else:
            persona_name = str(names.get(persona_id, persona_id))
            bars.append(_bar(persona_id, persona_name, count, _quoted("persona", persona_name)))
    bars.sort(key=lambda b: (-b["count"], b["label"]))
    return bars


def _rolled_groups(in_use: dict) -> dict[str, int]:
    """Groups roll up: "work" counts "work/project" too, as the group: filter does."""
    rolled: dict[str, int] = {}
    for group, count in in_use["group"].items():
        parts = group.split("/") if group else []
        for depth in range(1, len(parts) + 1):
            path = "/".join(parts[:depth])
            rolled[path] = rolled.get(path, 0) + count
    return rolled


def _column_bars(in_use: dict, name: str, order) -> list[dict]:
    values = in_use[name]
    keys = list(order) + sorted(k for k in values if k not in order)
    return [_bar(k, k, values.get(k, 0), f"{name}:{k}" if k in order else None) for k in keys]


def _weekly(added: list, late: list, first: datetime, weeks: int) -> dict:
    starts = [first + timedelta(weeks=i) for i in range(weeks)]
    index = {s.date().isoformat(): i for i, s in enumerate(starts)}
    per_source = {s: [0] * weeks for s in SOURCES}

    def add_week(day: str, source: str, n: int) -> None:
        try:
            when = datetime.fromisoformat(day).replace(tzinfo=timezone.utc)
        except ValueError:
            return
        slot = index.get(week_start(when).date().isoformat())
        if slot is not None:
            per_source[source_kind(source)][slot] += n

    for day, source, n in added:
        add_week(day, source, n)
    for day, source in late:
        add_week(day, source, -1)
    return {
        "weeks": [s.date().isoformat() for s in starts],
        **per_source,
        "queries": [
            f"created>={s.date().isoformat()} created<{(s + timedelta(weeks=1)).date().isoformat()}" for s in starts
        ],
    }


def overview(
    store, *, now: datetime | None = None, top_groups: int = TOP_GROUPS, top_tags: int = TOP_TAGS, weeks: int = WEEKS
) -> dict:
    """Counts, breakdowns, heat histogram and weekly additions of ``store``.

    Fast on 100k memories: whole-table counts come from covering indexes or
    one scan, and the few memories not in use (trash, expired, superseded)
    are read through their indexes and taken off.
    """
    started = time.perf_counter()
    now = now or now_utc()
    conn = store.connection()
    weeks = max(1, weeks)
    first = week_start(now) - timedelta(weeks=weeks - 1)
    since = stored_time(first)
    names = dict(conn.execute("SELECT id, name FROM persona").fetchall())
    every, heat_all, added = _whole_table(conn, since)
    use = _InUse(conn, every, heat_all, at=stored_time(now), since=since)
    kept, in_use = use.kept, use.in_use
    result = {
        "total": sum(kept["tier"].values()),
        "active": sum(in_use["tier"].values()),
        "trash": use.trash,
        "expired": use.expired,
        "superseded": use.superseded,
        "by_persona": {
            (names.get(k, k) if k else GLOBAL_LABEL): v
            for k, v in sorted(kept["persona"].items(), key=lambda kv: kv[0] or "")
        },
        "by_group": dict(sorted(kept["group"].items())),
        "by_type": dict(sorted(kept["type"].items())),
        "by_scope": dict(sorted(kept["scope"].items())),
        "by_tier": dict(sorted(kept["tier"].items())),
        "personas": len(names),
    }
    rolled = _rolled_groups(in_use)
    groups = sorted(rolled.items(), key=lambda kv: (-kv[1], kv[0]))[: max(0, top_groups)]
    tags = sorted(in_use["tag"].items(), key=lambda kv: (-kv[1], kv[0]))[: max(0, top_tags)]
    width = 100 / HEAT_BINS
    result["charts"] = {
        "population": "in use: not in the trash, expired or superseded",
        "persona": _persona_bars(in_use, names),
        "group": [_bar(g, g, c, _quoted("group", g)) for g, c in groups],
        "groups_total": len(rolled),
        "ungrouped": in_use["group"].get("", 0),
        "type": _column_bars(in_use, "type", TYPES),
        "scope": _column_bars(in_use, "scope", SCOPES),
        "tier": _column_bars(in_use, "tier", TIERS),
        "tag": [_bar(t, t, c, _quoted("tag", t)) for t, c in tags],
        "heat": {"edges": [round(i * width, 6) for i in range(HEAT_BINS + 1)], "counts": use.heat},
        "weekly": _weekly(added, use.late, first, weeks),
        "states": [
            _bar("deleted", "trash", use.trash, "is:deleted"),
            _bar("expired", "expired", use.expired, "is:expired"),
            _bar("superseded", "superseded", use.superseded, "is:superseded"),
        ],
    }
    result["generated_at"] = now.isoformat()
    result["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def comparable(stats: dict) -> dict:
    """The figures without when and how fast they were made (two calls on the same store compare equal)."""
    return {k: v for k, v in stats.items() if k not in ("elapsed_ms", "generated_at")}
