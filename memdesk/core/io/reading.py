"""Reading an import file safely: size, encoding, BOM, nesting."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import MemDeskError

MAX_FILE_BYTES = 256 * 1024 * 1024


class ImportFileError(MemDeskError):
    """The whole file was refused; nothing was written."""


def check_file(path) -> int:
    """The file's size; ImportFileError if it is missing, a folder or too big."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImportFileError(f"cannot read {path}: {exc.strerror}") from None
    if path.is_dir():
        raise ImportFileError(f"{path} is a folder, not a file")
    if size > MAX_FILE_BYTES:
        raise ImportFileError(
            f"{path.name} is {size / 2**20:.0f} MB; files over {MAX_FILE_BYTES // 2**20} MB are refused"
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
            raise ImportFileError(f"{path.name} claims UTF-16 but is not valid UTF-16") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if legacy_encodings:
            try:
                return raw.decode("gb18030")
            except UnicodeDecodeError:
                pass
        raise ImportFileError(f"{path.name} is not UTF-8 text (bad byte at offset {exc.start})") from None


def parse_json(text: str, name: str = "file"):
    try:
        return json.loads(text)
    except RecursionError:
        raise ImportFileError(f"{name}: JSON nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise ImportFileError(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
