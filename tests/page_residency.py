"""How much of a file the OS page cache holds, and dropping it from there (Linux).

Both work through page_cache's own descriptor of the file, never closed while
the process lives, and map with libc rather than the mmap module (which
duplicates a descriptor and closes it): closing any descriptor of a store file
would drop the SQLite locks a window under test holds on it.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import sys
from pathlib import Path

from memdesk.core.storage.page_cache import descriptor

SUPPORTED = sys.platform == "linux" and hasattr(os, "posix_fadvise")


def _fd(path) -> int:
    fd = descriptor(Path(path))
    assert fd is not None, f"cannot open {path}"
    # Measured through the file now at ``path``, not one it replaced that page_cache still reads.
    assert os.fstat(fd).st_ino == os.stat(path).st_ino, f"page_cache holds a replaced {path}"
    return fd


def _libc():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    return libc


def resident(path) -> float:
    """The share of the file's pages in the page cache (mincore over a read-only mapping)."""
    libc = _libc()
    fd = _fd(path)
    size = os.fstat(fd).st_size
    pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
    address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    assert address not in (None, ctypes.c_void_p(-1).value), os.strerror(ctypes.get_errno())
    try:
        vec = (ctypes.c_ubyte * pages)()
        assert libc.mincore(address, size, vec) == 0, os.strerror(ctypes.get_errno())
        return sum(v & 1 for v in vec) / pages
    finally:
        libc.munmap(address, size)


def evict(path) -> None:
    """Drop the file's (clean) pages from the page cache."""
    fd = _fd(path)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
