"""Small ranking helpers shared by the engine: order, merge, substring needles."""

from __future__ import annotations

import re

import numpy as np

from memdesk.core.search.language.stopwords import BIGRAM_SKIP, LONE
from memdesk.core.search.language.stopwords import WORDS as STOP_WORDS
from memdesk.core.search.language.tokenize import normalise

_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]")


def interleave(rankings: list[np.ndarray]) -> np.ndarray:
    """Round-robin merge: each question of a message gets every n-th place.

    Not RRF: over long lists RRF lifts a memory that matches every question
    a little above the best match of each one. Measured and left out (MemDaily,
    every 5th store, R@5 0.9016 before): each question's scores over its best,
    merged by their maximum, 0.8878; places shared out (D'Hondt) by how much a
    question's best hit stands out (1 - third / best, floor 0.2 or 0.4) 0.9008 /
    0.9024, or by its best score over the message's best (^1, ^0.5, ^2) 0.8705 /
    0.9001 / 0.8487; a question whose next hit is already placed taking its next
    unplaced one instead of losing the turn, 0.8986. Chatter that ends in a
    question mark does get places, but the real questions' best scores differ
    as much as the chatter's do.
    """
    longest = max(len(r) for r in rankings)
    merged = np.full((longest, len(rankings)), -1, dtype=np.int64)
    for column, ranking in enumerate(rankings):
        merged[: len(ranking), column] = ranking
    flat = merged.ravel()
    flat = flat[flat >= 0]
    _, first = np.unique(flat, return_index=True)
    return flat[np.sort(first)]


def ranked(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    slots = np.where(allowed & (scores > 0))[0]
    return slots[np.argsort(-scores[slots], kind="stable")]


def needles(words: list[str]) -> list[str]:
    """Substring needles: stop words only when the query has nothing else.

    A Chinese word of two or more characters is left out: every memory that
    contains it also holds its bigrams, so the keyword ranking has it.
    """
    needles = [normalise(w).strip() for w in words]
    needles = list(dict.fromkeys(n for n in needles if n))
    content = [n for n in needles if n not in STOP_WORDS]
    needles = content or needles
    # A lone 不 or 没 beside other words is not what the query is about (stopwords.LONE).
    needles = [n for n in needles if n not in LONE] or needles
    return [n for n in needles if not bigram_covered(n)]


def bigram_covered(needle: str) -> bool:
    return len(needle) >= 2 and all(_CJK_CHAR.match(c) for c in needle) and not any(c in BIGRAM_SKIP for c in needle)
