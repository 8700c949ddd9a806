"""Why the core refused or flagged something, in the user's language, by the reason's code.

The core gives every error and every import-plan reason a code and its params
(memdesk/core/domain/error_codes.py lists them, with the English the command line and the assistants
read). Here each code has the window's wording; the params fill it in, argument and field names
said in the user's words, the values (a key, an id, a query) as they were. An error without a
code of its own ("message") is shown in its own words; so is anything unknown, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QLocale

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

AS_IS = {"message": "{text}", "record_unreadable": "{detail}", "note": "{text}"}  # already in their own words


def _fields() -> dict[str, str]:
    """Validation errors: "FIELD …" (the field as labels.fields() names it)."""
    return {
        "invalid": translate("Reasons", "{field}: {detail}"),
        "not_text": translate("Reasons", "{field} must be text, not {type}"),
        "must_be_text": translate("Reasons", "{field} must be text"),
        "nul_character": translate("Reasons", "{field} contains a NUL character"),
        "blank": translate("Reasons", "{field} is empty"),
        "missing": translate("Reasons", "{field} is missing"),
        "too_long": translate("Reasons", "{field} is {n} characters long; at most {limit} are kept"),
        "tags_not_list": translate("Reasons", "the tags must be a list of texts, not {type}"),
        "tag_not_text": translate("Reasons", "every tag must be text; {value} is not"),
        "too_many_tags": translate("Reasons", "{n} tags; at most {limit} are allowed"),
        "not_a_choice": translate("Reasons", "{field} must be one of {choices}, not {value}"),
        "not_importance": translate("Reasons", "the importance must be a whole number from 1 to 10, not {value}"),
        "bad_source": translate("Reasons", "the source must be manual, ai or import:NAME, not {value}"),
        "bad_time": translate("Reasons", "{field} is not a time MemDesk can read ({detail})"),
        "bad_colour": translate("Reasons", "{value} is not a colour like #3a7bd5"),
        "not_persona_id": translate("Reasons", "the persona must be a persona id, not {type}"),
        "no_persona_id": translate("Reasons", "there is no persona with id {id}"),
        "no_persona_named": translate("Reasons", "there is no persona named {name}"),
        "not_settable": translate("Reasons", "{field} cannot be set here"),
        "not_a_count": translate("Reasons", "{field} must be a whole number of 0 or more"),
        "heat_range": translate("Reasons", "the heat must be a number from 0 to 100"),
        "expiry_range": translate("Reasons", "the expiry must be a number of days from 0 to 36500"),
        "id_taken": translate("Reasons", "a memory with this id already exists"),
        "dedup_key_taken": translate("Reasons", "another memory of this persona already has the key {key}"),
        "store_refused": translate("Reasons", "the store refused the change ({detail})"),
        "not_in_trash": translate("Reasons", "memory {id} is not in the trash; delete it first"),
        "already_superseded": translate("Reasons", "memory {id} is already superseded by {by}"),
        "supersede_itself": translate("Reasons", "a memory cannot supersede itself"),
    }


def _personas_and_merges() -> dict[str, str]:
    return {
        "persona_name_taken": translate("Reasons", "a persona named {name} already exists"),
        "persona_id_taken": translate("Reasons", "a persona with id {id} already exists"),
        "not_persona_field": translate("Reasons", "{field} is not a field of a persona"),
        "persona_create_failed": translate("Reasons", "the persona could not be created ({detail})"),
        "persona_key_clash": translate(
            "Reasons",
            "{n} of this persona's memories use a dedup key that a global memory already uses ({keys}); "
            "change or remove one memory of each pair, then delete the persona",
        ),
        "unknown_choice": translate("Reasons", "unknown choice {choice}"),
        "memories_policy": translate("Reasons", "say what happens to the persona's memories: {choices}"),
        "persona_name_needed": translate("Reasons", "type a name for the new persona"),
        "persona_name_like_id": translate(
            "Reasons", "{name} looks like an id; give the persona a name people can read"
        ),
        "persona_name_exists": translate("Reasons", "a persona named {name} already exists; map to it instead"),
        "merge_member_gone": translate("Reasons", "memory {id} no longer exists"),
        "merge_member_trashed": translate("Reasons", "memory {id} is in the trash; refresh the proposal"),
        "merge_member_superseded": translate(
            "Reasons", "memory {id} is already superseded by {by}; refresh the proposal"
        ),
        "merge_member_edited": translate(
            "Reasons", "memory {id} was edited after the merge was proposed; look at it again before merging"
        ),
        "merge_personas_differ": translate("Reasons", "memories of different personas cannot be merged"),
        "merge_too_few": translate("Reasons", "choose at least two memories to merge"),
    }


def _finding() -> dict[str, str | Callable[[dict], str]]:
    return {
        "no_memory": translate("Reasons", "there is no memory {id}"),
        "no_persona": translate("Reasons", "there is no persona with id {id}"),
        "no_revision": translate("Reasons", "memory {id} has no revision {revision}"),
        "no_id_given": translate("Reasons", "no memory id given"),
        "id_too_short": translate(
            "Reasons", "{typed} is too short for an id prefix: give at least {min} characters or the full id"
        ),
        "no_id_prefix": translate("Reasons", "no memory id starts with {typed}"),
        "id_in_trash": translate("Reasons", "{typed} names memory {id}, which is in the trash"),
        "id_not_in_trash": translate("Reasons", "{typed} names memory {id}, which is not in the trash"),
        "ids_only_in_trash": translate(
            "Reasons", "{n} memories have an id starting with {typed}, but none outside the trash"
        ),
        "ids_not_in_trash": translate(
            "Reasons", "{n} memories have an id starting with {typed}, but none in the trash"
        ),
        "ambiguous_id": _ambiguous,
        "no_proposal": translate(
            "Reasons", "there is no open merge proposal {id} (answered already, or replaced by a newer run)"
        ),
        "changed_elsewhere": translate(
            "Reasons",
            "memory {id} was changed elsewhere (you edited version {expected}, the store has version {found}); "
            "nothing was overwritten",
        ),
    }


def _ambiguous(p: dict) -> str:
    kinds = {
        "merge proposals": translate("Reasons", "the id prefix {prefix} fits {total} merge proposals; type more of it"),
        "personas": translate("Reasons", "the id prefix {prefix} fits {total} personas; type more of it"),
    }
    fallback = translate("Reasons", "the id prefix {prefix} fits {total} memories; type more of it")
    return kinds.get(p.get("kind", ""), fallback).format(**p)


def _tools() -> dict[str, str]:
    """What the tools say to an assistant (memdesk.core.tools): its arguments, and refusals."""
    return {
        "tool_args_not_json": translate("Reasons", "the arguments could not be read"),
        "tool_args_not_object": translate("Reasons", "the arguments could not be read"),
        "tool_unknown_args": translate("Reasons", "arguments it does not take: {names} (it takes {accepted})"),
        "tool_required": translate("Reasons", "the argument {name} is missing"),
        "tool_not_text": translate("Reasons", "{name} must be text"),
        "tool_bad_choice": translate("Reasons", "{name} must be one of {choices}, not {value}"),
        "tool_not_integer": translate("Reasons", "{name} must be a whole number"),
        "tool_out_of_range": translate("Reasons", "{name} must be from {low} to {high}, not {value}"),
        "tool_not_number": translate("Reasons", "{name} must be a number"),
        "tool_not_boolean": translate("Reasons", "{name} must be true or false"),
        "tool_unknown": translate("Reasons", "there is no tool named {tool}"),
        "tool_memory_off": translate("Reasons", "memory is switched off for this persona; nothing was done"),
        "tool_delete_too_many": translate(
            "Reasons", "{n} memories contain “{query}”: too many to delete at once; nothing was deleted"
        ),
        "tool_other_persona": translate("Reasons", "memory {id} belongs to another persona"),
        "tool_forget_nothing": translate("Reasons", "it named no memory and no filter; nothing was forgotten"),
        "no_tool_call": translate("Reasons", "there is no tool call {call}"),
        "call_reverted": translate("Reasons", "tool call {call} was already reverted"),
        "call_changed_nothing": translate(
            "Reasons", "tool call {call} ({tool}) changed nothing; there is nothing to revert"
        ),
        "call_later_edit": translate(
            "Reasons",
            "memory {id} was changed after tool call {call}; revert that change first or edit the memory by hand "
            "(nothing was reverted)",
        ),
    }


def _query() -> dict[str, str]:
    """A search that cannot be read (the search bar adds where; gui/browser/query_errors.py)."""
    return {
        "query_quote_open": translate("QueryErrors", "this quotation mark is never closed"),
        "query_minus_alone": translate("QueryErrors", "a minus sign must be followed by what to leave out"),
        "query_paren_unmatched": translate("QueryErrors", "“)” has no “(” before it"),
        "query_or_sides": translate("QueryErrors", "OR needs something on both sides"),
        "query_and_sides": translate("QueryErrors", "AND needs something on both sides"),
        "query_expected_term": translate("QueryErrors", "something to search for is missing here"),
        "query_empty_parens": translate("QueryErrors", "the brackets are empty"),
        "query_paren_open": translate("QueryErrors", "this “(” is never closed"),
        "query_empty_quotes": translate("QueryErrors", "the quotation marks are empty"),
        "query_needs_value": translate("QueryErrors", "{typed}{op} needs a value after it"),
        "query_importance": translate("QueryErrors", "importance is a whole number from 1 to 10, not “{value}”"),
        "query_unknown_value": translate("QueryErrors", "{typed} has no value “{value}”; use one of {allowed}"),
        "query_unknown_filter": translate("QueryErrors", "there is no filter “{typed}”; did you mean {suggestion}:?"),
        "query_not_date": translate("QueryErrors", "“{value}” is not a date; write 2024, 2024-05, 2024-05-31 or 7d"),
        "query_unreal_date": translate("QueryErrors", "“{value}” is not a real date"),
        "query_before_year_1": translate("QueryErrors", "“{value}” reaches back before year 1"),
    }


def _files() -> dict[str, str | Callable[[dict], str]]:
    """A file an import refused whole."""
    return {
        "file_unreadable": translate("Reasons", "{path} cannot be read: {detail}"),
        "file_is_folder": translate("Reasons", "{path} is a folder, not a file"),
        "file_too_large": translate("Reasons", "{name} is {mb} MB; files over {limit} MB are refused"),
        "file_not_utf16": translate("Reasons", "{name} says it is UTF-16 text but is not"),
        "file_not_utf8": translate("Reasons", "{name} is not UTF-8 text (a bad byte at offset {offset})"),
        "json_too_deep": translate("Reasons", "{name}: the JSON is nested too deeply"),
        "json_invalid": translate("Reasons", "{name} is not valid JSON (line {line}, column {column}: {detail})"),
        "file_unrecognised": _unrecognised,
        "unknown_format": translate("Reasons", "there is no format {format}; use one of {formats}"),
        "format_not_json": translate("Reasons", "{name}: a {format} file must be JSON, and this is not"),
        "not_that_format": _not_that_format,
        "zip_not_that_format": translate("Reasons", "{name} is a zip archive, not a {format} file"),
        "not_a_zip": translate("Reasons", "{name} is not a zip archive"),
        "binary_file": translate("Reasons", "{name} is a binary file, not text; MemDesk reads {expected}"),
        "markdown_empty": translate("Reasons", "{name} has no list items or paragraphs to import"),
        "strict_refused": translate(
            "Reasons", "{n} records of the file are invalid; nothing was imported (every record must be valid)"
        ),
    }


def _unrecognised(p: dict) -> str:
    if p.get("name"):
        return translate("Reasons", "MemDesk does not know the format of {name}; it reads {expected}").format(**p)
    return translate("Reasons", "MemDesk does not know this file's format; it reads {expected}").format(**p)


def _not_that_format(p: dict) -> str:
    if p.get("detected"):
        return translate("Reasons", "{name} is not a {format} file (it looks like {detected})").format(**p)
    return translate("Reasons", "{name} is not a {format} file").format(**p)


def _plan() -> dict[str, str | Callable[[dict], str]]:
    """What an import plan says about a file's record."""
    return {
        "record_not_object": translate("Reasons", "the record is {type}, not an object"),
        "duplicate_id": translate("Reasons", "its id appears more than once in the file"),
        "duplicate_key": translate("Reasons", "the dedup key {key} appears more than once in the file"),
        "key_used": translate("Reasons", "the dedup key {key} is already used by memory {id}"),
        "same_text_as_memory": translate("Reasons", "the same text as memory {id}, already here"),
        "same_text_as_record": translate("Reasons", "the same text as record {n} of the file"),
        "persona_conflict": _persona_conflict,
        "changed_here": translate("Reasons", "changed here after the file's copy was written (differs in: {names})"),
        "differs": translate("Reasons", "differs in: {names}"),
    }


