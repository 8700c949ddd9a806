"""The window's wording of why a store, a backup, a model or a file could not be used.

reasons.py says every code; this module holds the codes of opening and copying stores, backups,
exports, background tasks, models and import files (error_codes.py has their English for the
command line). The core's free-text details (an SQLite or network message) stay as they came.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def stores() -> dict[str, str | Callable[[dict], str]]:
    """Opening a store (a file or a PostgreSQL database), and losing it."""
    return {
        "no_store": translate("Reasons", "there is no database at {path}"),
        "store_in_use": _store_in_use,
        "not_a_store": translate(
            "Reasons",
            "{path} is not a MemDesk database (not an SQLite file, or damaged); it was not changed. Open another "
            "file or restore a backup",
        ),
        "store_unreadable": translate("Reasons", "{path} cannot be read ({detail}); it was not changed"),
        "store_unopenable": translate("Reasons", "{path} cannot be opened ({detail}); it was not changed"),
        "store_folder_failed": translate("Reasons", "the folder for {path} cannot be created: {detail}"),
        "schema_too_new": _schema_too_new,
        "pg_not_a_store": translate(
            "Reasons",
            "{where} holds tables named like MemDesk's but is not a MemDesk database; it was not changed. Choose "
            "an empty database",
        ),
        "pg_cannot_upgrade": translate("Reasons", "this MemDesk cannot bring {where} to schema version {version}"),
        "database_unavailable": _database_unavailable,
        "database_dropped": translate(
            "Reasons",
            "the database {where} no longer exists on the server (dropped or renamed): nothing more can be saved "
            "to it. Open another database, or create it again and copy or import a backup into it",
        ),
        "connection_lost_maybe_saved": translate(
            "Reasons",
            "the connection to {where} was lost during a save; it was saved whole or not at all: reload to see which",
        ),
        "connection_lost_not_saved": translate(
            "Reasons", "the connection to {where} was lost during a save, before it was committed: it was not saved"
        ),
    }


def _store_in_use(p: dict) -> str:
    if p.get("holders"):
        return translate(
            "Reasons", "{path} is open in {holders}: close it there, then try again; nothing was changed"
        ).format(**p)
    return translate(
        "Reasons",
        "{path} is open in another program (a MemDesk window, an MCP server, a command): close it, then try "
        "again; nothing was changed",
    ).format(**p)


def _schema_too_new(p: dict) -> str:
    if p.get("what") == "database":
        words = translate(
            "Reasons",
            "{path} was written by a newer MemDesk (schema version {found}; this version reads up to {supported}); "
            "upgrade MemDesk to open it. The database was not changed",
        )
    else:
        words = translate(
            "Reasons",
            "{path} was written by a newer MemDesk (schema version {found}; this version reads up to {supported}); "
            "upgrade MemDesk to open it. The file was not changed",
        )
    return words.format(**p)


def _database_unavailable(p: dict) -> str:
    words = {
        "password": translate("Reasons", "{where} cannot be opened: the server asks for a password"),
        "auth": translate("Reasons", "{where} cannot be opened: wrong user name or password"),
        "missing": translate("Reasons", "{where} cannot be opened: the server has no such database"),
        "unreachable": translate("Reasons", "{where} cannot be opened: the server cannot be reached ({detail})"),
    }
    fallback = translate("Reasons", "{where} cannot be opened: {detail}")
    return words.get(p.get("reason", ""), fallback).format(**p)


def copies() -> dict[str, str | Callable[[dict], str]]:
    """Backups, copies between stores, exports, undo steps and background tasks."""
    return {
        "backup_damaged": translate("Reasons", "the backup {name} is damaged too; choose another backup"),
        "no_folder": translate("Reasons", "there is no folder {path}"),
        "backup_not_restored": translate(
            "Reasons", "the backup {name} could not be restored ({detail}); nothing was changed"
        ),
        "source_mid_write": translate("Reasons", "the source database is in the middle of a save; try again"),
        "same_store": translate("Reasons", "the source and the target are the same database ({location})"),
        "target_not_empty": translate(
            "Reasons", "{target} is not empty ({listed}); copy into an empty database, or merge (what it has is kept)"
        ),
        "copy_mismatch": translate(
            "Reasons",
            "the copy in {target} does not match {source} ({detail}); it was rolled back and the target is as it was",
        ),
        "merge_mismatch": translate("Reasons", "the merge into {target} did not add up ({detail}); it was rolled back"),
        "unknown_export_format": translate("Reasons", "there is no export format {format}; use one of {formats}"),
        "export_to_folder": translate("Reasons", "{path} is a folder; give a file name"),
        "step_stale": _stale_step,
        "cancelled": translate("Reasons", "cancelled; nothing was changed"),
        "task_cancelled": _task_cancelled,
        "index_build_cancelled": translate(
            "Reasons", "building the search index was cancelled; it resumes where it stopped"
        ),
        "index_rebuild_cancelled": translate(
            "Reasons", "building the search index was cancelled; the previous index is still used"
        ),
        "reembed_cancelled": translate(
            "Reasons", "embedding was cancelled after {done} of {total} memories; the finished ones are kept"
        ),
        "feed_keep_range": translate(
            "Reasons", "the number of change-feed rows to keep must be a whole number of 0 or more"
        ),
        "trash_days_range": translate(
            "Reasons", "the days the trash keeps memories must be a whole number of 0 or more"
        ),
        "unknown_task": translate("Reasons", "there is no maintenance task {task}; the tasks are {tasks}"),
    }


def _stale_step(p: dict) -> str:
    """An undo or redo refused: what it would overwrite changed (the details are for the log)."""
    words = {
        "persona": translate("Reasons", "persona {key} was changed elsewhere after this step; nothing was changed"),
        "tool call": translate("Reasons", "tool call {key} was reverted or put back since; nothing was changed"),
        "setting": translate("Reasons", "the setting {key} was changed elsewhere after this step; nothing was changed"),
    }
    if p.get("kind") in words:
        return words[p["kind"]].format(**p)
    if p.get("title"):
        return translate(
            "Reasons", "memory {key} “{title}” was changed elsewhere after this step; nothing was changed"
        ).format(**p)
    return translate("Reasons", "memory {key} was changed elsewhere after this step; nothing was changed").format(**p)


def _task_cancelled(p: dict) -> str:
    tasks = {
        "duplicate search": translate("Reasons", "the duplicate search"),
        "optimize": translate("Reasons", "optimizing"),
        "search index": translate("Reasons", "the search index update"),
        "consolidation": translate("Reasons", "the consolidation"),
        "heat recomputation": translate("Reasons", "the heat recomputation"),
        "expiry": translate("Reasons", "moving expired memories to the trash"),
        "purging the trash": translate("Reasons", "emptying the trash"),
    }
    task = tasks.get(p.get("task", ""), p.get("task") or translate("Reasons", "the task"))
    return translate("Reasons", "{task} was cancelled; nothing it did was kept").format(task=task)


def models() -> dict[str, str]:
    """Installing, checking and using a model."""
    return {
        "model_no_tokenizer": translate(
            "Reasons", "there is no tokenizer.json (a model needs model.onnx and tokenizer.json)"
        ),
        "model_several_tokenizers": translate(
            "Reasons", "there are several tokenizer.json files ({first}, {second}); install one model at a time"
        ),
        "model_which_onnx": translate(
            "Reasons",
            "it is not clear which ONNX file is the model (found: {found}); put the one you want next to "
            "tokenizer.json as model.onnx",
        ),
        "model_too_many_files": translate("Reasons", "{path} holds too many files to be a model folder"),
        "model_archive_refused": translate(
            "Reasons", "the archive {name} was refused ({detail}); nothing was installed"
        ),
        "model_disk_space": translate(
            "Reasons", "not enough free disk space in {path}: about {need} MB are needed, {free} MB are free"
        ),
        "model_source_missing": translate("Reasons", "{path} does not exist"),
        "model_disk_full": translate("Reasons", "the disk is full: the model could not be installed into {path}"),
        "model_already_quantised": translate(
            "Reasons", "{path} is already quantised ({quantization}); install it without int8"
        ),
        "model_name_taken": translate(
            "Reasons", "a model named {model} is already installed; replace it or install this one under another name"
        ),
        "model_not_folder_or_zip": translate("Reasons", "{path} is neither a folder nor a .zip archive"),
        "model_disk_full_unpacking": translate("Reasons", "the disk is full while unpacking {path}"),
        "model_archive_unreadable": translate("Reasons", "{path} cannot be read ({detail})"),
        "model_fails_test": translate("Reasons", "the model fails on a test sentence ({detail})"),
        "model_not_finite": translate("Reasons", "the model gives invalid (not finite) numbers for a test sentence"),
        "model_replace_failed": translate("Reasons", "{path} could not be replaced ({detail}); is MemDesk using it?"),
        "model_needs_onnx": translate(
            "Reasons",
            "int8 quantisation needs the onnx package (pip install onnx); install without int8 to use the model as "
            "it is",
        ),
        "model_quantise_failed": translate("Reasons", "{path} could not be quantised to int8 ({detail})"),
    }


def model_files() -> dict[str, str]:
    """A model's files and settings, and using or removing an installed model."""
    return {
        "model_bad_name": translate(
            "Reasons",
            "{model} cannot be a model name: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or "
            "digit",
        ),
        "model_bad_settings": translate("Reasons", "the settings of {where} are not usable ({detail})"),
        "model_config_unreadable": translate("Reasons", "{path} is not a readable JSON file ({detail})"),
        "model_config_not_object": translate("Reasons", "{path} must hold a JSON object"),
        "model_config_too_new": translate("Reasons", "{path} was written by a newer MemDesk (format {version})"),
        "model_config_missing": translate("Reasons", "{path} lacks {keys}"),
        "onnx_unusable": translate("Reasons", "{path} is not a usable ONNX model ({detail})"),
        "tokenizer_unusable": translate("Reasons", "{path} is not a usable tokenizer.json ({detail})"),
        "model_inputs_unsupported": translate(
            "Reasons",
            "model.onnx is not a BERT-style encoder MemDesk can use: its inputs are {inputs}; expected input_ids "
            "(+ attention_mask, token_type_ids)",
        ),
        "model_no_token_output": translate(
            "Reasons", "model.onnx has no output of token vectors (like last_hidden_state) to pool"
        ),
        "model_file_missing": translate("Reasons", "{path} is not a model folder: {file} is missing"),
        "model_dimension_changed": translate(
            "Reasons",
            "{path}: model.onnx gives {found}-dimensional vectors but its settings say {expected}; reinstall the model",
        ),
        "model_dimension_wrong": translate(
            "Reasons",
            "the model {model} should give {expected}-dimensional vectors but model.onnx gives {found}; is this the "
            "right model file?",
        ),
        "model_pooling_unknown": translate(
            "Reasons",
            "it is not known how to pool the token vectors of the model {model} (it has no memdesk-model.json and "
            "MemDesk does not know its name); choose cls pooling (bge models) or mean pooling "
            "(sentence-transformers models)",
        ),
        "model_not_installed": translate("Reasons", "no model named {model} is installed"),
        "model_unusable": translate("Reasons", "the model {model} cannot be used ({detail}); reinstall it"),
        "model_fails_here": translate("Reasons", "the model {model} cannot be used ({detail})"),
        "model_remove_failed": translate(
            "Reasons", "the model {model} could not be removed ({detail}); is MemDesk using it?"
        ),
        "model_failed_on_memory": translate(
            "Reasons", "the memory was saved, but the model {model} failed on it ({detail})"
        ),
    }


