"""Why a memory was found, or why not: plain data for the explain panel.

Ranks are 1-based positions in each ranking (None = not in it). Rankings:
"keyword" (BM25 of words + bigrams + pinyin readings; for sentence-like
queries with the related terms listed in SearchResult.expanded_with), "substring" (only
memories the other rankings missed), "vector", "context" (stored next to
one of the best hits in the same conversation; see fusion.context_lift).
"""

from __future__ import annotations

import unicodedata
from dataclasses import asdict, dataclass, field

from memdesk.core.search.index.keyword import PINYIN_SEP, SCRIPT_SEP, WORDS_SEP
from memdesk.core.search.language.script import has_traditional, originals
from memdesk.core.search.language.tokenize import has_cjk, normalise


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
    matched_pinyin: tuple[str, ...] = ()  # "kafei → 咖啡": readings the query spelt
    matched_script: tuple[str, ...] = ()  # "飲料 = 饮料": a word matched across scripts
    pinyin_score: float = 0.0  # BM25 of the readings, weighted (part of keyword_score)

    def to_json(self) -> dict:
        return asdict(self)

    def highlights(self) -> tuple[str, ...]:
        """What to mark in the memory's text: the matched terms, the traditional forms
        they matched and the Chinese words a pinyin query spelt."""
        out = [*self.matched_words, *self.matched_bigrams]
        out += [m.split(SCRIPT_SEP)[0] for m in self.matched_script]
        out += [w for m in self.matched_pinyin for w in m.split(PINYIN_SEP)[-1].split(WORDS_SEP)]
        return tuple(dict.fromkeys(out))

    def describe(self) -> str:
        parts = [
            f"#{self.position}, score {self.final:.3f} (fusion {self.fusion:.3f}, importance "
            f"{self.importance:.2f}, heat {self.heat:.2f}, freshness {self.freshness:.2f})"
        ]
        if self.matched_words or self.matched_bigrams:
            parts.append(
                "matched "
                + ", ".join(self.matched_words + self.matched_bigrams)
                + f"; BM25 {self.bm25:.2f} + bigrams {self.bigram_bm25:.2f}"
            )
        if self.matched_pinyin:
            parts.append("pinyin: " + ", ".join(self.matched_pinyin))
        if self.matched_script:
            parts.append(", ".join(f"traditional {m}" for m in self.matched_script))
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


def script_matches(query_texts: list[str], record, matched: list[str]) -> tuple[str, ...]:
    """ "飲料 = 饮料" for each matched word that the query or the memory wrote in
    traditional characters (both are folded to simplified to match, script.py)."""
    wanted = [m for m in dict.fromkeys(matched) if has_cjk(m)]
    if not wanted:
        return ()
    found: dict[str, str] = {}
    texts = [
        *query_texts,
        "\n".join((record.title, record.content, record.summary, " ".join(record.tags), record.group)),
    ]
    for text in texts:
        if text and has_traditional(text):
            plain = unicodedata.normalize("NFKC", text).casefold()
            folded = normalise(text)
            if plain != folded:
                for word, written in originals(plain, folded, wanted).items():
                    found.setdefault(word, written)
    # A pair inside a word already named says nothing more.
    shown = [w for w in found if not any(w != o and w in o for o in found)]
    return tuple(f"{found[w]}{SCRIPT_SEP}{w}" for w in shown)
