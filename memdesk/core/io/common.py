"""Small conversions every foreign format needs: tags, importance, types, scopes.

Converters turn a foreign record into a dict in store field names. Two extra
keys ride along and never reach the store: ``_note`` (what was mapped, shown
as the plan item's reason) and ``_invalid`` (the record cannot be imported,
with why).
"""

from __future__ import annotations

import json
import math

from memdesk.core.domain.records import SCOPES, TYPES

# Foreign types with a close MemDesk type; the original name is kept as a tag.
_TYPE_MAP = {
    "contact": "fact",  # blockcell
    "glossary": "fact",  # blockcell
    "person": "fact",
    "policy": "note",  # blockcell: rules the assistant must follow
    "rule": "note",
    "snippet": "note",  # blockcell
    "session_summary": "note",  # blockcell
    "summary": "note",
    "decision": "note",  # mcp-memory-service
    "reference": "note",
    "observation": "fact",
    "learning": "note",
    "todo": "task",
    "reminder": "task",
    "preferences": "preference",
}


def bind(store) -> None:
    """Point the shared model proxy at this store before querying models directly.

    The Store's own methods do this; io queries models in bulk (one query for
    thousands of ids instead of one per record), so it must do the same.
    """
    store.bind()


def tags_from(value) -> list[str] | object:
    """Tags as a list: JSON-array text, comma text and lists all accepted.

    Anything else is returned as is, so validation names the problem.
    """
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError:
                parsed = None
            if isinstance(parsed, list):
                return [str(t) for t in parsed if t is not None and str(t).strip()]
        return text  # validation splits on , ， 、 ;
    if value is None:
        return []
    return value


def importance_from(value) -> tuple[int | None, str]:
    """(importance 1–10 or None, note). Accepts 1–10, 0–1 decimals and their text forms.

    blockcell stores 0–1 (REAL), its article 1–10 (INTEGER); a float at or
    below 1 is read as the 0–1 scale, anything else as 1–10.
    """
    if value is None or value == "":
        return None, ""
    if isinstance(value, bool):
        return None, f"importance {value!r} ignored"
    number = value
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None, f"importance {value[:20]!r} is not a number; left automatic"
        if number.is_integer() and "." not in value:
            number = int(number)
    if not isinstance(number, (int, float)) or not math.isfinite(number):
        return None, f"importance {value!r:.20} ignored"
    if isinstance(number, float) and 0 <= number <= 1:
        scaled = max(1, min(10, round(number * 10)))
        return scaled, ""
    rounded = round(number)
    if 1 <= rounded <= 10:
        return int(rounded), ""
    clamped = max(1, min(10, int(rounded)))
    return clamped, f"importance {value!r:.20} is outside 1–10; set to {clamped}"


def type_from(value) -> tuple[str, list[str], str]:
    """(MemDesk type, extra tags, note) for a foreign type name."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "note", [], ""
    name = str(value).strip().lower()
    if name in TYPES:
        return name, [], ""
    mapped = _TYPE_MAP.get(name, "note")
    return mapped, [name[:100]], f"type {name!r} is not a MemDesk type: stored as {mapped}, tagged {name!r}"


def scope_from(value) -> tuple[str, str]:
    if value is None or (isinstance(value, str) and not value.strip()):
        return "long_term", ""
    name = str(value).strip().lower().replace("-", "_")
    if name in SCOPES:
        return name, ""
    return "long_term", f"scope {value!r:.30} unknown: stored as long_term"


def add_tags(record: dict, extra) -> None:
    """Append tags (a list) to a record whose tags may still be a string."""
    extra = [t for t in extra if t]
    if not extra:
        return
    tags = record.get("tags")
    if tags is None or tags == "" or tags == []:
        record["tags"] = list(extra)
    elif isinstance(tags, str):
        record["tags"] = tags + "," + ",".join(extra)
    elif isinstance(tags, (list, tuple)):
        record["tags"] = list(tags) + list(extra)


def note(record: dict, text: str) -> None:
    if text:
        record["_note"] = "; ".join(x for x in (record.get("_note"), text) if x)


def text_or_empty(value) -> str:
    return "" if value is None else value
