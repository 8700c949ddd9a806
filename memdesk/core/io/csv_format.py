"""CSV with a header row, in and out.

Columns are matched by name, case- and punctuation-blind, with the common
aliases (content/memory/text, group/category, createdAt, 内容 ...). Unknown
columns are ignored and listed in the plan's notes. The delimiter (, ; tab)
is sniffed. Spreadsheet apps run cells that start with = + - @ as formulas,
so the export quotes those with a leading apostrophe and the import removes it.
"""

from __future__ import annotations

import csv
import io
import re

from memdesk.core.domain.times import to_iso

from . import common
from .reading import FileContentError

FORMAT = "csv"
ALIASES = {
    "id": ("id", "memory_id", "uuid"),
    "content": ("content", "memory", "text", "body", "note", "内容", "记忆", "正文"),
    "title": ("title", "标题"),
    "summary": ("summary", "摘要"),
    "tags": ("tags", "tag", "labels", "categories", "标签"),
    "group": ("group", "category", "folder", "group_name", "分组", "类别", "分类"),
    "type": ("type", "memory_type", "kind", "类型"),
    "scope": ("scope", "范围"),
    "importance": ("importance", "priority", "重要性", "重要度"),
    "persona_id": ("persona", "persona_id", "personaid", "persona_name", "user_id", "人格"),
    "created_at": ("created_at", "createdat", "created", "date", "timestamp", "创建时间"),
    "updated_at": ("updated_at", "updatedat", "updated", "modified", "更新时间"),
    "expires_at": ("expires_at", "expiresat", "expires", "过期时间"),
    "deleted_at": ("deleted_at", "deletedat", "deleted"),
    "dedup_key": ("dedup_key", "dedupkey"),
}
_LOOKUP = {re.sub(r"[\s_\-]", "", alias.lower()): field for field, names in ALIASES.items() for alias in names}
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
COLUMNS = (
    "id",
    "persona",
    "group",
    "title",
    "content",
    "tags",
    "type",
    "scope",
    "importance",
    "created_at",
    "updated_at",
    "expires_at",
    "deleted_at",
)


def column_field(name: str) -> str | None:
    return _LOOKUP.get(re.sub(r"[\s_\-]", "", name.strip().lower()))


def looks_like(text: str) -> bool:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    cells = re.split(r"[,;\t]", first)
    return len(cells) >= 1 and any(column_field(c.strip().strip('"')) == "content" for c in cells)


def _dialects(text: str):
    try:
        yield csv.Sniffer().sniff(text[:8192], delimiters=",;\t")
    except csv.Error:
        pass
    for delimiter in (",", "\t", ";"):
        yield type("Plain", (csv.excel,), {"delimiter": delimiter})


def _open(text: str):
    """A reader and the header's fields, trying the sniffed dialect first."""
    for dialect in _dialects(text):
        reader = csv.reader(io.StringIO(text, newline=""), dialect)  # "" keeps quoted line breaks
        try:
            header = next(reader, None)
        except csv.Error as exc:
            raise FileContentError("csv_header_unreadable", detail=str(exc)) from None
        if not header:
            raise FileContentError("csv_empty")
        fields = [column_field(name) for name in header]
        if "content" in fields:
            return reader, header, fields
    raise FileContentError("csv_no_content_column")


def parse(text: str) -> tuple[list[dict], list[str]]:
    """(records, notes). Raises FileContentError when no column holds the content."""
    reader, header, fields = _open(text)
    notes = []
    ignored = [name for name, field in zip(header, fields) if field is None and name.strip()]
    if ignored:
        notes.append("columns ignored: " + ", ".join(ignored[:20]))
    out: list = []
    try:
        _read_rows(reader, header, fields, out)
    except csv.Error as exc:
        raise FileContentError("csv_row_unreadable", row=len(out) + 2, detail=str(exc)) from None
    return out, notes


def _read_rows(reader, header, fields, out: list) -> None:
    for line, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            out.append({"_invalid": f"row {line}: {len(row)} cells but the header has {len(header)}"})
            continue
        record: dict = {}
        for field, cell in zip(fields, row):
            if field and cell.strip() and field not in record:
                record[field] = _unquote(cell)
        _convert(record)
        out.append(record)


def _unquote(cell: str) -> str:
    if cell.startswith("'") and cell[1:2] in _FORMULA:
        return cell[1:]
    return cell


def _convert(record: dict) -> None:
    if "tags" in record:
        record["tags"] = common.tags_from(record["tags"])
    if "type" in record:
        kind, extra, text = common.type_from(record["type"])
        record["type"] = kind
        common.add_tags(record, extra)
        common.note(record, text)
    if "scope" in record:
        record["scope"], text = common.scope_from(record["scope"])
        common.note(record, text)
    if "importance" in record:
        value, text = common.importance_from(record.pop("importance"))
        if value is not None:
            record["importance"] = value
        common.note(record, text)
    if "content" not in record:
        record["content"] = ""  # validation reports the blank content


def _cell(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA) else text


def render(memories, persona_names: dict) -> str:
    """CSV text (write it with a BOM so spreadsheet apps read it as UTF-8)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for m in memories:
        writer.writerow(
            [
                _cell(v)
                for v in (
                    m.id,
                    persona_names.get(m.persona_id, m.persona_id) if m.persona_id else "",
                    m.group,
                    m.title,
                    m.content,
                    ",".join(m.tags),
                    m.type,
                    m.scope,
                    m.importance,
                    to_iso(m.created_at),
                    to_iso(m.updated_at),
                    to_iso(m.expires_at),
                    to_iso(m.deleted_at),
                )
            ]
        )
    return buf.getvalue()
