"""The first results of a keyword-only search without ordering every memory that matches.

A word common in a million memories matches a few hundred thousand of them; sorting them
all, fusing every rank and scoring every one's importance, heat and freshness took most of
a search at 1M (~120 ms). When the keyword ranking is the only ranking (no vectors, no
expansion, no conversation context, and enough matches that the substring fallback does
not run), ranker.rank hands the search here. Only the best candidates by keyword score
are ordered and scored — with the very operations fusion.rrf and final_scores apply, so
their scores are the same to the bit — and a bound proves no other candidate can reach
the results: a candidate left out scores no higher than the lowest one taken, so its
rank is no better and its fused score no higher; its final score is at most that fused
score's share plus the most importance, heat and freshness can add. When the bound does
not hold (many candidates tie on the keyword score), more candidates are taken, up to all.
"""

from __future__ import annotations

import numpy as np

from memdesk.core.search.rank.fusion import SearchWeights, final_scores

TOP_MIN = 2000  # matches below which the whole ranking is cheap enough
FIRST = 256  # candidates taken first; four times as many each time the bound fails


def best_only(weights: SearchWeights, table, now, limit: int, allowed: np.ndarray, terms, scored: tuple):
    """(order, total, final, fusion, ranks, columns) as ranker.rank makes them, with only
    the first ``limit`` results in order and the per-slot arrays filled for the candidates
    taken; None when too few memories match to be worth it. ``table``: the index's columns
    (importance, heat, freshness)."""
    word_bm25, gram_bm25, pinyin_bm25, keyword = scored
    found = np.where(allowed & (keyword > 0))[0]
    if limit <= 0 or len(found) <= max(TOP_MIN, limit) or weights.fusion <= 0:
        return None
    scores = keyword[found]
    # The bands rank.py's _groups gives: 1 = found by pinyin alone, after every literal hit.
    band = np.zeros(len(found), dtype=np.int64)
    if terms.pinyin:
        literal = (word_bm25[found] > 0) | (gram_bm25[found] > 0)
        band[~literal & (pinyin_bm25[found] > 0)] = 1
    in_band = np.bincount(band, minlength=2)
    count = FIRST
    while True:
        count = min(count, len(found))
        taken = _best(scores, count)
        result = _score(weights, table, now, found[taken], scores[taken], float(scores.max()))
        order = _first(limit, result, band[taken], in_band, _ceiling(weights, table, result))
        if order is not None:
            break
        count *= 4
    slots, positions, fusion, signals, final = result
    size = len(keyword)
    columns = {"bm25": word_bm25, "bigram": gram_bm25, "pinyin": pinyin_bm25, "keyword": keyword}
    columns["vector"] = _no_similarity(size)
    for name, values in (*signals.items(), ("fusion", fusion), ("final", final), ("rank", positions)):
        columns[name] = np.zeros(size, dtype=values.dtype)
        columns[name][slots] = values
    ranks = {"keyword": columns.pop("rank")}
    return slots[order], len(found), columns.pop("final"), columns.pop("fusion"), ranks, columns


def _best(scores: np.ndarray, count: int) -> np.ndarray:
    """Positions of about the ``count`` highest scores: every score above the lowest one taken
    is taken. A threshold from a sample of the scores finds them in one pass; partitioning
    them all (what it falls back to) costs several times more at 500k candidates."""
    if count >= len(scores):
        return np.arange(len(scores))
    step = len(scores) // (16 * count)
    if step >= 2:
        sample = scores[::step]
        keep = max(1, len(sample) * count // len(scores) * 2)  # twice the share of ``count``
        threshold = np.partition(sample, len(sample) - keep)[len(sample) - keep]
        taken = np.where(scores >= threshold)[0]
        if count <= len(taken) <= 8 * count:
            return taken
    cut = len(scores) - count
    return np.argpartition(scores, cut)[cut:]


_NAN: np.ndarray = np.full(0, np.nan)


def _no_similarity(size: int) -> np.ndarray:
    """NaN per slot (no vector ranking), one read-only array reused: filling 8 MB a search
    at 1M memories cost more than ordering the results."""
    global _NAN
    if len(_NAN) != size:
        _NAN = np.full(size, np.nan)
        _NAN.flags.writeable = False
    return _NAN


def _score(weights: SearchWeights, table, now, slots: np.ndarray, values: np.ndarray, top: float):
    """Rank, fused and final score of these candidates as rrf() and final_scores() give
    them over the whole ranking (ranks count only better scores, all of them taken)."""
    ordered = np.sort(-values)
    positions = np.searchsorted(ordered, -values, side="left") + 1
    share = np.clip(values / top, 0.0, 1.0)
    fusion = np.zeros(len(slots)) + share / (weights.rrf_k + positions)
    fusion /= 0.0 + 1.0 / (weights.rrf_k + 1)
    signals = {
        "importance": table.importance01(slots),
        "heat": table.heat01(slots, now),
        "freshness": table.freshness01(slots, now, weights.freshness_half_life_days),
    }
    final = final_scores(weights, fusion, signals["importance"], signals["heat"], signals["freshness"])
    return slots, positions, fusion, signals, final


def _ceiling(weights: SearchWeights, table, result) -> float:
    """The highest final score a candidate not taken could have."""
    _, _, fusion, _, _ = result
    importance = table.cols["importance"][: table.size]
    high = (float(importance.max()) - 1.0) / 9.0 if len(importance) else 0.0
    low = (float(importance.min()) - 1.0) / 9.0 if len(importance) else 0.0
    extra = max(weights.importance * high, weights.importance * low)
    extra += max(weights.heat, 0.0) + max(weights.freshness, 0.0)  # heat and freshness lie in 0..1
    return weights.fusion * float(fusion.min()) + extra


def _first(limit: int, result, band: np.ndarray, in_band: np.ndarray, ceiling: float) -> np.ndarray | None:
    """Positions (into the candidates taken) of the first ``limit`` results: band by band,
    by final score, then slot. None when candidates not taken could still be among them."""
    slots, _, _, _, final = result
    need, chosen = limit, []
    for number in (0, 1):
        mine = np.where(band == number)[0]
        mine = mine[np.lexsort((slots[mine], -final[mine]))]
        if len(mine) < in_band[number]:  # some of this band were not taken
            if len(mine) < need or not final[mine[need - 1]] > ceiling + 1e-12:
                return None
        chosen.append(mine[:need])
        need -= len(chosen[-1])
        if need == 0:
            break
    return np.concatenate(chosen)
