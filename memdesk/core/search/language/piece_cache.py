"""Large tables derived from a data file, cached as small JSON pieces.

Parsing a big table in one call (marshal.load of jieba's dictionary, json.loads of the
1.7 MB thesaurus) holds the GIL for 50-150 ms, which freezes the window's UI thread
while a worker loads it. Cached as pieces (a data format: nothing in the file can run),
each is parsed with the GIL let go in between, so no step holds it for more than a few
milliseconds. The cache sits in the user's cache folder, named after the source file's
place, size and time, so a changed source is read afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

PIECES = 64
# A pause between pieces, for a UI thread waiting for the GIL: set by the window
# (gui.main.application); 0 where no thread waits on this one (the CLI, the MCP server).
UI_TURN_S = 0.0
_HEADER = struct.Struct("<dI")  # a number kept with the table, the piece count; then length-prefixed pieces


def cache_path(source: str | Path, name: str) -> Path:
    import platformdirs

    stat = os.stat(source)
    folder = Path(os.environ.get("MEMDESK_CACHE_DIR") or platformdirs.user_cache_dir("MemDesk", appauthor=False))
    where = hashlib.blake2b(str(Path(source).resolve()).encode("utf-8"), digest_size=4).hexdigest()
    return folder / f"{name}-{where}-{stat.st_size}-{int(stat.st_mtime)}-{PIECES}.json-pieces"


def read(path: Path, convert: Callable[[dict], dict] = lambda piece: piece) -> tuple[dict, float]:
    """(table, its number); ``convert`` turns each parsed piece into the table's values.
    Raises OSError or ValueError when the file is missing or damaged."""
    data = path.read_bytes()  # file reads let go of the GIL
    # The UI thread's turn between pieces, read on a worker thread of the window: sleep(0)
    # gives the GIL back before that thread has woken. Not in a process's main thread (the
    # UI thread itself, an import's worker processes), nor without a UI thread.
    pause = UI_TURN_S if UI_TURN_S > 0 and threading.current_thread() is not threading.main_thread() else 0.0
    try:
        number, count = _HEADER.unpack_from(data, 0)
        offset, table = _HEADER.size, {}
        for _ in range(count):
            (size,) = struct.unpack_from("<I", data, offset)
            offset += 4
            piece = json.loads(data[offset : offset + size])
            if not isinstance(piece, dict):
                raise ValueError("not a table piece")
            table.update(convert(piece))
            offset += size
            if pause:
                time.sleep(pause)
    except struct.error as exc:
        raise ValueError(f"damaged cache: {exc}") from None
    return table, number


def write(path: Path, table: dict, number: float = 0.0) -> None:
    """Best effort: a cache that cannot be written only costs the next start the stall."""
    items = list(table.items())
    step = max(1, -(-len(items) // PIECES))
    blobs = [
        json.dumps(dict(items[i : i + step]), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        for i in range(0, len(items), step)
    ]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=str(path.parent))
        with os.fdopen(fd, "wb") as handle:
            handle.write(_HEADER.pack(number, len(blobs)))
            for blob in blobs:
                handle.write(struct.pack("<I", len(blob)) + blob)
        os.replace(temp, path)
    except OSError:
        pass


def cached(source: str | Path, name: str, make: Callable[[], dict], convert=lambda table: table, valid=bool) -> dict:
    """The table ``make()`` works out from ``source``, kept in the user's cache as pieces: read
    back (each piece through ``convert``) when the cache holds one that ``valid`` accepts,
    else made, written and converted. A damaged cache is made again."""
    try:
        path: Path | None = cache_path(source, name)
    except OSError:
        path = None
    if path is not None and path.is_file():
        try:
            table = read(path, convert)[0]
            if valid(table):
                return table
        except (OSError, ValueError, AttributeError):
            pass  # damaged: made again below
    made = make()
    if path is not None and made:
        write(path, made)
    return convert(made)
