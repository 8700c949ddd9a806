"""What an import file is, and its records in store field names.

Detection goes by content, not by name: SQLite and zip by their magic bytes,
then JSON shapes from the most specific to the most general, then JSON Lines,
CSV and Markdown. A file given an explicit format that it does not match is
refused with ImportFileError, and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import blockcell, csv_format, markdown, mcp_graph, mcp_memory_service, mem0, native, seed000
from .reading import FileContentError, ImportFileError, check_file, parse_json, read_text

FORMATS = (
    "auto",
    native.FORMAT,
    "seed000",
    blockcell.FORMAT,
    markdown.FORMAT,
    csv_format.FORMAT,
    mcp_graph.FORMAT,
    mcp_memory_service.FORMAT,
    mem0.FORMAT,
    mem0.OPENMEMORY,
)
_ZIP_MAGIC = b"PK\x03\x04"
_TEXT_SUFFIXES = {".csv", ".tsv", ".md", ".markdown", ".txt"}
_EXPECTED = (
    'MemDesk JSON, a {"memories": [...]} list, blockcell memory.db, MEMORY.md Markdown, CSV '
    "with a header row, the MCP memory server's JSON Lines, an mcp-memory-service or mem0 export, "
    "or an OpenMemory zip"
)


@dataclass
class Source:
    format: str
    records: list  # dicts in store field names (plus _note/_invalid/revisions), or junk planned as invalid
    personas: list = field(default_factory=list)  # MemDesk JSON's persona objects
    notes: list = field(default_factory=list)  # about the whole file


def _json_format(data) -> str | None:
    """The JSON shape, most specific first (several use {"memories": [...]})."""
    if native.is_native(data):
        return native.FORMAT
    if mem0.looks_like_openmemory(data):
        return mem0.OPENMEMORY
    if mcp_memory_service.looks_like(data):
        return mcp_memory_service.FORMAT
    if mem0.looks_like(data):
        return mem0.FORMAT
    if mcp_graph.looks_like_graph(data) or _graph_list(data):
        return mcp_graph.FORMAT
    if seed000.looks_like(data):
        return "seed000"
    return None


def _graph_list(data) -> bool:
    """A list of entity/relation objects, or a one-line JSONL file (which parses as one object)."""
    first = data[0] if isinstance(data, list) and data else data
    return isinstance(first, dict) and first.get("type") in ("entity", "relation")


def from_data(data, format: str = "auto", name: str = "file") -> Source:
    """Records of already-parsed JSON data."""
    detected = _json_format(data)
    if format == "auto":
        if detected is None:
            raise ImportFileError(code="file_unrecognised", name="", expected=_EXPECTED)
        format = detected
    elif format not in FORMATS:
        raise ImportFileError(code="unknown_format", format=format, formats=", ".join(FORMATS))
    try:
        if format == native.FORMAT:
            personas, records = native.records(data)
            return Source(format, records, personas)
        checks = {
            mem0.OPENMEMORY: mem0.looks_like_openmemory,
            mcp_memory_service.FORMAT: mcp_memory_service.looks_like,
            mem0.FORMAT: mem0.looks_like,
            "seed000": seed000.looks_like,
            mcp_graph.FORMAT: lambda d: mcp_graph.looks_like_graph(d) or _graph_list(d),
        }
        if format not in checks:
            raise ImportFileError(code="format_not_json", name=name, format=format)
        if not checks[format](data):
            raise ImportFileError(code="not_that_format", name=name, format=format, detected=detected or "")
        if format == mem0.OPENMEMORY:
            return Source(format, mem0.openmemory_records(data))
        if format == mcp_memory_service.FORMAT:
            return Source(format, mcp_memory_service.records(data))
        if format == mem0.FORMAT:
            return Source(format, mem0.records(data))
        if format == mcp_graph.FORMAT:
            return Source(format, mcp_graph.records([data] if "type" in data else data))
        return Source(format, seed000.records(data))
    except (ValueError, AttributeError, TypeError) as exc:
        raise _content_error(exc, name) from None


def _content_error(exc: Exception, name: str) -> ImportFileError:
    if isinstance(exc, FileContentError):
        return ImportFileError(code=exc.code, name=name, **exc.params)
    return ImportFileError(code="file_content_invalid", name=name, detail=str(exc))


def _head(path: Path) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(16)
    except OSError as exc:
        raise ImportFileError(code="file_unreadable", path=str(path), detail=exc.strerror) from None


def read_file(path, format: str = "auto") -> Source:
    """Read and convert an import file (writes nothing)."""
    path = Path(path)
    if format not in FORMATS:
        raise ImportFileError(code="unknown_format", format=format, formats=", ".join(FORMATS))
    check_file(path)
    head = _head(path)
    if format == blockcell.FORMAT or (format == "auto" and head == blockcell.SQLITE_MAGIC):
        return Source(blockcell.FORMAT, blockcell.read(path))
    if head.startswith(_ZIP_MAGIC):
        if format not in ("auto", mem0.OPENMEMORY):
            raise ImportFileError(code="zip_not_that_format", name=path.name, format=format)
        return from_data(mem0.read_zip(path), mem0.OPENMEMORY, path.name)
    if format == mem0.OPENMEMORY and path.suffix.lower() == ".zip":
        raise ImportFileError(code="not_a_zip", name=path.name)
    lenient = path.suffix.lower() in _TEXT_SUFFIXES or format in (markdown.FORMAT, csv_format.FORMAT)
    text = read_text(path, legacy_encodings=lenient)
    if "\x00" in text[:65536]:
        raise ImportFileError(code="binary_file", name=path.name, expected=_EXPECTED)
    if format == markdown.FORMAT:
        return _markdown(text, path)
    if format == csv_format.FORMAT:
        return _csv(text, path)
    try:
        data = parse_json(text, path.name)
    except ImportFileError as json_error:
        if format in ("auto", mcp_graph.FORMAT) and mcp_graph.looks_like_lines(text):
            return Source(mcp_graph.FORMAT, mcp_graph.parse_lines(text, path.name))
        if format != "auto" or text.lstrip()[:1] in ("{", "[") or path.suffix.lower() in (".json", ".jsonl"):
            raise json_error
        if path.suffix.lower() in (".csv", ".tsv") or csv_format.looks_like(text):
            return _csv(text, path)
        if path.suffix.lower() in (".md", ".markdown", ".txt") or markdown.looks_like(text):
            return _markdown(text, path)
        raise ImportFileError(code="file_unrecognised", name=path.name, expected=_EXPECTED) from None
    return from_data(data, format, path.name)


def _markdown(text: str, path: Path) -> Source:
    records = markdown.parse(text, path.stem)
    if not records:
        raise ImportFileError(code="markdown_empty", name=path.name)
    return Source(markdown.FORMAT, records)


def _csv(text: str, path: Path) -> Source:
    try:
        records, notes = csv_format.parse(text)
    except ValueError as exc:
        raise _content_error(exc, path.name) from None
    return Source(csv_format.FORMAT, records, notes=notes)
