"""Cutting many memories at once, in worker processes when that is safe (core/parallel.py)."""

from __future__ import annotations

from collections.abc import Iterator

from ..parallel import fork_map
from .indexed import MemoryText
from .keyword import document_pinyin, document_terms
from .pinyin import SHARED_PINYIN
from .tokenize import Tokenizer

_worker_tokenizer: Tokenizer | None = None  # the parent's, inherited by forked workers


Terms = tuple[dict[str, float], dict[str, float], dict[str, float]]


def cut_one(job: tuple[Tokenizer | None, MemoryText, frozenset[str]]) -> Terms:
    """A memory's (words, character pairs, pinyin readings)."""
    tokenizer, record, overlay = job
    tokenizer = tokenizer or _worker_tokenizer
    assert tokenizer is not None, "a worker's job comes without its tokenizer only from cut_many, which sets it"
    words, grams = document_terms(tokenizer, record, overlay)
    return dict(words), dict(grams), document_pinyin(words)


def cut_many(tokenizer: Tokenizer, jobs: list[tuple[MemoryText, frozenset[str]]]) -> Iterator[Terms]:
    """Cut many memories, in order."""
    global _worker_tokenizer
    _worker_tokenizer = tokenizer

    def warm() -> None:  # workers inherit both
        tokenizer.warm_up()
        SHARED_PINYIN.load_phrases()

    try:
        yield from fork_map(cut_one, [(None, record, overlay) for record, overlay in jobs], warm=warm)
    finally:
        _worker_tokenizer = None
