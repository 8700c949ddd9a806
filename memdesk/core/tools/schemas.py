"""JSON Schemas of the assistant tools, in OpenAI function-calling form.

Names and arguments follow seed 000 (memory_save/list/search/delete) and seed
001 (memory_upsert/query/forget), so assistants written for either work.
"""

from __future__ import annotations

from memdesk.core.domain.records import SCOPES, TYPES

_TAGS = {
    "description": "Tags: a list of strings, or one comma-separated string.",
    "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}],
}
_PERSONA = {"type": "string", "description": "Act as this persona (name). Default: the server's persona."}


def _fn(name: str, description: str, properties: dict, required=()) -> dict:
    params = {"type": "object", "properties": {**properties, "persona": _PERSONA}}
    if required:
        params["required"] = list(required)
    return {"type": "function", "function": {"name": name, "description": description, "parameters": params}}


TOOLS = [
    _fn(
        "memory_save",
        "Save a long-term memory about the user (a preference, fact, agreement or project detail worth "
        "remembering across conversations). Call it without being asked when the user reveals such "
        "information. An exact duplicate is not saved twice.",
        {
            "content": {"type": "string", "description": "The memory text (required)."},
            "title": {"type": "string", "description": "A short title."},
            "group": {"type": "string", "description": "Folder, e.g. 偏好 / 工作 / 项目; '/' nests."},
            "tags": _TAGS,
        },
        required=["content"],
    ),
    _fn(
        "memory_list",
        "List memories page by page (newest first). Use names_only for a cheap overview.",
        {
            "page": {"type": "integer", "minimum": 1, "default": 1},
            "page_size": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
            "group": {"type": "string"},
            "tag": {"type": "string"},
            "type": {"type": "string", "enum": list(TYPES)},
            "names_only": {"type": "boolean", "default": False},
        },
    ),
    _fn(
        "memory_search",
        "Search memories by keywords or a question (Chinese and English). Returns the best matches "
        "first, and in total how many memories match.",
        {
            "query": {"type": "string", "description": "What to look for."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
        },
        required=["query"],
    ),
    _fn(
        "memory_delete",
        "Delete the memories that match: an id, or text contained in the memory. They go to the trash "
        "(the user can restore them). Returns which were deleted. Refuses vague queries matching many.",
        {
            "query": {"type": "string", "description": "A memory id, or text the memories contain."},
            "dry_run": {"type": "boolean", "default": False, "description": "Only say what would be deleted."},
        },
        required=["query"],
    ),
    _fn(
        "memory_upsert",
        "Save a memory; if a memory with the same dedup_key exists it is updated instead of duplicated.",
        {
            "title": {"type": "string"},
            "content": {"type": "string", "description": "The memory text (required)."},
            "type": {"type": "string", "enum": list(TYPES)},
            "scope": {"type": "string", "enum": list(SCOPES)},
            "importance": {"type": "integer", "minimum": 1, "maximum": 10},
            "tags": _TAGS,
            "dedup_key": {"type": "string", "description": "Stable key, e.g. user_lang_preference."},
            "expires_in_days": {
                "type": "number",
                "exclusiveMinimum": 0,
                "description": "For short-term memories: days until it expires.",
            },
        },
        required=["content"],
    ),
    _fn(
        "memory_query",
        "Search memories, optionally only of one scope or type. Returns the top_k best matches.",
        {
            "query": {"type": "string"},
            "scope": {"type": "string", "enum": list(SCOPES)},
            "type": {"type": "string", "enum": list(TYPES)},
            "top_k": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5},
        },
        required=["query"],
    ),
    _fn(
        "memory_forget",
        "Delete (to the trash) or restore memories: by id, or in a batch filtered by scope/type/tags.",
        {
            "action": {"type": "string", "enum": ["delete", "restore"]},
            "id": {"type": "string"},
            "scope": {"type": "string", "enum": list(SCOPES)},
            "type": {"type": "string", "enum": list(TYPES)},
            "tags": _TAGS,
        },
        required=["action"],
    ),
]

TOOL_NAMES = tuple(t["function"]["name"] for t in TOOLS)


def schema(name: str) -> dict:
    return next(t for t in TOOLS if t["function"]["name"] == name)
