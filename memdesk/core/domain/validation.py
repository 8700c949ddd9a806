"""Checks and normalises memory and persona fields before anything is written."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from memdesk.core.domain.errors import ValidationError
from memdesk.core.domain.records import SCOPES, TIERS, TYPES
from memdesk.core.domain.times import parse_time

MAX_LEN = {
    "title": 500,
    "content": 100_000,
    "summary": 20_000,
    "group": 200,
    "tag": 100,
    "dedup_key": 500,
    "source": 100,
    "name": 100,
    "description": 2_000,
}
MAX_TAGS = 100
_SOURCE = re.compile(r"^(manual|ai|import(:[^\s]{1,80})?)$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_TAG_SPLIT = re.compile(r"[,，、;；]")


def _text(field: str, value, *, required=False, strip=True, limit_key=None) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationError(field, code="not_text", type=type(value).__name__)
    if "\x00" in value:
        raise ValidationError(field, code="nul_character")
    text = value.strip() if strip else value
    if required and not text.strip():
        raise ValidationError(field, code="blank")
    limit = MAX_LEN[limit_key or field]
    if len(text) > limit:
        raise ValidationError(field, code="too_long", n=len(text), limit=limit)
    return text


def content(value) -> str:
    return _text("content", value, required=True)


def title(value) -> str:
    return _text("title", value)


def summary(value) -> str:
    return _text("summary", value)


def group(value) -> str:
    # '/' separates nested groups; tidy the spaces around it.
    text = _text("group", value)
    return "/".join(part.strip() for part in text.split("/") if part.strip())


def tags(value) -> tuple[str, ...]:
    """A list of strings, or one comma-separated string (，、; accepted too)."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = _TAG_SPLIT.split(value)
    if not isinstance(value, (list, tuple)):
        raise ValidationError("tags", code="tags_not_list", type=type(value).__name__)
    seen: dict[str, None] = {}
    for item in value:
        if not isinstance(item, str):
            raise ValidationError("tags", code="tag_not_text", type=type(item).__name__, value=item)
        tag = _text("tags", item, limit_key="tag")
        if tag:
            seen.setdefault(tag, None)
    if len(seen) > MAX_TAGS:
        raise ValidationError("tags", code="too_many_tags", n=len(seen), limit=MAX_TAGS)
    return tuple(seen)


def _choice(field: str, value, choices) -> str:
    if not isinstance(value, str) or value.strip().lower() not in choices:
        raise ValidationError(field, code="not_a_choice", value=value, choices=", ".join(choices))
    return value.strip().lower()


def memory_type(value) -> str:
    return _choice("type", value, TYPES)


def scope(value) -> str:
    return _choice("scope", value, SCOPES)


def tier(value) -> str:
    return _choice("tier", value, TIERS)


def importance(value) -> int:
    if isinstance(value, bool):
        raise ValidationError("importance", code="not_importance", value=value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or not 1 <= value <= 10:
        raise ValidationError("importance", code="not_importance", value=value)
    return value


def source(value) -> str:
    text = _text("source", value or "manual")
    if not _SOURCE.match(text):
        raise ValidationError("source", code="bad_source", value=text)
    return text


def dedup_key(value) -> str | None:
    if value is None:
        return None
    text = _text("dedup_key", value)
    return text or None


def time(field: str, value):
    try:
        return parse_time(value, field=field)
    except ValueError as exc:
        raise ValidationError(field, code="bad_time", detail=str(exc).split(": ", 1)[-1]) from None


def memory_id(value) -> str:
    text = _text("id", value, limit_key="dedup_key")
    if not text:
        raise ValidationError("id", code="blank")
    return text


def persona_name(value) -> str:
    return _text("name", value, required=True)


def description(value) -> str:
    return _text("description", value)


def colour(value) -> str:
    text = _text("colour", value or "", limit_key="name")
    if text and not _COLOUR.match(text):
        raise ValidationError("colour", code="bad_colour", value=text)
    return text.lower()


def fold(text: str) -> str:
    """NFKC and case-folded: full-width and half-width, upper and lower case compare equal.
    (TODO after merging chinese-search: core/search's tokenizer keeps its own copy.)"""
    return unicodedata.normalize("NFKC", text).casefold()


def normalise_for_hash(text: str) -> str:
    """Folded, whitespace collapsed: what counts as 'the same text'."""
    return " ".join(fold(text).split())


def content_hash(text: str, persona_id: str | None) -> str:
    key = normalise_for_hash(text) + "\x1f" + (persona_id or "")
    return hashlib.sha256(key.encode("utf-8")).hexdigest()
