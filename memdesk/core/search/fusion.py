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

    Seed 004 proposes 0.4 / 0.3 / 0.2 / 0.1. Those are kept as the default:
    on the retrieval benchmarks (bench/retrieval.py, memories imported with
    their real dates) importance is 5 for every memory and heat and freshness
    are flat for old memories, so they cost nothing there; when the
    benchmark is replayed as if the last memory had been written yesterday,
    heat and freshness re-order hits by date and cost recall, which is why
    FUSION_ONLY exists for callers that want relevance alone. See the
    report in bench/retrieval.py's docstring for the figures.
    """

    fusion: float = 0.4
    importance: float = 0.3
    heat: float = 0.2
    freshness: float = 0.1
    rrf_k: int = RRF_K
    freshness_half_life_days: float = 30.0


FUSION_ONLY = SearchWeights(fusion=1.0, importance=0.0, heat=0.0, freshness=0.0)


def rrf(rankings: dict[str, np.ndarray], size: int, k: int = RRF_K) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Fused score per slot (0–1) and each slot's 1-based rank per ranking (0 = absent).

    ``rankings`` maps a name to slots, best first.
    """
    fused = np.zeros(size)
    ranks: dict[str, np.ndarray] = {}
    best = 0.0
    for name, slots in rankings.items():
        rank = np.zeros(size, dtype=np.int64)
        if len(slots):
            positions = np.arange(1, len(slots) + 1)
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
