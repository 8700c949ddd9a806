"""Every code a core error or refusal carries, with its English words.

An error says what went wrong as a ``code`` and the ``params`` that fill in its wording
(``ValidationError("tags", code="too_many_tags", n=31, limit=30)``). The English here is what
str() of the error gives: the command line, the logs and the assistants read it. A window says
the same code in the user's language (memdesk/gui/reasons.py has a wording for every code
listed here; a test checks it). A code is never renamed: the tool-call log stores codes.

Templates are str.format strings over the params. A code whose English needs more than one
template names a function instead.
"""

from __future__ import annotations

from collections.abc import Callable


def _persona_conflict(p: dict) -> str:
    there = f"puts it in persona “{p['file_persona']}”" if p.get("file_persona") else "makes it global"
    here = f"belongs to persona “{p['here_persona']}”" if p.get("here_persona") else "is global"
    others = f" (also differs in {p['others']})" if p.get("others") else ""
    return f"persona: the file {there}; here it {here}{others}"


def _same_text(p: dict) -> str:
    where = {"trash": " (in the trash)", "superseded": " (superseded)"}.get(p.get("where", ""), "")
    return f"duplicate: same text as memory {p['id']}{where}"


def _unrecognised(p: dict) -> str:
    return (
        f"unrecognised file {p['name']}: expected {p['expected']}"
        if p.get("name")
        else (f"unrecognised file: expected {p['expected']}")
    )


def _not_that_format(p: dict) -> str:
    found = f" (it looks like {p['detected']})" if p.get("detected") else ""
    return f"{p['name']} is not a {p['format']} file{found}"


VALIDATION: dict[str, str] = {  # ValidationError: "FIELD: " and these words
    "invalid": "{detail}",  # a check that has no code of its own yet: its English words
    "not_text": "must be text, not {type}",
    "must_be_text": "must be text",
    "nul_character": "contains a NUL character",
    "blank": "must not be blank",
    "missing": "is missing",
    "too_long": "is {n:,} characters long; the limit is {limit:,}",
    "tags_not_list": "must be a list of strings, not {type}",
    "tag_not_text": "every tag must be text; got {type} {value!r:.40}",
    "too_many_tags": "{n} tags; the limit is {limit}",
    "not_a_choice": "{value!r:.40} is not one of {choices}",
    "not_importance": "{value!r:.20} is not a whole number from 1 to 10",
    "bad_source": "{value!r} is not manual, ai or import:NAME",
    "bad_time": "{detail}",
    "bad_colour": "{value!r} is not a colour like #3a7bd5",
    "not_persona_id": "must be a persona id, not {type}",
    "no_persona_id": "there is no persona with id {id!r}",
    "no_persona_named": "there is no persona named {name!r}",
    "not_settable": "is not a field that can be set here",
    "not_a_count": "must be a whole number ≥ 0",
    "heat_range": "must be a number from 0 to 100",
    "expiry_range": "must be a number of days from 0 to 36500",
    "id_taken": "a memory with this id already exists",
    "dedup_key_taken": "another memory of this persona already uses {key!r}",
    "store_refused": "the store refused the change ({detail})",
    "not_in_trash": "memory {id} is not in the trash; delete it first",
    "already_superseded": "memory {id} is already superseded by {by}",
    "supersede_itself": "a memory cannot supersede itself",
    "persona_name_taken": "a persona named {name!r} already exists",
    "persona_id_taken": "a persona with id {id!r} already exists",
    "not_persona_field": "is not a persona field",
    "persona_create_failed": "cannot create persona: {detail}",
    "persona_key_clash": (
        "{n} of this persona's memories use a dedup key that a global memory already uses ({keys}); "
        "change or remove one memory of each pair, then delete the persona"
    ),
    "unknown_choice": "unknown choice {choice!r}",
    "memories_policy": "say what happens to the persona's memories: {choices}",
    "persona_name_needed": "type a name for the new persona",
    "persona_name_like_id": "{name!r} looks like an id; give the persona a name people can read",
    "persona_name_exists": "a persona named {name!r} already exists; map to it instead",
    "merge_member_gone": "memory {id} no longer exists",
    "merge_member_trashed": "memory {id} is in the trash; refresh the proposal",
    "merge_member_superseded": "memory {id} is already superseded by {by}; refresh the proposal",
    "merge_member_edited": "memory {id} was edited after the merge was proposed; look at it again before merging",
    "merge_personas_differ": "memories of different personas cannot be merged",
    "merge_too_few": "choose at least two memories to merge",
}

