"""Search: query language, keyword/substring/vector rankings, fusion, explain.

What callers use:

- ``SearchEngine(store, embedder=None)``: ``build()`` on a worker, ``apply(changes)``
  after every mutation, ``search(query, persona=..., limit=..., record_access=...)``,
  ``explain_missing(query, memory_id, ...)``.
- ``parse(text)`` / ``render(tree)`` and ``QuerySyntaxError`` for the search bar.
- ``SearchWeights`` for the final score; ``HashingEmbedder`` as a model-free embedder.
"""
from .engine import NO_EMBEDDER, SearchEngine, SearchHit, SearchResult
from .explain import HitExplanation, MissExplanation
from .fusion import FUSION_ONLY, SEED_004, SearchWeights
from .keyword import KeywordSettings
from .ngram_embedder import HashingEmbedder
from .query import QuerySyntaxError, parse, render
from .tokenize import Tokenizer

__all__ = [
    "FUSION_ONLY", "HashingEmbedder", "HitExplanation", "KeywordSettings", "MissExplanation",
    "NO_EMBEDDER", "QuerySyntaxError", "SEED_004", "SearchEngine", "SearchHit", "SearchResult", "SearchWeights",
    "Tokenizer", "parse", "render",
]
