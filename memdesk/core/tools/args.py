"""Argument handling that forgives the usual variants assistants send.

Aliases (q/search/text → query; top_k/k/page_size/limit), tags as a list or
a comma string, numbers as strings. Errors say exactly what to send instead.
"""

from __future__ import annotations

import json

from memdesk.core.domain.errors import MemDeskError

ALIASES = {
    "query": ("query", "q", "search", "text", "keyword", "keywords"),
    "limit": ("limit", "top_k", "k", "n", "max_results"),
    "top_k": ("top_k", "limit", "k", "n", "max_results"),
    "page_size": ("page_size", "limit", "per_page"),
    "content": ("content", "memory", "text", "note"),
    "dedup_key": ("dedup_key", "dedupKey", "key"),
    "expires_in_days": ("expires_in_days", "expiresInDays", "ttl_days"),
    "id": ("id", "memory_id", "memoryId"),
}


class ToolError(MemDeskError):
    """A tool call the assistant can fix; the message says how."""


def normalise(tool: str, raw, schema: dict) -> dict:
    if raw is None:
        raw = {}
    if isinstance(raw, str):  # some clients send the arguments JSON-encoded
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError:
            raise ToolError(code="tool_args_not_json", tool=tool) from None
    if not isinstance(raw, dict):
        raise ToolError(code="tool_args_not_object", tool=tool, type=type(raw).__name__)
    props = schema["function"]["parameters"]["properties"]
    out = {}
    for name in props:
        for alias in ALIASES.get(name, (name,)):
            if alias in raw and raw[alias] is not None:
                out[name] = raw[alias]
                break
    unknown = set(raw) - {a for n in props for a in ALIASES.get(n, (n,))}
    if unknown:
        raise ToolError(
            code="tool_unknown_args", tool=tool, names=", ".join(sorted(unknown)), accepted=", ".join(props)
        )
    for name in schema["function"]["parameters"].get("required", []):
        if name not in out or (isinstance(out[name], str) and not out[name].strip()):
            raise ToolError(code="tool_required", tool=tool, name=name)
    for name, value in list(out.items()):
        spec = props[name]
        kind = spec.get("type")
        if kind == "integer":
            out[name] = _integer(tool, name, value, spec)
        elif kind == "number":
            out[name] = _number(tool, name, value)
        elif kind == "boolean":
            out[name] = _boolean(tool, name, value)
        elif kind == "string":
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                raise ToolError(code="tool_not_text", tool=tool, name=name)
            if "enum" in spec and value.strip().lower() not in spec["enum"]:
                raise ToolError(
                    code="tool_bad_choice", tool=tool, name=name, choices=", ".join(spec["enum"]), value=value
                )
            out[name] = value.strip().lower() if "enum" in spec else value
    return out


def _integer(tool, name, value, spec) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ToolError(code="tool_not_integer", tool=tool, name=name)
    low, high = spec.get("minimum"), spec.get("maximum")
    if low is not None and value < low or high is not None and value > high:
        raise ToolError(code="tool_out_of_range", tool=tool, name=name, low=low, high=high, value=value)
    return value


def _number(tool, name, value) -> float:
    try:
        if isinstance(value, bool):
            raise ValueError
        return float(value)
    except (TypeError, ValueError):
        raise ToolError(code="tool_not_number", tool=tool, name=name) from None


def _boolean(tool, name, value) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.strip().lower() in ("true", "1", "yes")
    raise ToolError(code="tool_not_boolean", tool=tool, name=name)