def wordings() -> dict[str, str | Callable[[dict], str]]:
    """The window's wording of every code (tests check that none is missing)."""
    from . import reasons_setup

    return {
        **reasons_setup.wordings(),
        **_fields(),
        **_personas_and_merges(),
        **_finding(),
        **_tools(),
        **_query(),
        **_files(),
        **_plan(),
        **AS_IS,
    }


def _argument_names() -> dict[str, str]:
    from . import labels

    names = dict(labels.fields())
    names.update(
        {
            "persona": names["persona_id"],
            "query": translate("Reasons", "search words"),
            "id": translate("Reasons", "memory id"),
            "ids": translate("Reasons", "memory ids"),
            "limit": translate("Reasons", "number of results"),
            "top_k": translate("Reasons", "number of results"),
        }
    )
    return names


def _named(key: str, value) -> str:
    """Argument and field names in the user's words ("content" → 内容); values stay as they were sent."""
    if key not in ("name", "names", "accepted", "field", "others"):
        return "" if value is None else str(value)
    value = str(value)
    if key in ("name", "names", "accepted") and QLocale().language() == QLocale.Language.English:
        return value  # an assistant's argument: in English its own name is the word
    names = _argument_names()
    return translate("Reasons", ", ").join(names.get(n.strip(), n.strip()) for n in value.split(","))


