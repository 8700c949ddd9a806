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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# What each public name is read from. Loaded on first use (PEP 562), not when the package is:
# a submodule's "from . import piece_cache" waits for this package to finish importing, so
# an __init__ that imported the engine made a cycle. Two threads that entered the search
# modules at different places (the window's search lane opening the engine, its work lane
# importing the indexer) met in importlib's deadlock check, and one of them was handed a
# half-initialised module: "cannot import name 'KeywordIndex' from partially initialized
# module", in 2 of 6 window starts at 100k.
_WHERE = {
    "SearchEngine": "engine",
    "SearchHit": "engine",
    "SearchResult": "engine",
    "HitExplanation": "rank.explain",
    "MissExplanation": "rank.explain",
    "FUSION_ONLY": "rank.fusion",
    "SEED_004": "rank.fusion",
    "SearchWeights": "rank.fusion",
    "KeywordSettings": "index.keyword_settings",
    "HashingEmbedder": "ngram_embedder",
    "QuerySyntaxError": "query.query",
    "parse": "query.query",
    "render": "query.query",
    "NO_EMBEDDER": "rank.ranker",
    "Tokenizer": "language.tokenize",
}

if TYPE_CHECKING:
    from memdesk.core.search.index.keyword_settings import KeywordSettings
    from memdesk.core.search.language.tokenize import Tokenizer
    from memdesk.core.search.query.query import QuerySyntaxError, parse, render
    from memdesk.core.search.rank.explain import HitExplanation, MissExplanation
    from memdesk.core.search.rank.fusion import FUSION_ONLY, SEED_004, SearchWeights
    from memdesk.core.search.rank.ranker import NO_EMBEDDER

    from .engine import SearchEngine, SearchHit, SearchResult
    from .ngram_embedder import HashingEmbedder


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{where}", __name__), name)
    globals()[name] = value  # once: later lookups are plain attributes
    return value


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