OTHER: dict[str, str | Callable[[dict], str]] = {
    "message": "{text}",  # raised with words only: a window shows them as they are
    # ---- finding things ----
    "no_memory": "no memory with id {id!r}",
    "no_persona": "no persona with id {id!r}",
    "no_revision": "memory {id} has no revision {revision}",
    "no_id_given": "no memory id given",
    "id_too_short": "{typed!r} is too short for an id prefix: give at least {min} characters or the full id",
    "no_id_prefix": "no memory id starts with {typed!r}",
    "id_in_trash": "{typed!r} names memory {id}, which is in the trash",
    "id_not_in_trash": "{typed!r} names memory {id}, which is not in the trash",
    "ids_only_in_trash": "{n} memories have an id starting with {typed!r}, but none outside the trash",
    "ids_not_in_trash": "{n} memories have an id starting with {typed!r}, but none in the trash",
    "ambiguous_id": "id prefix {prefix!r} matches {total} {kind}; type more of the id:",
    "no_proposal": "no open merge proposal {id!r} (answered already, or replaced by a newer run)",
    "changed_elsewhere": (
        "memory {id} was changed elsewhere (you edited version {expected}, the store has version "
        "{found}); nothing was overwritten"
    ),
    # ---- the assistants' tools ----
    "tool_args_not_json": "{tool}: arguments must be a JSON object",
    "tool_args_not_object": "{tool}: arguments must be an object, not {type}",
    "tool_unknown_args": "{tool}: unknown argument(s) {names}; accepted: {accepted}",
    "tool_required": "{tool}: '{name}' is required",
    "tool_not_text": "{tool}: '{name}' must be a string",
    "tool_bad_choice": "{tool}: '{name}' must be one of {choices}; got {value!r}",
    "tool_not_integer": "{tool}: '{name}' must be a whole number",
    "tool_out_of_range": "{tool}: '{name}' must be between {low} and {high}; got {value}",
    "tool_not_number": "{tool}: '{name}' must be a number",
    "tool_not_boolean": "{tool}: '{name}' must be true or false",
    "tool_unknown": "unknown tool {tool!r}; available: {available}",
    "tool_memory_off": "memory is switched off for this persona (autoSaveMemory); nothing was done",
    "tool_delete_too_many": (
        "memory_delete: {n} memories contain {query!r}; that is too many to delete at once (limit "
        "{limit}). Use a more specific query or an id."
    ),
    "tool_other_persona": "memory_forget: memory {id} belongs to another persona",
    "tool_forget_nothing": (
        "memory_forget: give an id, or at least one filter (scope, type, tags); forgetting everything at "
        "once is not allowed"
    ),
    "no_tool_call": "no tool call {call}",
    "call_reverted": "tool call {call} was already reverted",
    "call_changed_nothing": "tool call {call} ({tool}) changed nothing; there is nothing to revert",
    "call_later_edit": (
        "memory {id} was changed after tool call {call}; revert that change first or edit the memory by "
        "hand (nothing was reverted)"
    ),
    # ---- search syntax: "search: WORDS (at character N)" ----
    "query_minus_alone": "'-' must be followed by the term to exclude",
    "query_quote_open": "this quote is never closed",
    "query_paren_unmatched": "')' has no matching '('",
    "query_or_sides": "OR needs a term on both sides",
    "query_and_sides": "AND needs a term on both sides",
    "query_expected_term": "expected a search term here",
    "query_empty_parens": "empty parentheses",
    "query_paren_open": "this '(' is never closed",
    "query_empty_quotes": "empty quotes",
    "query_needs_value": "{typed}{op} needs a value",
    "query_unknown_filter": "{typed} is not a filter; did you mean {suggestion}:?",
    "query_importance": "importance is a whole number from 1 to 10, not {value!r}",
    "query_unknown_value": "{typed}:{value} is unknown; use one of {allowed}",
    "query_before_year_1": "{value!r} reaches back before year 1",
    "query_not_date": "{value!r} is not a date (use 2024, 2024-05, 2024-05-31 or 7d)",
    "query_unreal_date": "{value!r} is not a real date",
    # ---- a file refused whole by an import ----
    "file_unreadable": "cannot read {path}: {detail}",
    "file_is_folder": "{path} is a folder, not a file",
    "file_too_large": "{name} is {mb} MB; files over {limit} MB are refused",
    "file_not_utf16": "{name} claims UTF-16 but is not valid UTF-16",
    "file_not_utf8": "{name} is not UTF-8 text (bad byte at offset {offset})",
    "json_too_deep": "{name}: JSON nested too deeply",
    "json_invalid": "{name}: not valid JSON (line {line}, column {column}: {detail})",
    "file_unrecognised": _unrecognised,
    "unknown_format": "unknown format {format!r}; use one of {formats}",
    "format_not_json": "{name}: a {format} file is not JSON",
    "not_that_format": _not_that_format,
    "zip_not_that_format": "{name} is a zip archive, not a {format} file",
    "not_a_zip": "{name} is not a zip archive",
    "binary_file": "{name} is a binary file, not text; expected {expected}",
    "markdown_empty": "{name}: no list items or paragraphs to import",
    "strict_refused": "{n} invalid record(s) in the file; nothing was imported (strict mode)",
    # ---- an import plan's reasons, record by record ----
    "record_not_object": "record is {type}, not an object",
    "record_unreadable": "{detail}",  # the file's reader said why, in its words
    "duplicate_id": "id: appears more than once in this file",
    "duplicate_key": "dedup_key: {key!r} appears more than once in this file",
    "key_used": "dedup_key: {key!r} is already used by memory {id}",
    "same_text_as_memory": _same_text,
    "same_text_as_record": "duplicate: same text as record {n} in this file",
    "persona_conflict": _persona_conflict,
    "changed_here": "changed here after the file's copy was written (differs in {names})",
    "differs": "differs in {names}",
    "note": "{text}",  # what the file's reader noted about a record, in its words
}

CODES: dict[str, str | Callable[[dict], str]] = {**VALIDATION, **OTHER}


def english(code: str, params: dict) -> str:
    """The English words of ``code`` with ``params`` (a note, when given, follows after "; ")."""
    words = CODES[code]
    text = words(params) if callable(words) else words.format(**params)
    note = params.get("note") if code != "note" else ""
    return f"{text}; {note}" if note else text
