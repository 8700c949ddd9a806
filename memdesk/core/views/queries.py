"""Read-side queries: filtered, sorted, paged lists and statistics."""

from __future__ import annotations

from datetime import datetime

from peewee import fn

from memdesk.core.domain import validation as v
from memdesk.core.domain.errors import ValidationError
from memdesk.core.domain.times import now_utc
from memdesk.core.storage.models import Memory, MemoryTag, Persona

STATES = ("active", "deleted", "expired", "superseded", "all")
SORTS = ("updated_at", "created_at", "importance", "heat", "title", "access_count", "last_access_at")
ALL = None  # persona filter: every persona
GLOBAL = ""  # persona filter: only global memories
# What a person types for "no persona, the global memories" (CLI --persona, import maps,
# Markdown headings). TODO(after merging chinese-search): search/engine.py's persona: filter
# keeps its own copy of these words (plus "none"); point it here.
GLOBAL_WORDS = ("global", "全局")


def means_global(text: str | None) -> bool:
    """'global' or '全局', in any case, with spaces around: the global memories."""
    return text is not None and text.strip().casefold() in GLOBAL_WORDS


def state_condition(state: str, now: datetime):
    not_deleted = Memory.deleted_at.is_null()
    expired = Memory.expires_at.is_null(False) & (Memory.expires_at <= now)
    if state == "active":
        return not_deleted & Memory.superseded_by.is_null() & ~expired
    if state == "deleted":
        return Memory.deleted_at.is_null(False)
    if state == "expired":
        return not_deleted & expired
    if state == "superseded":
        return not_deleted & Memory.superseded_by.is_null(False)
    if state == "all":
        return None
    raise ValidationError("state", code="not_a_choice", value=state, choices=", ".join(STATES))


def persona_condition(persona, merge_global: bool):
    if persona is ALL:
        return None
    if persona == GLOBAL:
        return Memory.persona.is_null()
    if merge_global:
        return (Memory.persona == persona) | Memory.persona.is_null()
    return Memory.persona == persona


def filtered(
    *,
    persona=ALL,
    merge_global=True,
    group=None,
    tag=None,
    type=None,
    scope=None,
    tier=None,
    state="active",
    importance_min=None,
    importance_max=None,
    created_after=None,
    created_before=None,
    updated_after=None,
    updated_before=None,
    ids=None,
    now=None,
):
    """A Memory select with every given filter applied (None = no filter)."""
    now = now or now_utc()
    conditions = [state_condition(state, now), persona_condition(persona, merge_global)]
    if group is not None:
        g = v.group(group)
        conditions.append((Memory.group == g) | Memory.group.startswith(g + "/") if g else Memory.group == "")
    if tag is not None:
        conditions.append(Memory.id.in_(MemoryTag.select(MemoryTag.memory).where(MemoryTag.tag == tag)))
    if type is not None:
        conditions.append(Memory.type == v.memory_type(type))
    if scope is not None:
        conditions.append(Memory.scope == v.scope(scope))
    if tier is not None:
        conditions.append(Memory.tier == v.tier(tier))
    if importance_min is not None:
        conditions.append(Memory.importance >= v.importance(importance_min))
    if importance_max is not None:
        conditions.append(Memory.importance <= v.importance(importance_max))
    for field, column, op in (
        ("created_after", Memory.created_at, "gt"),
        ("created_before", Memory.created_at, "lt"),
        ("updated_after", Memory.updated_at, "gt"),
        ("updated_before", Memory.updated_at, "lt"),
    ):
        value = locals()[field]
        if value is not None:
            when = v.time(field, value)
            conditions.append(column > when if op == "gt" else column < when)
    if ids is not None:
        conditions.append(Memory.id.in_(list(ids)))
    query = Memory.select()
    for condition in conditions:
        if condition is not None:
            query = query.where(condition)
    return query


def sorted_paged(query, *, sort="updated_at", descending=True, offset=0, limit=None):
    if sort not in SORTS:
        raise ValidationError("sort", code="not_a_choice", value=sort, choices=", ".join(SORTS))
    column = getattr(Memory, sort)
    order = column.desc() if descending else column.asc()
    query = query.order_by(order, Memory.id)
    if offset:
        query = query.offset(max(0, int(offset)))
    if limit is not None:
        query = query.limit(max(0, int(limit)))
    return query


def _counts(query, column) -> dict:
    grouped = query.select(column, fn.COUNT(Memory.id)).group_by(column).order_by(column).tuples()
    return {key: count for key, count in grouped}


def stats(*, persona=ALL, merge_global=True, now=None) -> dict:
    now = now or now_utc()
    scope_cond = persona_condition(persona, merge_global)

    def base():
        query = Memory.select()
        return query.where(scope_cond) if scope_cond is not None else query

    in_store = base().where(Memory.deleted_at.is_null())
    names = {p.id: p.name for p in Persona.select(Persona.id, Persona.name)}
    by_persona = {}
    for persona_id, count in _counts(in_store, Memory.persona).items():
        by_persona[names.get(persona_id, persona_id) if persona_id else "(global)"] = count
    return {
        "total": in_store.count(),
        "active": base().where(state_condition("active", now)).count(),
        "trash": base().where(Memory.deleted_at.is_null(False)).count(),
        "expired": base().where(state_condition("expired", now)).count(),
        "superseded": base().where(state_condition("superseded", now)).count(),
        "by_persona": by_persona,
        "by_group": _counts(in_store, Memory.group),
        "by_type": _counts(in_store, Memory.type),
        "by_scope": _counts(in_store, Memory.scope),
        "by_tier": _counts(in_store, Memory.tier),
        "personas": len(names),
    }
