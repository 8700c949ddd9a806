"""Cutting many memories at once, in worker processes when that is safe (core/search/index/parallel.py)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import NamedTuple

from memdesk.core.domain.embedding import embed_text, text_hash
from memdesk.core.search.index.indexed import MemoryText
from memdesk.core.search.index.keyword import document_pinyin, document_terms, searchable_text
from memdesk.core.search.index.parallel import fork_map
from memdesk.core.search.language.pinyin import SHARED_PINYIN
from memdesk.core.search.language.tokenize import Tokenizer

_worker_tokenizer: Tokenizer | None = None  # the parent's, inherited by forked workers


class Terms(NamedTuple):
    """A memory's term bags (words, character pairs, pinyin readings), whole weights as ints,
    and the rest of its search_doc row that comes from its text alone: its searchable text,
    the hash of its embedded text and its cut key (made here: in a worker process when the
    cut runs in one, off the writing process's time)."""

    words: dict[str, float]
    grams: dict[str, float]
    pinyin: dict[str, float]
    text: str
    ehash: str
    key: bytes


def cut_key(record: MemoryText) -> bytes:
    """What a memory's cut depends on, field by field (the joined text cannot tell
    a title from the start of the content)."""
    fields = [record.title, record.content, record.summary, list(record.tags), record.group]
    return hashlib.blake2b(json.dumps(fields, ensure_ascii=False).encode("utf-8"), digest_size=12).digest()


def cut_one(job: tuple[Tokenizer | None, MemoryText, frozenset[str]], text: str | None = None) -> Terms:
    """A memory's terms (see Terms); ``text``: its searchable_text, where known already."""
    tokenizer, record, overlay = job
    tokenizer = tokenizer or _worker_tokenizer
    assert tokenizer is not None, "a worker's job comes without its tokenizer only from cut_many, which sets it"
    words, grams = document_terms(tokenizer, record, overlay)  # whole counts are ints already
    return Terms(
        words,
        grams,
        document_pinyin(words),
        searchable_text(record) if text is None else text,
        text_hash(embed_text(record.title, record.content)),
        cut_key(record),
    )


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
