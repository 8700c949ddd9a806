"""Search: query language, keyword/substring/vector rankings, fusion, explain.

What callers use:

- ``SearchEngine(store, embedder=None)``: the index lives in the store and every write keeps
  it current (indexer.py); ``build()`` opens it (and cuts what an upgrade left uncut),
  ``search(query, persona=..., limit=..., record_access=...)`` first catches up with what
  any process wrote, ``explain_missing(query, memory_id, ...)``. Without a store,
  ``put``/``remove`` keep an in-memory index (tests, benchmarks).
- ``parse(text)`` / ``render(tree)`` and ``QuerySyntaxError`` for the search bar.
- ``SearchWeights`` for the final score; ``HashingEmbedder`` as a model-free embedder.
"""

from .engine import SearchEngine, SearchHit, SearchResult
from .explain import HitExplanation, MissExplanation
from .fusion import FUSION_ONLY, SEED_004, SearchWeights
from .keyword import KeywordSettings
from .ngram_embedder import HashingEmbedder
from .query import QuerySyntaxError, parse, render
from .ranker import NO_EMBEDDER
from .tokenize import Tokenizer

__all__ = [
    "FUSION_ONLY",
    "HashingEmbedder",
    "HitExplanation",
    "KeywordSettings",
    "MissExplanation",
    "NO_EMBEDDER",
    "QuerySyntaxError",
    "SEED_004",
    "SearchEngine",
    "SearchHit",
    "SearchResult",
    "SearchWeights",
    "Tokenizer",
    "parse",
    "render",
]
