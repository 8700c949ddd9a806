"""Cutting many memories at once: in worker processes when that is safe.

jieba is most of an import's time and runs on one core. A bulk write forks
workers that inherit the loaded dictionary (fork copies it for free); that
is only safe while the writing process has one thread (the CLI, an import
child), and only Linux forks without caveats. Otherwise memories are cut
here, one after another.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from typing import Iterator

from .keyword import document_terms
from .tokenize import Tokenizer

PARALLEL_MIN = 1000  # memories to cut before a bulk write cuts them in worker processes
_worker_tokenizer: Tokenizer | None = None


def cut_one(job) -> tuple[dict, dict]:
    tokenizer, record, overlay = job
    words, grams = document_terms(tokenizer or _worker_tokenizer, record, overlay)
    return dict(words), dict(grams)


def _can_fork() -> bool:
    return sys.platform.startswith("linux") and threading.active_count() == 1 and (os.cpu_count() or 1) > 1


def cut_many(tokenizer: Tokenizer, jobs: list[tuple]) -> Iterator[tuple[dict, dict]]:
    """Cut many memories, in order: in worker processes for a bulk write (jieba is
    most of an import's time and one core's work), else here."""
    global _worker_tokenizer
    if len(jobs) < PARALLEL_MIN or not _can_fork():
        yield from (cut_one((tokenizer, record, overlay)) for record, overlay in jobs)
        return
    tokenizer.warm_up()  # before the fork, so the workers inherit the dictionary
    _worker_tokenizer = tokenizer
    try:
        with multiprocessing.get_context("fork").Pool(os.cpu_count()) as pool:
            yield from pool.imap(cut_one, [(None, record, overlay) for record, overlay in jobs], chunksize=100)
    finally:
        _worker_tokenizer = None