def downloads() -> dict[str, str]:
    """Downloading a model from a hub or a mirror."""
    return {
        "unknown_model": translate("Reasons", "there is no known model {model}; the known ones are {known}"),
        "model_name_taken_download": translate(
            "Reasons", "a model named {model} is already installed; remove it first"
        ),
        "hub_bad_address": translate("Reasons", "{text} is not a hub address; give one like https://hf-mirror.com"),
        "hub_refused": translate("Reasons", "the model hub refused the request: {url} answered {status} {reason}"),
        "hub_not_found": translate(
            "Reasons", "the model hub has no such file: {url} answered {status} {reason} (wrong name or revision?)"
        ),
        "hub_unreachable": translate(
            "Reasons",
            "cannot reach {host} ({detail}); check the network, or choose a mirror such as https://hf-mirror.com",
        ),
        "hub_bad_listing": translate("Reasons", "{url} did not answer with the hub's file listing"),
        "hub_files_missing": translate("Reasons", "{repo}@{revision} has no {files} on {hub}"),
        "hub_no_checksum": translate(
            "Reasons", "the hub gives no checksum for {file}; an unverified download is refused"
        ),
        "checksum_mismatch": translate(
            "Reasons",
            "{file} does not match its checksum ({detail}); it was deleted and nothing was installed. Try again, "
            "or use another mirror",
        ),
        "download_disk_full": translate(
            "Reasons",
            "the disk is full: the download of {file} stopped at {mb} MB in {path}; free some space and download "
            "again to resume",
        ),
        "download_stopped": translate(
            "Reasons", "the download of {file} stopped at {mb} MB ({detail}); download again to resume"
        ),
        "download_short": translate(
            "Reasons", "the download of {file} stopped at {have} of {size} bytes; download again to resume"
        ),
        "download_paused": translate("Reasons", "the download was paused; download again to resume"),
    }


