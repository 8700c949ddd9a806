"""Reciprocal Rank Fusion and the final score (seed 004).

RRF looks only at ranks, so BM25 scores, bigram scores and cosine
similarities, which live on different scales, combine without calibration:
fused(d) = sum over rankings of 1 / (k + rank_d), k = 60.

The final score mixes the fused relevance with what the memory is worth
regardless of the query: final = w_f·fusion + w_i·importance + w_h·heat +
w_r·freshness, each scaled to 0–1 (fusion by its largest possible value, so
a memory ranked first everywhere scores 1).

When vectors take part, keyword and vector evidence are fused by their
scores instead (``hybrid``): each is standardised over the memories in
scope (z-scores, so no per-model threshold or calibration is needed — bge's
similarities bunch at 0.3–0.5, MiniLM's spread wider) and mixed convexly.
Rank fusion throws away how far apart the scores are; the convex mix is
the better fusion for hybrid retrieval (Bruch et al., "An Analysis of
Fusion Functions for Hybrid Retrieval", TOIS 2023) and measured so here,
LoCoMo with all-MiniLM-L6-v2 int8, R@5 / R@10 (keyword alone 0.576 / 0.650,
vectors alone 0.364 / 0.467):

    RRF k=60 0.500 / 0.587    RRF k=10 0.555 / 0.672
    z-scores, keyword share 0.3 0.593 / 0.691, 0.4 0.601 / 0.705, 0.5 0.597 / 0.693
    min-max scaled, keyword share 0.6  0.599 / 0.704

Conversation context (``context_lift``), R@5 / R@10 on LoCoMo: keyword-only
0.576 / 0.650 -> 0.621 / 0.711, hybrid 0.597 / 0.700 -> 0.646 / 0.745, with
the best 3 hits lending 0.3 of their score (share 0.15: 0.604 / 0.680;
10 lenders: 0.624 / 0.718 but MemDaily with distractors -0.004). Only for
questions whose fusion has scores: interleaved multi-question rankings are
flat, and there a lift of 0.15 already cost MemDaily-with-distractors 0.01.
MemDaily is unchanged (its memories are hours apart; a 12-hour window cost
0.006).

A larger share for keyword-only search, measured after the date lift (when.py) and
left out: LoCoMo R@5 / R@10 by share 0.2 / 0.3 / 0.4 / 0.5 0.639 / 0.724, 0.657 /
0.741, 0.665 / 0.745, 0.671 / 0.752, but MemDaily with the distractors (every 4th
store, 369 questions) 0.8053 -> 0.8006 at 0.4 (both halves lose), and with
MiniLM 0.4 / 0.5 cost 0.004 / 0.018. 5 lenders instead of 3: LoCoMo 0.663, the
distractor set -0.003.

A lender that ends in a question lends the line after it more (``reply``, 0.8): that
line is its answer, and answers rarely repeat the question's words ("How long have you
been married?" -> "5 years already!"). LoCoMo R@5 / R@10 (2026-12-02), keyword-only
0.660 / 0.745 -> 0.689 / 0.757 (R@1 0.348 -> 0.400, MRR@10 0.512 -> 0.557; every
conversation gains: 0.644 -> 0.697, 0.707 -> 0.729, 0.669 -> 0.705, 0.655 -> 0.667,
0.653 -> 0.677), with MiniLM 0.687 / 0.781 -> 0.700 / 0.785. By share: 0.45
0.678, 0.6 0.689, 0.8 0.689, 1.0 0.691 keyword-only; MiniLM 0.699, 0.700, 0.698 for
0.6, 0.8, 1.0: a plateau from 0.6 to 1.0, and 0.8 its middle. MemDaily's memories are
hours apart (no neighbours): unchanged, 0.906. With the Chinese distractors 0.827 ->
0.825 (0.6 alike; noisy 0.792 -> 0.788, simple 0.876 -> 0.872): 203 of their 566 chat
lines ask, and the line after one is the same user's next line, not an answer. Cost:
the (cached) records of the few lenders.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RRF_K = 60


@dataclass(frozen=True)
class SearchWeights:
    """Weights of the final score; they need not sum to 1.

    Seed 004 proposes 0.4 / 0.3 / 0.2 / 0.1. That hurts relevance, so the
    default is 0.9 / 0.05 / 0.03 / 0.02: importance, heat and freshness keep
    seed 004's order but mostly decide between memories the query ranks
    about alike. Why: RRF is flat near the top, and 0.2 x heat (0.1..1.0)
    outweighs many ranks. Figures, keyword-only, bench/retrieval.py
    --as-of latest ("now" = a day after each store's newest memory, as in
    daily use; with the files' real dates every memory is over a year old,
    heat and freshness are flat, and no weighting changes anything):

        R@5 / R@10                     LoCoMo          MemDaily
        seed 004, plain RRF            0.228 / 0.359   0.803 / 0.907
        seed 004, score-shared RRF     0.455 / 0.490   0.805 / 0.907
        0.6/.2/.1/.1, plain RRF        0.425 / 0.611
        0.9/.05/.03/.02, plain RRF     0.565 / 0.645   0.852 / 0.932
        0.9/.05/.03/.02, score-shared  0.572 / 0.645   0.852 / 0.932 (default)
        fusion only                    0.571 / 0.646   0.852 / 0.932
    """

    fusion: float = 0.9
    importance: float = 0.05
    heat: float = 0.03
    freshness: float = 0.02
    rrf_k: int = RRF_K
    context: float = 0.3  # share of a found memory's fused score lent to its neighbours (context_lift)
    context_from: int = 3  # only the best few found memories lend
    reply: float = 0.8  # share a found line that ends in a question lends the line after it
    context_window_s: float = 600.0  # memories stored this close together count as one conversation
    keyword_share: float = 0.4  # of keyword vs vector evidence in hybrid(); the vector side gets the rest
    freshness_half_life_days: float = 30.0


SEED_004 = SearchWeights(fusion=0.4, importance=0.3, heat=0.2, freshness=0.1)
FUSION_ONLY = SearchWeights(fusion=1.0, importance=0.0, heat=0.0, freshness=0.0)


def rrf(
    rankings: dict[str, np.ndarray], size: int, k: int = RRF_K, scores: dict[str, np.ndarray] | None = None
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Fused score per slot (0–1) and each slot's 1-based rank per ranking (0 = absent).

    ``rankings`` maps a name to slots, best first. Where ``scores`` gives a
    ranking's per-slot scores, two things follow. Equal scores share a rank
    ("1, 2, 2, 4"), so importance, heat and freshness, not slot order, decide
    between them. And each entry counts in proportion to its score over the
    ranking's best: plain RRF makes rank 2 worth 0.98 of rank 1 however far
    behind it scores, so a memory reached only by a related term plus high
    importance outranked the memory that matches the query (the brief's
    "我的猫最近不吃东西" case). Orders within one ranking do not change.
    """
    scores = scores or {}
    fused = np.zeros(size)
    ranks: dict[str, np.ndarray] = {}
    best = 0.0
    for name, slots in rankings.items():
        rank = np.zeros(size, dtype=np.int64)
        if len(slots):
            positions = np.arange(1, len(slots) + 1)
            share = 1.0
            if name in scores:
                values = scores[name][slots]
                ordered = -values  # ascending, as the ranking is best first
                positions = np.searchsorted(ordered, ordered, side="left") + 1
                if values[0] > 0:
                    share = np.clip(values / values[0], 0.0, 1.0)
            rank[slots] = positions
            fused[slots] += share / (k + positions)
            best += 1.0 / (k + 1)
        ranks[name] = rank
    if best > 0:
        fused /= best
    return fused, ranks


