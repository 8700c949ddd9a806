"""Export: what to write (everything, a persona, a group, or given ids) and how.

Formats: native (MemDesk JSON, lossless), seed000 ({"memories": [...]} in
seed 000's camelCase with epoch-ms times), markdown (grouped by persona and
group) and csv (UTF-8 with a BOM so spreadsheet apps read Chinese right).
Files are written to a temporary file beside the target and renamed over it,
so a crash never leaves a half-written export.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.views.queries import ALL

from . import csv_format, markdown, native, seed000

EXPORT_FORMATS = ("native", "seed000", "markdown", "csv")
SUFFIXES = {"native": ".json", "seed000": ".json", "markdown": ".md", "csv": ".csv"}


@dataclass(frozen=True)
class ExportResult:
    format: str
    path: Path | None
    count: int


def select(store, *, persona=ALL, group=None, ids=None, state="active", merge_global=True) -> list:
    """The memories to export. ``ids`` (the current search) keeps its order;
    ``persona`` is a persona id (its memories plus global ones), "" for global only."""
    if ids is not None:
        found = store.get_many(ids)
        records = [found[i] for i in dict.fromkeys(ids) if i in found]
        if state == "active":
            records = [r for r in records if r.is_active()]
        return records
    return store.list(
        persona=persona, merge_global=merge_global, group=group, state=state, sort="created_at", descending=False
    )


def render(store, memories, format: str, *, all_personas: bool = False) -> tuple[str, str]:
    """(text, encoding) of ``memories`` in ``format``; ``all_personas`` (native) also
    carries personas that hold none of them."""
    if format not in EXPORT_FORMATS:
        raise MemDeskError(code="unknown_export_format", format=format, formats=", ".join(EXPORT_FORMATS))
    if format == "native":
        data = native.build(store, memories, all_personas=all_personas)
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n", "utf-8"
    if format == "seed000":
        return json.dumps(seed000.build(memories), ensure_ascii=False, indent=2) + "\n", "utf-8"
    names = {p.id: p.name for p in store.personas()}
    if format == "markdown":
        return markdown.render(memories, names, title="MemDesk 记忆导出"), "utf-8"
    return csv_format.render(memories, names), "utf-8-sig"


def export_text(
    store, *, format: str = "native", persona=ALL, group=None, ids=None, state=None, merge_global=True
) -> tuple[str, int]:
    """(text, number of memories). State defaults to everything for native, active otherwise."""
    state = state or ("all" if format == "native" else "active")
    memories = select(store, persona=persona, group=group, ids=ids, state=state, merge_global=merge_global)
    whole = persona is ALL and group is None and ids is None
    text, _ = render(store, memories, format, all_personas=whole)
    return text, len(memories)


def export_file(
    store, path, *, format: str = "native", persona=ALL, group=None, ids=None, state=None, merge_global=True
) -> ExportResult:
    text, count = export_text(
        store, format=format, persona=persona, group=group, ids=ids, state=state, merge_global=merge_global
    )
    encoding = "utf-8-sig" if format == "csv" else "utf-8"
    write_atomic(path, text, encoding=encoding)
    return ExportResult(format, Path(path), count)


def write_atomic(path, text: str, *, encoding: str = "utf-8") -> None:
    """Write to a temporary file in the same folder, flush it to disk, rename it over ``path``."""
    target = Path(path)
    if target.is_dir():
        raise MemDeskError(code="export_to_folder", path=str(target))
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise MemDeskError(code="no_folder", path=str(folder))
    handle, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding=encoding, newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
