"""Asking the OS to read a store file into its page cache ahead of the searches.

A window opened on a store the OS has not read since boot (or since a big job
pushed it out) met every search term's pages on disk: typing at 100k memories
was 39-40 ms a keystroke (p95, bench/gui_speed.py after dropping the OS caches)
where it is 22-25 once the file is cached, and 22-25 with this read-ahead. A
window reads much of its store anyway, so it asks once, after start-up, that
the whole file be read ahead (posix_fadvise WILLNEED: the kernel's readahead,
no copy in this process and no interpreter lock held while it runs). A file
larger than a share of the memory the system has available is left alone: it
would push out what others need, and the first searches read what they use.
Only where the OS offers it (Linux); elsewhere nothing is done.

The descriptor it reads through stays open for the life of the process: closing
any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
among them, and a store whose locks are gone has its WAL checkpointed and deleted
under it by the next process that closes a connection (the corruption SQLite's
"how to corrupt" page warns of). Only the database file is read ahead: its WAL is
small, lately written (so cached) and deleted and made anew, which a descriptor
held open would keep on disk.
"""

from __future__ import annotations

import os
from pathlib import Path

SHARE = 0.25  # of the memory available, at most, for one store file
CHUNK = 1 << 20
_held: dict[Path, int] = {}  # never closed while the process lives: see above


def available_bytes() -> int | None:
    """MemAvailable from /proc/meminfo; None where there is none."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def descriptor(path: Path) -> int | None:
    """This process's read-only descriptor of ``path``: opened once and kept (see above),
    opened anew when the file was replaced. None when it cannot be opened."""
    try:
        found = path.stat()
    except OSError:
        return None
    key = path.resolve()
    fd = _held.get(key)
    if fd is not None and os.fstat(fd).st_ino != found.st_ino:
        # The file was replaced (a damaged file restored from a backup, which no connection
        # could hold): nothing in this process holds a lock on the old one, so its descriptor may go.
        os.close(_held.pop(key))
        fd = None
    if fd is None:
        try:
            fd = _held[key] = os.open(key, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
    return fd


def prefetch(path: Path | None, *, share: float = SHARE) -> bool:
    """Ask for the store file ``path`` to be read into the page cache; True if asked."""
    advise = getattr(os, "posix_fadvise", None)
    if path is None or advise is None:
        return False
    available = available_bytes()
    try:
        size = path.stat().st_size
    except OSError:
        return False
    fd = None if available is None or size > available * share else descriptor(path)
    if fd is None:
        return False
    # In steps: a kernel may read ahead only its readahead window per call (8 MB
    # here, 128 KB by default), however long the range asked for.
    for offset in range(0, os.fstat(fd).st_size, CHUNK):
        advise(fd, offset, CHUNK, os.POSIX_FADV_WILLNEED)
    return True
