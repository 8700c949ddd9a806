"""Cutting many memories at once, in worker processes when that is safe (core/parallel.py)."""

from __future__ import annotations

from collections.abc import Iterator

from ..parallel import fork_map
from .keyword import document_pinyin, document_terms
from .pinyin import SHARED_PINYIN
from .tokenize import Tokenizer

_worker_tokenizer: Tokenizer | None = None  # the parent's, inherited by forked workers


def cut_one(job) -> tuple[dict, dict, dict]:
    """A memory's (words, character pairs, pinyin readings)."""
    tokenizer, record, overlay = job
    words, grams = document_terms(tokenizer or _worker_tokenizer, record, overlay)
    return dict(words), dict(grams), document_pinyin(words)


def cut_many(tokenizer: Tokenizer, jobs: list[tuple]) -> Iterator[tuple[dict, dict]]:
    """Cut many memories, in order."""
    global _worker_tokenizer
    _worker_tokenizer = tokenizer
    try:
        yield from fork_map(
            cut_one,
            [(None, record, overlay) for record, overlay in jobs],
            warm=lambda: (tokenizer.warm_up(), SHARED_PINYIN.load_phrases()),
        )  # workers inherit both
    finally:
        _worker_tokenizer = None
