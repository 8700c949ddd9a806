"""Untrusted zip archives (an import file, a model to install) and the gzip inside one.

The one home of the safety checks: the whole archive is refused, before any entry is read,
when an entry's path could escape a folder (zip-slip), when it is a symbolic link or
encrypted, or when the declared sizes or compression ratios look like a bomb. Reads and
copies are bounded too, because declared sizes can lie. Each caller brings its own limits
(ZipLimits: small JSON imports and large model files differ by orders of magnitude) and its
own error, through ``fail``: problem text -> the exception to raise.
"""

from __future__ import annotations

import gzip
import io
import stat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import BinaryIO

Fail = Callable[[str], Exception]
_CHUNK = 1 << 20


@dataclass(frozen=True)
class ZipLimits:
    entries: int
    total_bytes: int
    ratio: int  # an entry that inflates more than this many-fold is a bomb
    entry_bytes: int | None = None  # None: only the total counts
    ratio_floor: int = 1 << 20  # tiny entries may compress absurdly well (runs of spaces)


def entry_problem(info: zipfile.ZipInfo, limits: ZipLimits) -> str:
    """Why this entry makes the archive unsafe, or ''."""
    name = info.filename.replace("\\", "/")
    shown = repr(info.filename[:80])
    if not name or "\0" in name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return f"entry {shown} has an absolute path"
    if ".." in PurePosixPath(name).parts:
        return f"entry {shown} points outside the archive"
    if stat.S_ISLNK(info.external_attr >> 16):
        return f"entry {shown} is a symbolic link"
    if info.flag_bits & 0x1:
        return f"entry {shown} is encrypted"
    if limits.entry_bytes is not None and info.file_size > limits.entry_bytes:
        return (
            f"entry {shown} unpacks to {info.file_size / 2**20:.0f} MB; the limit is {limits.entry_bytes // 2**20} MB"
        )
    if info.file_size > limits.ratio_floor and info.file_size > limits.ratio * max(info.compress_size, 1):
        return (
            f"entry {shown} would inflate {info.compress_size} bytes to {info.file_size}: "
            "a likely zip bomb (decompression bomb)"
        )
    return ""


def check_archive(zf: zipfile.ZipFile, limits: ZipLimits, fail: Fail) -> list[zipfile.ZipInfo]:
    """The archive's file entries, or ``fail(problem)`` raised if any entry is unsafe."""
    infos = zf.infolist()
    if len(infos) > limits.entries:
        raise fail(f"{len(infos)} entries; archives over {limits.entries} are refused")
    for info in infos:
        problem = entry_problem(info, limits)
        if problem:
            raise fail(problem)
    total = sum(i.file_size for i in infos)
    if total > limits.total_bytes:
        raise fail(f"it unpacks to {total / 2**20:.0f} MB; the limit is {limits.total_bytes // 2**20} MB")
    return [i for i in infos if not i.is_dir()]


def copy_bounded(zf: zipfile.ZipFile, info: zipfile.ZipInfo, out: BinaryIO, fail: Fail) -> None:
    """Copy one entry's bytes to ``out``, trusting the bytes counted rather than its header."""
    written = 0
    with zf.open(info) as src:
        while chunk := src.read(_CHUNK):
            written += len(chunk)
            if written > info.file_size:
                raise fail(f"entry {info.filename[:80]!r} is larger than its header says")
            out.write(chunk)


def read_bounded(zf: zipfile.ZipFile, info: zipfile.ZipInfo, fail: Fail) -> bytes:
    buf = io.BytesIO()
    copy_bounded(zf, info, buf, fail)
    return buf.getvalue()


def gunzip(data: bytes, limits: ZipLimits, fail: Fail) -> bytes:
    """Decompress gzip bytes with the same size and ratio limits as zip entries."""
    out = io.BytesIO()
    limit = limits.entry_bytes if limits.entry_bytes is not None else limits.total_bytes
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz:
        while chunk := gz.read(_CHUNK):
            out.write(chunk)
            size = out.tell()
            if size > limit or (size > limits.ratio_floor and size > limits.ratio * max(len(data), 1)):
                raise fail(
                    f"gzip data unpacks too far (over {size // 2**20} MB from {len(data) // 1024} KB) "
                    "— refused as a likely bomb"
                )
    return out.getvalue()
