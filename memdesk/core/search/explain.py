"""Why a memory was found, or why not: plain data for the explain panel.

Ranks are 1-based positions in each ranking (None = not in it). Rankings:
"keyword" (BM25 of words + bigrams; for sentence-like queries with the
related terms listed in SearchResult.expanded_with), "substring" (only
memories the other rankings missed), "vector", "context" (stored next to
one of the best hits in the same conversation; see fusion.context_lift).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class HitExplanation:
    matched_words: tuple[str, ...]
    matched_bigrams: tuple[str, ...]
    bm25: float  # word field
    bigram_bm25: float
    keyword_score: float  # bm25 + bigram_weight * bigram_bm25
    vector_similarity: float | None
    ranks: dict[str, int | None]
    fusion: float  # RRF (or the hybrid score mix) with context, scaled 0-1
    importance: float  # 0-1
    heat: float  # 0-1
    freshness: float  # 0-1
    final: float
    found_by: tuple[str, ...]
    position: int  # 1-based place in the results

    def to_json(self) -> dict:
        return asdict(self)

    def describe(self) -> str:
        parts = [f"#{self.position}, score {self.final:.3f} (fusion {self.fusion:.3f}, importance "
                 f"{self.importance:.2f}, heat {self.heat:.2f}, freshness {self.freshness:.2f})"]
        if self.matched_words or self.matched_bigrams:
            parts.append("matched " + ", ".join(self.matched_words + self.matched_bigrams)
                         + f"; BM25 {self.bm25:.2f} + bigrams {self.bigram_bm25:.2f}")
        if self.vector_similarity is not None:
            parts.append(f"vector similarity {self.vector_similarity:.3f}")
        ranked = [f"{name} #{rank}" for name, rank in self.ranks.items() if rank]
        if ranked:
            parts.append("ranks: " + ", ".join(ranked))
        return "; ".join(parts)


@dataclass(frozen=True)
class MissExplanation:
    """Why ``memory_id`` is not among the results of a search."""

    memory_id: str
    reason: str  # "unknown", "scope", "hidden", "filter", "no_match", "below_limit", "returned"
    message: str
    filter: str | None = None  # the constraint that excluded it, rendered
    ranks: dict[str, int | None] = field(default_factory=dict)
    position: int | None = None  # where it would rank among all matches

    def to_json(self) -> dict:
        return asdict(self)
