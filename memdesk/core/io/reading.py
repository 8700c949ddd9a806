"""Reading an import file safely: size, encoding, BOM, nesting."""

from __future__ import annotations

import json
from pathlib import Path

from memdesk.core.domain.errors import MemDeskError

MAX_FILE_BYTES = 256 * 1024 * 1024


class ImportFileError(MemDeskError):
    """The whole file was refused; nothing was written."""


class FileContentError(ValueError):
    """A reader's refusal of a file's content, said by ``code`` and ``params``; the caller, who
    knows the file's name, raises it as the ImportFileError ``code`` with ``name`` added."""

    def __init__(self, code: str, **params):
        self.code, self.params = code, params
        super().__init__(code)


def check_file(path) -> int:
    """The file's size; ImportFileError if it is missing, a folder or too big."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImportFileError(code="file_unreadable", path=str(path), detail=exc.strerror) from None
    if path.is_dir():
        raise ImportFileError(code="file_is_folder", path=str(path))
    if size > MAX_FILE_BYTES:
        raise ImportFileError(
            code="file_too_large", name=path.name, mb=round(size / 2**20), limit=MAX_FILE_BYTES // 2**20
        )
    return size


def read_text(path, *, legacy_encodings: bool = False) -> str:
    """The file as text: UTF-8 (BOM or not) or UTF-16 with a BOM.

    ``legacy_encodings`` also accepts GB 18030 (GBK), which Excel and Notepad
    on Chinese Windows write for CSV and text files.
    """
    path = Path(path)
    check_file(path)
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise ImportFileError(code="file_not_utf16", name=path.name) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if legacy_encodings:
            try:
                return raw.decode("gb18030")
            except UnicodeDecodeError:
                pass
        raise ImportFileError(code="file_not_utf8", name=path.name, offset=exc.start) from None


def parse_json(text: str, name: str = "file"):
    try:
        return json.loads(text)
    except RecursionError:
        raise ImportFileError(code="json_too_deep", name=name) from None
    except json.JSONDecodeError as exc:
        raise ImportFileError(
            code="json_invalid", name=name, line=exc.lineno, column=exc.colno, detail=exc.msg
        ) from None
