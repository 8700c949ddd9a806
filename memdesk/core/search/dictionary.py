"""Loading jieba's dictionary without stalling the window.

jieba reads its prefix dictionary (~600k entries) with one marshal.load:
one C call that holds the GIL for 50-150 ms, which freezes the window's UI
thread while a worker loads it. Here the same dictionary is cached as small
JSON pieces (a data format: nothing in the file can run), parsed one at a
time with the GIL let go in between, so no step holds it for more than a few
milliseconds. The first load in a user's life goes through jieba's own path
and writes this cache.
"""

from __future__ import annotations

import json
import logging
import os
import struct
import tempfile
import time
from pathlib import Path

PIECES = 64
_HEADER = struct.Struct("<dI")  # total, piece count; then a length-prefixed JSON object per piece


def _cache_path(dict_file: str) -> Path:
    import platformdirs

    stat = os.stat(dict_file)
    folder = Path(os.environ.get("MEMDESK_CACHE_DIR") or platformdirs.user_cache_dir("MemDesk", appauthor=False))
    return folder / f"jieba-{stat.st_size}-{int(stat.st_mtime)}-{PIECES}.json-pieces"


def _read(path: Path) -> tuple[dict, float]:
    data = path.read_bytes()  # file reads let go of the GIL
    total, count = _HEADER.unpack_from(data, 0)
    offset, freq = _HEADER.size, {}
    for _ in range(count):
        (size,) = struct.unpack_from("<I", data, offset)
        offset += 4
        piece = json.loads(data[offset : offset + size])
        if not isinstance(piece, dict):
            raise ValueError("not a dictionary piece")
        freq.update(piece)
        offset += size
        time.sleep(0)  # let the UI thread run between pieces
    return freq, total


def _write(path: Path, freq: dict, total: float) -> None:
    items = list(freq.items())
    step = -(-len(items) // PIECES)
    blobs = [
        json.dumps(dict(items[i : i + step]), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        for i in range(0, len(items), step)
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=str(path.parent))
    with os.fdopen(fd, "wb") as handle:
        handle.write(_HEADER.pack(total, len(blobs)))
        for blob in blobs:
            handle.write(struct.pack("<I", len(blob)) + blob)
    os.replace(temp, path)


def _import_jieba():
    """jieba imports pkg_resources only to open its own data files, which costs a
    fresh process ~0.3 s; without it jieba opens them by path (its own fallback)."""
    import sys

    if "jieba" in sys.modules:
        return sys.modules["jieba"]
    block = "pkg_resources" not in sys.modules
    if block:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # makes the import fail
    try:
        import jieba
    finally:
        if block:
            del sys.modules["pkg_resources"]
    return jieba


def segmenter():
    """A fresh jieba.Tokenizer with the default dictionary loaded."""
    jieba = _import_jieba()
    jieba.setLogLevel(logging.WARNING)
    seg = jieba.Tokenizer()
    try:
        path = _cache_path(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"))
    except OSError:
        path = None
    if path is not None and path.is_file():
        try:
            seg.FREQ, seg.total = _read(path)
            seg.initialized = True
            return seg
        except (OSError, ValueError, EOFError, struct.error):
            pass  # damaged: rebuilt below
    seg.initialize()
    if path is not None:
        try:
            _write(path, seg.FREQ, seg.total)
        except OSError:
            pass  # a read-only cache folder only costs the stall
    return seg


def pos_tagger(segmenter=None):
    """jieba.posseg's tagger over ``segmenter``'s dictionary (a Tokenizer's loaded one), or
    over jieba's default dictionary when None. Its word tags are read once (~0.2 s) and
    shared: borrowing a loaded dictionary saves loading jieba's default a second time
    (~0.5 s and ~50 MB)."""
    _import_jieba()
    import jieba.posseg as pseg  # reads the word tags of jieba's dict.txt once, into pseg.dt

    if segmenter is None:
        return pseg.dt
    tagger = pseg.POSTokenizer.__new__(pseg.POSTokenizer)  # its __init__ would read the tags again
    tagger.tokenizer, tagger.word_tag_tab = segmenter, pseg.dt.word_tag_tab
    return tagger
