"""Reciprocal Rank Fusion and the final score (seed 004).

RRF looks only at ranks, so BM25 scores, bigram scores and cosine
similarities, which live on different scales, combine without calibration:
fused(d) = sum over rankings of 1 / (k + rank_d), k = 60.

The final score mixes the fused relevance with what the memory is worth
regardless of the query: final = w_f·fusion + w_i·importance + w_h·heat +
w_r·freshness, each scaled to 0–1 (fusion by its largest possible value, so
a memory ranked first everywhere scores 1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RRF_K = 60


@dataclass(frozen=True)
class SearchWeights:
    """Weights of the final score; they need not sum to 1.

    Seed 004 proposes 0.4 / 0.3 / 0.2 / 0.1. That hurts relevance badly, so
    the default is 0.9 / 0.05 / 0.03 / 0.02: importance, heat and freshness
    keep seed 004's order but only decide between memories the query ranks
    (nearly) alike. Why: RRF scores are flat (rank 1 -> 1.0, rank 10 ->
    0.87 after scaling), so 0.2 x heat (0.1..1.0) outweighs dozens of ranks.
    Figures, keyword-only, bench/retrieval.py --as-of latest ("now" is a day
    after each store's newest memory, as in daily use; with the real dates
    every benchmark memory is over a year old, heat and freshness are flat
    and the weights change nothing):

        LoCoMo R@5 / R@10:      seed 0.228 / 0.359   0.6/.2/.1/.1 0.425 / 0.611
                                0.9/.05/.03/.02 0.565 / 0.645   fusion only 0.571 / 0.646
        MemDaily R@5 / R@10:    seed 0.803 / 0.907   0.9/.05/.03/.02 0.852 / 0.932
    """

    fusion: float = 0.9
    importance: float = 0.05
    heat: float = 0.03
    freshness: float = 0.02
    rrf_k: int = RRF_K
    freshness_half_life_days: float = 30.0


SEED_004 = SearchWeights(fusion=0.4, importance=0.3, heat=0.2, freshness=0.1)
FUSION_ONLY = SearchWeights(fusion=1.0, importance=0.0, heat=0.0, freshness=0.0)


def rrf(rankings: dict[str, np.ndarray], size: int, k: int = RRF_K,
        scores: dict[str, np.ndarray] | None = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Fused score per slot (0–1) and each slot's 1-based rank per ranking (0 = absent).

    ``rankings`` maps a name to slots, best first. Where ``scores`` gives a
    ranking's per-slot scores, equal scores share a rank ("1, 2, 2, 4"), so
    importance, heat and freshness, not slot order, decide between them.
    """
    scores = scores or {}
    fused = np.zeros(size)
    ranks: dict[str, np.ndarray] = {}
    best = 0.0
    for name, slots in rankings.items():
        rank = np.zeros(size, dtype=np.int64)
        if len(slots):
            positions = np.arange(1, len(slots) + 1)
            if name in scores:
                ordered = -scores[name][slots]  # ascending, as the ranking is best first
                positions = np.searchsorted(ordered, ordered, side="left") + 1
            rank[slots] = positions
            fused[slots] += 1.0 / (k + positions)
            best += 1.0 / (k + 1)
        ranks[name] = rank
    if best > 0:
        fused /= best
    return fused, ranks


def final_scores(weights: SearchWeights, fusion: np.ndarray, importance: np.ndarray,
                 heat: np.ndarray, freshness: np.ndarray) -> np.ndarray:
    return (weights.fusion * fusion + weights.importance * importance
            + weights.heat * heat + weights.freshness * freshness)