def import_files() -> dict[str, str]:
    """An import file refused whole, beyond the shared reasons of reading a file (reasons.py)."""
    return {
        "file_content_invalid": translate("Reasons", "{name} cannot be read ({detail})"),
        "csv_header_unreadable": translate("Reasons", "{name}: the header row cannot be read ({detail})"),
        "csv_empty": translate("Reasons", "{name} is empty; a CSV file starts with a header row"),
        "csv_no_content_column": translate(
            "Reasons", "{name} has no content column (content, memory or text) in its header row"
        ),
        "csv_row_unreadable": translate("Reasons", "{name}: row {row} cannot be read ({detail})"),
        "native_not_list": translate("Reasons", "{name}: “{key}” must be a list"),
        "jsonl_no_valid_line": translate(
            "Reasons", "{name}: no line is valid JSON; MemDesk expected the MCP memory server's JSON Lines"
        ),
        "zip_refused": translate("Reasons", "{name} was refused ({detail})"),
        "zip_damaged": translate("Reasons", "{name} is a damaged zip archive ({detail})"),
        "gzip_damaged": translate("Reasons", "{name} holds damaged gzip data ({detail})"),
        "zip_not_openmemory": translate(
            "Reasons", "{name} is a zip archive but not an OpenMemory export (it has no memories.json)"
        ),
        "zip_member_not_utf8": translate(
            "Reasons", "{name}: a file inside is not UTF-8 text (a bad byte at offset {offset})"
        ),
        "sqlite_unreadable": translate("Reasons", "{name} cannot be read as an SQLite database ({detail})"),
        "blockcell_not_sqlite": translate(
            "Reasons", "{name} is not an SQLite database; blockcell keeps its memories in memory.db (an SQLite file)"
        ),
        "blockcell_no_table": translate(
            "Reasons", "{name} has no memory_items table: it is not a blockcell memory database"
        ),
        "blockcell_no_columns": translate("Reasons", "{name}: the memory_items table lacks an id or content column"),
        "blockcell_unreadable": translate("Reasons", "{name}: the memory_items table cannot be read ({detail})"),
        "import_refused_by_store": translate(
            "Reasons", "the database refused the import ({detail}); nothing was written"
        ),
    }


def wordings() -> dict[str, str | Callable[[dict], str]]:
    return {**stores(), **copies(), **models(), **model_files(), **downloads(), **import_files()}
