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


def _store_in_use(p: dict) -> str:
    where = p.get("holders") or "another program (a MemDesk window, an MCP server, a command)"
    them = "them" if p.get("n", 0) > 1 else "it"
    return f"{p['path']} is open in {where}: close {them}, then try again. Nothing was changed."


def _stale_step(p: dict) -> str:
    title = f" “{p['title']}”" if p.get("title") else ""
    return f"{p['kind']} {p['key']}{title} was changed elsewhere since this step ({p['detail']}); nothing was changed"


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
    # ---- opening a store ----
    "no_store": "no store at {path}; use `memdesk init {path}` or `--create`",
    "store_in_use": _store_in_use,
    "not_a_store": (
        "{path} is not a MemDesk database (not an SQLite file, or damaged). It was not changed. Open another "
        "file or restore a backup (memdesk backup list)."
    ),
    "store_unreadable": "{path} cannot be read: {detail}. It was not changed.",
    "store_unopenable": "{path} cannot be opened: {detail}. It was not changed.",
    "store_folder_failed": "cannot create the folder for {path}: {detail}",
    "schema_too_new": (
        "{path} was written by a newer MemDesk (schema version {found}; this version understands up to "
        "{supported}). Upgrade MemDesk to open it; the {what} was not changed."
    ),
    "pg_not_a_store": (
        "{where} holds tables named like MemDesk's but is not a MemDesk store. It was not changed. Point "
        "MemDesk at an empty database."
    ),
    "pg_cannot_upgrade": "this MemDesk cannot bring {where} to schema version {version}",
    "database_unavailable": "cannot open {where}: {detail}",
    "database_dropped": (
        "the database {where} no longer exists on the server (dropped or renamed): nothing more can be saved "
        "to it. Open another database, or create it again and copy or import a backup into it."
    ),
    "connection_lost_maybe_saved": (
        "the connection to {where} was lost during a save; it was saved whole or not at all: reload to see which"
    ),
    "connection_lost_not_saved": (
        "the connection to {where} was lost during a save, before it was committed: it was not saved "
        "(PostgreSQL keeps a write whole or not at all)"
    ),
    # ---- backups, copies between stores, exports ----
    "backup_damaged": "{name} is damaged too; choose another backup",
    "no_folder": "there is no folder {path}",
    "backup_not_restored": "{name} could not be restored ({detail}); nothing was changed",
    "source_mid_write": "the source store is in the middle of a write; try again",
    "same_store": "the source and the target are the same store ({location})",
    "target_not_empty": (
        "{target} is not empty ({listed}); copy into an empty store, or add --merge to add what it does not "
        "have (what it has is kept)"
    ),
    "copy_mismatch": (
        "the copy in {target} does not match {source} ({detail}); it was rolled back and the target is as it was"
    ),
    "merge_mismatch": "the merge into {target} did not add up ({detail}); it was rolled back",
    "unknown_export_format": "unknown export format {format!r}; use one of {formats}",
    "export_to_folder": "{path} is a folder; give a file name",
    # ---- undo, maintenance, background work ----
    "step_stale": _stale_step,
    "cancelled": "cancelled; nothing was changed",
    "task_cancelled": "{task} cancelled; nothing it did was kept",
    "index_build_cancelled": "index build cancelled; it resumes where it stopped",
    "index_rebuild_cancelled": "index build cancelled; the previous index is still used",
    "reembed_cancelled": "re-embedding cancelled after {done} of {total} memories; the finished ones are kept",
    "feed_keep_range": "feed_keep must be a whole number of rows ≥ 0",
    "trash_days_range": "trash_days must be a whole number of days ≥ 0",
    "unknown_task": "unknown maintenance task {task!r}; tasks: {tasks}",
    # ---- models: installing ----
    "model_no_tokenizer": "no tokenizer.json found (a model needs model.onnx and tokenizer.json)",
    "model_several_tokenizers": "several tokenizer.json files ({first}, {second}); install one model at a time",
    "model_which_onnx": (
        "cannot tell which ONNX file is the model (found: {found}); put the one you want next to tokenizer.json "
        "as model.onnx"
    ),
    "model_too_many_files": "{path} holds too many files to be a model folder",
    "model_archive_refused": "refusing {name}: {detail}; nothing was installed",
    "model_disk_space": "not enough free disk space in {path}: need about {need} MB, {free} MB free",
    "model_source_missing": "{path} does not exist",
    "model_disk_full": "the disk is full: could not install into {path} ({detail})",
    "model_already_quantised": "{path} is already quantised ({quantization}); install without --int8",
    "model_name_taken": (
        "a model named {model!r} is already installed; pass --force to replace it or --name to install it "
        "under another name"
    ),
    "model_not_folder_or_zip": "{path} is neither a folder nor a .zip archive",
    "model_disk_full_unpacking": "the disk is full while unpacking {path}",
    "model_archive_unreadable": "cannot read {path}: {detail}",
    "model_fails_test": "the model fails on a test input: {detail}",
    "model_not_finite": "the model produced non-finite numbers on a test input",
    "model_replace_failed": "could not replace {path} ({detail}); is MemDesk using it?",
    "model_needs_onnx": (
        "int8 quantisation needs the 'onnx' package (pip install onnx); leave out --int8 to use the model as it is"
    ),
    "model_quantise_failed": "could not quantise {path} to int8: {detail}",
    # ---- models: their files and settings ----
    "model_bad_name": (
        "bad model name {model!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"
    ),
    "model_bad_settings": "{where}: {detail}",
    "model_config_unreadable": "{path}: not a readable JSON file ({detail})",
    "model_config_not_object": "{path}: expected a JSON object",
    "model_config_too_new": "{path} was written by a newer MemDesk (format {version})",
    "model_config_missing": "{path}: missing {keys}",
    "onnx_unusable": "{path}: not a usable ONNX model ({detail})",
    "tokenizer_unusable": "{path}: not a usable tokenizer.json ({detail})",
    "model_inputs_unsupported": (
        "model.onnx is not a BERT-style encoder MemDesk can drive: its inputs are {inputs}; expected input_ids "
        "(+ attention_mask, token_type_ids)"
    ),
    "model_no_token_output": "model.onnx has no [batch, tokens, hidden] output (like last_hidden_state) to pool",
    "model_file_missing": "{path} is not a model folder: {file} is missing",
    "model_dimension_changed": (
        "{path}: model.onnx outputs {found}-dimensional vectors but its config says {expected}; reinstall the model"
    ),
    "model_dimension_wrong": (
        "model {model!r}: expected {expected}-dimensional vectors but model.onnx outputs {found}; is this the right "
        "model file?"
    ),
    "model_pooling_unknown": (
        "model {model!r}: cannot tell how to pool its token vectors (the folder has no memdesk-model.json and the "
        "name is not one MemDesk knows); pass --pooling cls (bge models) or --pooling mean (sentence-transformers "
        "models)"
    ),
    "model_not_installed": "no model named {model!r} is installed (see `memdesk model list`)",
    "model_unusable": "model {model!r} cannot be used: {detail}; reinstall it",
    "model_fails_here": "model {model!r} cannot be used: {detail}",
    "model_remove_failed": "could not remove model {model!r} ({detail}); is MemDesk using it?",
    "model_failed_on_memory": "the memory was saved, but the model {model} failed on it: {detail}",
    # ---- models: downloading ----
    "unknown_model": "unknown model {model!r}; known: {known} (or pass --repo OWNER/NAME)",
    "model_name_taken_download": "a model named {model!r} is already installed; pass --force to replace it",
    "hub_bad_address": "{text!r} is not a hub address; give one like https://hf-mirror.com",
    "hub_refused": "{url}: the server answered {status} {reason}",
    "hub_not_found": "{url}: the server answered {status} {reason} (wrong name or revision?)",
    "hub_unreachable": (
        "cannot reach {host}: {detail}. Check the connection, or use a mirror (--hub URL, or set HF_ENDPOINT, "
        "e.g. https://hf-mirror.com); or download the files elsewhere and use `memdesk model install DIR`"
    ),
    "hub_bad_listing": "{url}: not the hub's file listing",
    "hub_files_missing": "{repo}@{revision} has no {files} on {hub}",
    "hub_no_checksum": "the hub gives no checksum for {file}; refusing an unverified download",
    "checksum_mismatch": (
        "checksum mismatch for {file} ({detail}); the file was deleted and nothing was installed. Try again; if "
        "it repeats, the server is sending a different file"
    ),
    "download_disk_full": (
        "the disk is full: download of {file} stopped at {mb} MB in {path}; free some space and run the same "
        "command again to resume"
    ),
    "download_stopped": "download of {file} stopped at {mb} MB ({detail}); run the same command again to resume",
    "download_short": "download of {file} stopped at {have} of {size} bytes; run the same command again to resume",
    "download_paused": "download paused; run the same command again to resume",
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
    "file_content_invalid": "{name}: {detail}",  # a reader's own words, for what has no code of its own
    "csv_header_unreadable": "{name}: the header row cannot be read ({detail})",
    "csv_empty": "{name}: the file is empty; expected a header row",
    "csv_no_content_column": "{name}: no content column (content, memory or text) in the header row",
    "csv_row_unreadable": "{name}: row {row} cannot be read ({detail})",
    "native_not_list": "{name}: '{key}' must be a list",
    "jsonl_no_valid_line": "{name}: no line is valid JSON; expected the MCP memory server's JSON Lines",
    "zip_refused": "{name}: {detail}; the file was refused",
    "zip_damaged": "{name}: damaged zip archive ({detail})",
    "gzip_damaged": "{name}: damaged gzip data ({detail})",
    "zip_not_openmemory": "{name} is a zip but not an OpenMemory export (no memories.json inside)",
    "zip_member_not_utf8": "{name}: member is not UTF-8 text (bad byte at {offset})",
    "sqlite_unreadable": "{name} cannot be read as SQLite ({detail})",
    "blockcell_not_sqlite": (
        "{name} is not an SQLite database; blockcell keeps its memories in memory.db (an SQLite file)"
    ),
    "blockcell_no_table": "{name} has no memory_items table: it is not a blockcell memory database",
    "blockcell_no_columns": "{name}: memory_items lacks an id or content column",
    "blockcell_unreadable": "{name}: cannot read memory_items ({detail})",
    "import_refused_by_store": "the store refused the import ({detail}); nothing was written",
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
