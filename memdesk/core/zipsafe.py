"""Reading members of an untrusted zip (and the gzip inside it) in memory.

Nothing is extracted to disk. The whole archive is refused, before any member
is read, when an entry's path could escape a folder (zip-slip), when it is
encrypted, or when the declared sizes or compression ratios look like a zip
bomb. Reads are bounded too, because declared sizes can lie.
"""
from __future__ import annotations

import gzip
import io
import zipfile
from pathlib import Path, PurePosixPath

from .reading import ImportFileError

MAX_MEMBERS = 1000
MAX_MEMBER_BYTES = 128 * 1024 * 1024
MAX_TOTAL_BYTES = 256 * 1024 * 1024
MAX_RATIO = 200  # JSON compresses 5–20×; bombs reach 1000× and more
RATIO_FLOOR = 1024 * 1024  # tiny members may compress absurdly well (runs of spaces)
_CHUNK = 1024 * 1024


def _unsafe(name: str) -> bool:
    if not name or "\x00" in name or "\\" in name:
        return True
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return True
    return any(part == ".." for part in PurePosixPath(name).parts)


def check_archive(zf: zipfile.ZipFile, label: str) -> list[zipfile.ZipInfo]:
    """The archive's file entries, or ImportFileError if any entry is unsafe."""
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ImportFileError(f"{label}: {len(infos)} entries; archives over {MAX_MEMBERS} are refused")
    total = 0
    for info in infos:
        if _unsafe(info.filename):
            raise ImportFileError(f"{label}: entry {info.filename[:80]!r} points outside the archive; "
                                  "the file was refused")
        if info.flag_bits & 0x1:
            raise ImportFileError(f"{label}: entry {info.filename[:80]!r} is encrypted")
        if info.file_size > MAX_MEMBER_BYTES:
            raise ImportFileError(f"{label}: entry {info.filename[:80]!r} unpacks to "
                                  f"{info.file_size / 2**20:.0f} MB; the limit is {MAX_MEMBER_BYTES // 2**20} MB")
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ImportFileError(f"{label}: entry {info.filename[:80]!r} is compressed "
                                  f"{info.file_size // max(info.compress_size, 1)}:1 — refused as a likely zip bomb")
        total += info.file_size
    if total > MAX_TOTAL_BYTES:
        raise ImportFileError(f"{label}: unpacks to {total / 2**20:.0f} MB; the limit is {MAX_TOTAL_BYTES // 2**20} MB")
    return [i for i in infos if not i.is_dir()]


def read_members(path, wanted) -> dict[str, bytes]:
    """{entry name: bytes} for the entries whose base name is in ``wanted``."""
    path = Path(path)
    label = path.name
    if not zipfile.is_zipfile(path):
        raise ImportFileError(f"{label} is not a zip archive")
    try:
        with zipfile.ZipFile(path) as zf:
            found = {}
            for info in check_archive(zf, label):
                if PurePosixPath(info.filename).name in wanted:
                    found[info.filename] = _bounded_read(zf.open(info), info.file_size, label, info.filename)
            return found
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, NotImplementedError) as exc:
        raise ImportFileError(f"{label}: damaged zip archive ({exc})") from None


def _bounded_read(stream, limit: int, label: str, name: str) -> bytes:
    """Read at most ``limit`` bytes; more means the header lied."""
    buf = io.BytesIO()
    with stream:
        while True:
            chunk = stream.read(_CHUNK)
            if not chunk:
                break
            buf.write(chunk)
            if buf.tell() > limit:
                raise ImportFileError(f"{label}: entry {name[:80]!r} is larger than its header says; refused")
    return buf.getvalue()


def gunzip(data: bytes, label: str, *, limit: int = MAX_MEMBER_BYTES) -> bytes:
    """Decompress gzip bytes with the same size and ratio limits as zip entries."""
    out = io.BytesIO()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz:
            while True:
                chunk = gz.read(_CHUNK)
                if not chunk:
                    break
                out.write(chunk)
                size = out.tell()
                if size > limit or (size > RATIO_FLOOR and size > MAX_RATIO * max(len(data), 1)):
                    raise ImportFileError(f"{label}: gzip data unpacks too far (over {size // 2**20} MB "
                                          f"from {len(data) // 1024} KB) — refused as a likely bomb")
    except (OSError, EOFError) as exc:
        raise ImportFileError(f"{label}: damaged gzip data ({exc})") from None
    return out.getvalue()
