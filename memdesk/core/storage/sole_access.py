"""A SQLite store file for one connection alone, refused while any process has it open.

Restoring a backup replaces what a store holds. It used to rename a copy over the file and
delete its -wal and -shm: a window, an MCP server or any other open Store kept writing into
the old, unlinked file and its WAL, so what it saved afterwards was shown but never reached
the store, and the next process to close a connection could checkpoint into (and delete)
the new file's WAL by name. Two designs could prevent that:

- every open process notices the replaced file and reopens before its next read or write;
- the restore refuses while anyone has the store open.

The first needs each Store to check the file before every statement and to reopen every
thread's connection (peewee keeps one per thread, which only that thread can close), and
it still leaves a window between the check and the commit in which a write lands in the
old file: lost. Caches that follow the change feed (the window's tree, the engine) would
also have to start again from a feed that ran backwards. So restore refuses instead
(``sole_connection``): it opens the file in SQLite's exclusive locking mode and takes
the write lock. In WAL mode every connection that has read the file keeps a shared lock on
it until it is closed (the window's, a server's, another Store's in this very process:
SQLite tracks its own connections per file), so the lock is granted only when no one
else has the store open, and from then on nobody can open it until the restore is done
(a Store opened meanwhile waits at its first read, then sees the restored file). The
backup is then copied *into* that connection with SQLite's backup API: one transaction on
the same file, whole or not at all after a crash, no file renamed or deleted. The safety
copy of the current contents is taken through the same connection first, so no write
falls between it and the restore.

When refused, ``holders`` names the processes it can (Linux: those with the file's -shm
open, every WAL connection keeps it; the window and an MCP server by name). Everywhere
else the message says only that another program has it open.

The probing connection is SQLite's own: closing it leaves the other connections' POSIX
locks in this process alone (SQLite defers closing a descriptor while others of the same
file hold locks), which a plain os.open/os.close here would drop (see page_cache.py).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memdesk.core.domain.errors import CorruptDatabaseError, StoreInUseError

WAIT_S = 2.0  # for a command that is finishing a write (a CLI add) to let go; a window never does
_PROC = Path("/proc")
_MEMDESK = ("memdesk", "memdesk.exe", "memdesk.cli", "memdesk.__main__")  # the program, or python -m


@contextmanager
def sole_connection(path: Path, *, wait_s: float | None = None) -> Iterator[sqlite3.Connection]:
    """A connection holding ``path`` exclusively until the block ends; StoreInUseError (nothing
    changed) when another connection, of any process, has it open; CorruptDatabaseError when
    SQLite cannot read it. Creates ``path`` if missing."""
    conn = sqlite3.connect(str(path), timeout=WAIT_S if wait_s is None else wait_s, isolation_level=None)
    try:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        try:
            # A write transaction takes the exclusive lock; in this mode it is kept after COMMIT.
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
            raise StoreInUseError(str(path), holders(path)) from None
        except sqlite3.DatabaseError as exc:  # not a database, or damaged: SQLite cannot hold it
            raise CorruptDatabaseError(code="store_unreadable", path=str(path), detail=str(exc)) from exc
        yield conn
    finally:
        conn.close()


def holders(path: Path) -> list[str]:
    """The processes with a connection to the store ``path``, described ("an MCP server (pid
    42)"); only where /proc tells (Linux), and only processes this user may look into."""
    if not _PROC.is_dir():
        return []
    shm = os.path.realpath(str(path) + "-shm")
    found = []
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fds = os.listdir(entry / "fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(entry / "fd" / fd)
            except OSError:
                continue
            if target == shm:
                found.append(describe(int(entry.name)))
                break
    return sorted(found)


def describe(pid: int) -> str:
    """A process in words: this one, MemDesk's window, an MCP server, or its command line."""
    if pid == os.getpid():
        return f"this process (pid {pid})"
    try:
        argv = [a for a in (_PROC / str(pid) / "cmdline").read_bytes().decode(errors="replace").split("\0") if a]
    except OSError:
        return f"pid {pid}"
    words = [os.path.basename(a) for a in argv]
    at = next((i for i, w in enumerate(words) if w in _MEMDESK), None)
    if at is not None:
        rest = words[at + 1 :]
        if "mcp" in rest:
            return f"an MCP server (pid {pid})"
        commands = [w for i, w in enumerate(rest) if not w.startswith("-") and (i == 0 or rest[i - 1] != "--db")]
        if not commands:
            return f"the MemDesk window (pid {pid})"
        return f"`memdesk {' '.join(commands[:2])}` (pid {pid})"
    shown = " ".join(words[:3])
    return f"`{shown[:60]}` (pid {pid})"
