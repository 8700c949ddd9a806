"""The editor's values as a plain dict, compared and merged without widgets.

Form values use the store's field names; tags are the text the user typed.
Importance is None while automatic (the store estimates it from the text until a
person sets it); the estimate rides along as ``estimated_importance``, outside FIELDS,
so it is never compared or sent.
Comparisons normalise through the core's own validators, so "a，b" and
"a, b" are the same tags and trailing spaces are no change.
"""

from __future__ import annotations

from memdesk.core.domain import validation as v
from memdesk.core.domain.errors import ValidationError

FIELDS = ("title", "content", "group", "tags", "type", "scope", "importance", "expires_at", "persona_id", "dedup_key")
_NORMALISE = {
    "title": v.title,
    "content": v.content,
    "group": v.group,
    "tags": v.tags,
    "type": v.memory_type,
    "scope": v.scope,
    "importance": v.importance,
    "dedup_key": v.dedup_key,
}
NEW_DEFAULTS = {
    "title": "",
    "content": "",
    "group": "",
    "tags": "",
    "type": "note",
    "scope": "long_term",
    "importance": None,
    "expires_at": None,
    "persona_id": None,
    "dedup_key": "",
    "estimated_importance": None,
}


def record_to_form(record) -> dict:
    values = {name: getattr(record, name) for name in FIELDS}
    values["tags"] = ", ".join(record.tags)
    values["dedup_key"] = record.dedup_key or ""
    values["importance"] = record.importance if record.importance_set else None
    values["estimated_importance"] = None if record.importance_set else record.importance
    if values["expires_at"] is not None:
        values["expires_at"] = values["expires_at"].replace(second=0, microsecond=0)
    return values


def normalise(field: str, value):
    check = _NORMALISE.get(field)
    if check is None:
        return value
    try:
        return check(value)
    except ValidationError:
        return value


def same(field: str, a, b) -> bool:
    return normalise(field, a) == normalise(field, b)


def changed_fields(before: dict, after: dict) -> dict:
    """The fields of ``after`` that differ from ``before``."""
    return {name: after[name] for name in FIELDS if name in after and not same(name, before.get(name), after[name])}


def merge_text(base: str, mine: str, theirs: str) -> str:
    """Both sides changed the text: keep mine and add the lines only they wrote."""
    mine_lines = set(mine.splitlines())
    base_lines = set(base.splitlines())
    extra = [line for line in theirs.splitlines() if line not in mine_lines and line not in base_lines]
    return mine if not extra else mine.rstrip("\n") + "\n" + "\n".join(extra)


def merge_suggestion(base: dict, mine: dict, theirs: dict) -> dict:
    """Per field: whichever side changed it; both changed: mine (content: merged)."""
    out = {}
    for name in FIELDS:
        b, m, t = base.get(name), mine.get(name), theirs.get(name)
        if same(name, m, b):
            out[name] = t
        elif same(name, t, b) or name != "content":
            out[name] = m
        else:
            out[name] = merge_text(b or "", m or "", t or "")
    return out


def short_title(values: dict) -> str:
    """The first line of the title (else the content), cut to fit an undo label."""
    text = (values.get("title") or values.get("content") or "").strip().splitlines()
    first = text[0] if text else ""
    return first[:24] + ("…" if len(first) > 24 else "")