def final_scores(
    weights: SearchWeights, fusion: np.ndarray, importance: np.ndarray, heat: np.ndarray, freshness: np.ndarray
) -> np.ndarray:
    return (
        weights.fusion * fusion + weights.importance * importance + weights.heat * heat + weights.freshness * freshness
    )


def standardised(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """z-scores over ``pool``; 0 (the pool's mean) outside it or when all are equal."""
    out = np.zeros(len(values))
    if pool.sum() > 1:
        sample = values[pool]
        spread = sample.std()
        if spread > 0:
            out[pool] = (sample - sample.mean()) / spread
    return out


def hybrid(
    keyword: np.ndarray, similarity: np.ndarray, scope: np.ndarray, members: np.ndarray, keyword_share: float
) -> np.ndarray:
    """Fused score per slot, 0–1 over ``members``: a convex mix of standardised evidence.

    keyword: the keyword ranking's scores (0 = no match; non-matches count in
    the statistics, as a match must stand out from them). similarity: cosine,
    NaN where a memory has no vector yet (it then counts as average).
    """
    has_vector = scope & ~np.isnan(similarity)
    mixed = keyword_share * standardised(np.maximum(keyword, 0.0), scope) + (1.0 - keyword_share) * standardised(
        np.nan_to_num(similarity), has_vector
    )
    fused = np.zeros(len(keyword))
    if members.any():
        low, high = mixed[members].min(), mixed[members].max()
        fused[members] = (mixed[members] - low) / (high - low) if high > low else 1.0
    return fused


def context_lift(
    fused: np.ndarray,
    found: np.ndarray,
    allowed: np.ndarray,
    previous: np.ndarray,
    following: np.ndarray,
    share: float,
    asking: np.ndarray | None = None,
    reply_share: float = 0.0,
) -> np.ndarray:
    """Each allowed memory gains ``share`` of its best found neighbour's fused score.

    In a conversation the line that answers a question often shares no word
    with it ("What genre is her screenplay?" -> "A mix of drama and romance!"
    right after "I finished my first screenplay"). ``found``: memories the
    rankings reached; only they lend, so lifts do not chain. A found line
    that ends in a question (``asking``) lends its next line ``reply_share``
    instead, when that is more: the next line is its answer ("How long have
    you been married?" -> "5 years already!").
    """
    lend = np.where(found, fused, 0.0)
    lift = np.zeros(len(fused))
    for side in (previous, following):
        has = side >= 0
        lift[has] = np.maximum(lift[has], share * lend[side[has]])
    if asking is not None and reply_share > share:
        has = (previous >= 0) & allowed
        has[has] = asking[previous[has]]
        lift[has] = np.maximum(lift[has], reply_share * lend[previous[has]])
    return fused + np.where(allowed, lift, 0.0)
