"""mem0: `get_all` dumps and OpenMemory's export zip.

get_all returns a list of {id, memory, hash, metadata, categories,
created_at (ISO with a UTC offset), updated_at, user_id, agent_id, run_id}
or {"results": [...]} (API v1.1). user_id becomes the persona; categories,
agent and run become tags.

OpenMemory's export (POST /api/v1/backup/export) is a zip holding
memories.json — {"user", "apps", "categories", "memories": [{id, content,
metadata, state, created_at, updated_at, archived_at, deleted_at,
category_ids, app_id}], "export_meta"} — and memories.jsonl.gz, one memory
per line with category names. memories.json is preferred; the gzip is the
fallback. State "deleted" goes to the trash; "archived" and "paused" become
tags, so nothing is silently dropped.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path, PurePosixPath

from memdesk.core.domain.times import now_utc
from memdesk.core.io import zipsafe

from . import common
from .reading import ImportFileError, parse_json

FORMAT = "mem0"
OPENMEMORY = "openmemory"


def _items(data):
    if isinstance(data, dict):
        for key in ("results", "memories"):
            if isinstance(data.get(key), list):
                return data[key]
        return None
    return data if isinstance(data, list) else None


def looks_like(data) -> bool:
    items = _items(data)
    if not items:
        return False
    sample = [m for m in items[:20] if isinstance(m, dict)]
    return bool(sample) and all(isinstance(m.get("memory"), str) for m in sample)


def looks_like_openmemory(data) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("memories"), list)
        and ("export_meta" in data or isinstance(data.get("user"), dict))
    )


def records(data) -> list:
    return [_record(item) if isinstance(item, dict) else item for item in _items(data)]


def _record(item: dict) -> dict:
    record = {"content": item.get("memory")}
    if isinstance(item.get("id"), (str, int)):
        record["id"] = str(item["id"])
    persona = item.get("user_id")
    if isinstance(persona, str) and persona.strip():
        record["persona_id"] = persona.strip()
    tags = []
    categories = item.get("categories")
    if isinstance(categories, list):
        tags += [str(c) for c in categories if c]
    for key in ("agent_id", "run_id", "app_id"):
        if isinstance(item.get(key), str) and item[key]:
            tags.append(f"{key[:-3]}:{item[key]}"[:100])
    record["tags"] = tags
    for ours, theirs in (("created_at", "created_at"), ("updated_at", "updated_at"), ("expires_at", "expiration_date")):
        if item.get(theirs) not in (None, ""):
            record[ours] = item[theirs]
    return record


# ---- OpenMemory -----------------------------------------------------------------------------
# An export of JSON text: 5-20x compression is normal, 1000x is a bomb.
ZIP_LIMITS = zipsafe.ZipLimits(entries=1000, entry_bytes=128 << 20, total_bytes=256 << 20, ratio=200)


def _refused(label: str):
    return lambda problem: ImportFileError(code="zip_refused", name=label, detail=problem)


def read_members(path, wanted) -> dict[str, bytes]:
    """{entry name: bytes} for the entries whose base name is in ``wanted``; nothing on disk."""
    path = Path(path)
    label = path.name
    if not zipfile.is_zipfile(path):
        raise ImportFileError(code="not_a_zip", name=label)
    try:
        with zipfile.ZipFile(path) as zf:
            return {
                info.filename: zipsafe.read_bounded(zf, info, _refused(label))
                for info in zipsafe.check_archive(zf, ZIP_LIMITS, _refused(label))
                if PurePosixPath(info.filename).name in wanted
            }
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, NotImplementedError) as exc:
        raise ImportFileError(code="zip_damaged", name=label, detail=str(exc)) from None


def gunzip(data: bytes, label: str) -> bytes:
    try:
        return zipsafe.gunzip(data, ZIP_LIMITS, _refused(label))
    except (OSError, EOFError) as exc:
        raise ImportFileError(code="gzip_damaged", name=label, detail=str(exc)) from None


def read_zip(path) -> object:
    """The parsed memories.json of an OpenMemory export, or its jsonl.gz as the same shape."""
    label = Path(path).name
    members = read_members(path, {"memories.json", "memories.jsonl.gz"})
    by_name = {Path(name).name: data for name, data in members.items()}
    if "memories.json" in by_name:
        return parse_json(_decode(by_name["memories.json"], label), label + ":memories.json")
    if "memories.jsonl.gz" in by_name:
        text = _decode(gunzip(by_name["memories.jsonl.gz"], label), label)
        lines = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    lines.append(json.loads(line))
                except json.JSONDecodeError:
                    lines.append({"_invalid": f"memories.jsonl.gz line {number}: not valid JSON"})
        return {"export_meta": {"from": "memories.jsonl.gz"}, "memories": lines}
    raise ImportFileError(code="zip_not_openmemory", name=label)


def _decode(raw: bytes, label: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFileError(code="zip_member_not_utf8", name=label, offset=exc.start) from None


def openmemory_records(data) -> list:
    user = data.get("user") if isinstance(data.get("user"), dict) else {}
    persona = user.get("user_id") if isinstance(user.get("user_id"), str) else None
    categories = {c.get("id"): c.get("name") for c in data.get("categories", []) if isinstance(c, dict)}
    apps = {a.get("id"): a.get("name") for a in data.get("apps", []) if isinstance(a, dict)}
    return [
        _openmemory_record(m, persona, categories, apps) if isinstance(m, dict) and "_invalid" not in m else m
        for m in data["memories"]
    ]


def _openmemory_record(item: dict, persona, categories: dict, apps: dict) -> dict:
    record = {"content": item.get("content")}
    if isinstance(item.get("id"), str):
        record["id"] = item["id"]
    if persona:
        record["persona_id"] = persona
    names = item.get("categories")  # jsonl.gz lines carry names
    if not isinstance(names, list):
        names = [categories.get(cid) for cid in item.get("category_ids") or [] if categories.get(cid)]
    tags = [str(n) for n in names if n]
    app = item.get("app") or apps.get(item.get("app_id"))
    if isinstance(app, str) and app:
        tags.append(f"app:{app}"[:100])
    state = item.get("state") or "active"
    if state in ("archived", "paused"):
        tags.append(state)
        common.note(record, f"OpenMemory state {state!r} kept as a tag")
    record["tags"] = tags
    for key in ("created_at", "updated_at"):
        if item.get(key):
            record[key] = item[key]
    if state == "deleted":
        record["deleted_at"] = item.get("deleted_at") or now_utc()
    return record