def _persona_conflict(p: dict) -> str:
    there = (
        translate("Reasons", "in the file it belongs to “{name}”").format(name=p["file_persona"])
        if p.get("file_persona")
        else translate("Reasons", "in the file it is global")
    )
    here = (
        translate("Reasons", "here it belongs to “{name}”").format(name=p["here_persona"])
        if p.get("here_persona")
        else translate("Reasons", "here it is global")
    )
    text = translate("Reasons", "{there}; {here}").format(there=there, here=here)
    if p.get("others"):
        text += translate("Reasons", " (also differs in: {names})").format(names=p["others"])
    return text


def reason_text(code: str, params: dict | None = None, fallback: str = "") -> str:
    """The reason ``code`` with ``params``, in the user's words; ``fallback`` (the English) for a
    code this window does not know or params that do not fit its wording."""
    params = dict(params or {})
    words = wordings().get(code or "")
    if words is None:
        return fallback
    shown = {k: _named(k, v) for k, v in params.items()}
    try:
        text = words(shown) if callable(words) else words.format(**shown)
    except (KeyError, IndexError, ValueError):
        return fallback
    if params.get("note") and code != "note":
        text = translate("Reasons", "{reason}; {note}").format(reason=text, note=params["note"])
    return text


def error_text(exc: BaseException) -> str:
    """A core error in the user's words (its English when it has no code of its own)."""
    return reason_text(getattr(exc, "code", ""), getattr(exc, "params", None), str(exc))
