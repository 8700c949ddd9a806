"""Spreading bulk CPU work (jieba) over worker processes, when that is safe.

jieba runs on one core and is most of an import's time: cutting memories for
the search index, tagging them for the importance estimate. fork gives the
workers the parent's loaded dictionaries for free. It is only safe while the
process has one thread (the CLI, the window's import child), and only Linux
forks without caveats; anywhere else the work runs here, in order.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from memdesk.core.storage.checkpoint import settle

T = TypeVar("T")
R = TypeVar("R")
MIN_ITEMS = 1000  # below this, starting workers costs more than it saves


def can_fork() -> bool:
    # A daemon process (any multiprocessing child marked so) may not start workers.
    # A WAL checkpoint's thread (checkpoint.py) ends within milliseconds: waited for.
    settle()
    return (
        sys.platform.startswith("linux")
        and threading.active_count() == 1
        and (os.cpu_count() or 1) > 1
        and not multiprocessing.current_process().daemon
    )


def fork_map(
    fn: Callable[[T], R], items: list[T], *, warm: Callable[[], object] = lambda: None, chunksize: int = 100
) -> Iterator[R]:
    """fn over items, in order; ``warm`` runs first in this process (load what the
    workers should inherit). ``fn`` must be a module-level function."""
    if len(items) < MIN_ITEMS or not can_fork():
        yield from map(fn, items)
        return
    warm()
    with multiprocessing.get_context("fork").Pool(os.cpu_count()) as pool:
        yield from pool.imap(fn, items, chunksize=chunksize)


def fork_list(fn: Callable[[T], R], items: Iterable[T], **options) -> list[R]:
    return list(fork_map(fn, list(items), **options))
