"""How alike two memories are: character bigrams, jieba words, stored vectors.

Character bigrams work for Chinese without a dictionary and for English
alike; jieba words catch reordered phrases. Pairs are found without
comparing every memory with every other: bigram candidates come from prefix
filtering (two sets with Jaccard >= t must share one of each set's rarest
|x| - ceil(t|x|) + 1 elements), vector candidates from blockwise dot products;
both are capped so that thousands of templated, alike memories cost seconds.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import Counter

import numpy as np

from memdesk.core.domain.validation import fold

from .steps import check

_WORD = re.compile(r"[^\W_]", re.U)
_lock = threading.Lock()
_jieba = None


def bigrams(text: str) -> frozenset[str]:
    """Bigrams of the text's letters and digits (spaces and punctuation dropped)."""
    chars = "".join(_WORD.findall(fold(text)))
    if len(chars) < 2:
        return frozenset({chars}) if chars else frozenset()
    return frozenset(chars[i : i + 2] for i in range(len(chars) - 1))


def load_jieba():
    """jieba, imported on first use (about a second) by whichever thread asks first, its log quiet."""
    global _jieba
    with _lock:
        if _jieba is None:
            import jieba  # local: a second to load

            jieba.setLogLevel(logging.WARNING)
            _jieba = jieba
    return _jieba


def words(text: str) -> frozenset[str]:
    return frozenset(w for w in load_jieba().lcut(fold(text)) if _WORD.search(w))


def jaccard(a, b) -> float:
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def lexical(a_text: str, b_text: str, a_bigrams=None, b_bigrams=None) -> float:
    """The better of bigram and word Jaccard, 0–1."""
    grams = jaccard(a_bigrams or bigrams(a_text), b_bigrams or bigrams(b_text))
    return max(grams, jaccard(words(a_text), words(b_text)))


def bigram_pairs(
    sets: dict[str, frozenset],
    threshold: float,
    cancel,
    *,
    posting_cap: int = 100,
    neighbours: int = 5,
    enough: int = 24,
) -> dict[tuple[str, str], float]:
    """Pairs (a < b) whose bigram Jaccard is at least ``threshold``.

    Exact for ordinary stores. A bigram shared by more than ``posting_cap``
    memories (templated memories share most of theirs) is followed only to
    its ``neighbours`` most recent holders: enough to connect such a group
    without comparing all of it pairwise, which at 10k alike memories would
    be 50 million comparisons. For the same reason a memory stops looking
    once it has ``enough`` partners: its group is then too big to be one merge.
    """
    df = Counter(g for grams in sets.values() for g in grams)
    index: dict[str, list[str]] = {}
    found = {}
    for count, (memory_id, grams) in enumerate(sorted(sets.items(), key=lambda kv: len(kv[1])), start=1):
        if count % 500 == 0:
            check(cancel, "consolidation")
        if not grams:
            continue
        ranked = sorted(grams, key=lambda g: (df[g], g))
        prefix = ranked[: len(ranked) - math.ceil(threshold * len(ranked)) + 1]
        candidates: set = set()
        for g in prefix:
            holders = index.get(g, ())
            candidates.update(holders if len(holders) <= posting_cap else holders[-neighbours:])
        partners = 0
        for other in candidates:
            score = jaccard(grams, sets[other])
            if score >= threshold:
                found[(memory_id, other) if memory_id < other else (other, memory_id)] = score
                partners += 1
                if partners >= enough:
                    break
        for g in prefix:
            index.setdefault(g, []).append(memory_id)
    return found


def vector_pairs(
    ids: list[str], matrix: np.ndarray, threshold: float, cancel, *, neighbours: int = 10, block: int = 512
) -> dict[tuple[str, str], float]:
    """Pairs (a < b) of rows whose cosine is at least ``threshold``, at most
    ``neighbours`` nearest per row (the same cap as above, for the same reason)."""
    found: dict = {}
    if len(ids) < 2:
        return found
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit = matrix / np.where(norms == 0, 1, norms)
    k = min(neighbours + 1, len(ids))
    for start in range(0, len(ids), block):
        check(cancel, "consolidation")
        sims = unit[start : start + block] @ unit.T
        nearest = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        for r, row in enumerate(nearest.tolist()):
            i = start + r
            for c in row:
                if c != i and sims[r, c] >= threshold:
                    a, b = ids[i], ids[c]
                    found[(a, b) if a < b else (b, a)] = float(sims[r, c])
    return found
