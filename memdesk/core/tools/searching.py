"""The search the tools and the brief use: the real engine, built on first use.

A long-running server shares the file with the window and the CLI, so before
each search the engine catches up with the store's change feed.
"""

from __future__ import annotations

import threading


def default_search(store):
    """A search function (query, *, persona, limit, scope=None, type=None) -> [(record, score)]."""
    return EngineSearch(store)


class EngineSearch:
    def __init__(self, store, embedder=None):
        self.store = store
        self._embedder = embedder
        self._engine = None
        self._lock = threading.Lock()
        self.notice = ""

    def _ready(self):
        from memdesk.core.search import SearchEngine

        if self._engine is None:
            embedder = self._embedder
            if embedder is None:
                from memdesk.core.embed import active_embedder

                embedder, hint = active_embedder()
                self.notice = hint or ""
            engine = SearchEngine(self.store, embedder)
            engine.catch_up()  # the store keeps the index: this loads its columns
            self._engine = engine
        # Searches read the change feed themselves: every write by any process is seen.
        return self._engine

    def embedder(self):
        """The model the search uses (None: keyword-only), for embedding what a tool saved."""
        with self._lock:
            return self._ready().embedder

    def warm_up(self) -> None:
        """Open the index, cut what an upgrade left uncut, load jieba and the synonyms.

        The cutting runs outside the lock: tool calls hold a write transaction while
        they search, and each batch needs the write lock in turn.
        """
        from memdesk.core.search.index.indexer import build

        with self._lock:
            engine = self._ready()
        build(self.store)
        with self._lock:
            engine.warm_up()

    def __call__(self, query, *, persona=None, limit=10, scope=None, type=None):
        text = " ".join([query] + [f"{k}:{v}" for k, v in (("scope", scope), ("type", type)) if v])
        with self._lock:
            engine = self._ready()
            result = engine.search(text, persona=persona or "", limit=limit, lenient=True)
        return Found([(hit.record, hit.score) for hit in result.hits], result.total)


class Found(list):
    """The (record, score) pairs of a search, and how many memories matched in all."""

    def __init__(self, pairs, total: int):
        super().__init__(pairs)
        self.total = total
