"""The one function the search bar calls: ``SearchBackend.search``.

The core's SearchEngine answers every search: its index lives in the store,
so it is ready as soon as the window has opened the file (prepare loads the
packed columns in well under a second; an upgraded store's index is cut on
the work lane meanwhile and searches see what is cut so far). Searches from
the window never count as an access (record_access=False): looking is not
remembering. Every call here runs off the UI thread, on the task manager's
single-threaded "search" lane, so index updates and searches keep their order.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from dataclasses import dataclass
from types import SimpleNamespace

from memdesk.core.views import queries

from .query_errors import query_error_text

log = logging.getLogger(__name__)
LIMIT = 100  # the first page: a screenful is ~20
PAGE = 200  # each further page, as the table scrolls to its end
WEIGHTS_KEY = "search.weights"  # {"fusion", "importance", "heat", "freshness"} in the store's settings


@dataclass(frozen=True)
class Hit:
    id: str
    score: float
    explain: object = None  # the engine's HitExplanation (to_json() when shown), or a dict
    terms: tuple[str, ...] = ()  # what matched, for highlighting
    record: object = None  # MemoryRecord when the engine had it at hand


@dataclass(frozen=True)
class Outcome:
    query: str
    hits: list[Hit]
    terms: tuple[str, ...]  # the query's own words, highlighted when a hit has none
    error: str = ""
    engine: str = "engine"
    total: int = 0  # every memory that matches, not only the hits here
    notice: str = ""
    elapsed_ms: float = 0.0
    offset: int = 0  # the first hit's place in the whole ranking (a later page's is past 0)


_IMPORTING = threading.Lock()
IMPORT_YIELD_S = 0.001  # long enough for the UI thread to wake and take the GIL


def _core_search():
    """The core's search package and the modules of it the window's lanes use, imported by
    one lane at a time. The search lane (opening the engine) and the work lane (the
    indexer) start together; importing ~360 modules side by side, beside the UI thread,
    made the window's first full-quality search later and its UI stalls longer (A/B, 10
    starts at 100k each: ready 1.25-1.6 s and stalls 35-55 ms, one 108; one at a time
    1.0-1.5 s and 27-41 ms). Not before the window shows: it pulls in numpy and the engine.
    The lane lets go of the GIL before each module it loads (_Polite): 6 starts at 100k
    each, longest UI stall 31-59 ms before, 12-29 ms after (window ready 1.2-1.8 s both)."""
    with _IMPORTING:
        # (asked only for modules not loaded yet; never on the UI thread: it is the one let in)
        polite = None if threading.current_thread() is threading.main_thread() else _Polite(threading.get_ident())
        if polite is not None:
            sys.meta_path.insert(0, polite)
        try:
            from memdesk.core.search import engine
            from memdesk.core.search.index import indexer
            from memdesk.core.search.language import tokenize
            from memdesk.core.search.query import query
            from memdesk.core.search.rank.fusion import SearchWeights
        finally:
            if polite is not None:
                sys.meta_path.remove(polite)
    return SimpleNamespace(
        SearchEngine=engine.SearchEngine, SearchWeights=SearchWeights, indexer=indexer, query=query, tokenize=tokenize
    )


class _Polite:
    """A meta path entry that finds nothing; before each module the importing lane loads,
    it lets go of the GIL for a moment. An import's many file reads and stats each let go
    of the GIL too, but only for microseconds: the importer takes it straight back, and as
    the GIL has changed hands each time, the UI thread never asks for it to be dropped:
    it waited 40-60 ms at a time while the search modules loaded (seen by sampling every
    thread's stack and the UI thread's CPU time during each UI stall at 100k)."""

    def __init__(self, thread: int):
        self.thread = thread

    def find_spec(self, name, path=None, target=None):
        if threading.get_ident() == self.thread:
            time.sleep(IMPORT_YIELD_S)
        return None


def _query_lang():
    return _core_search().query


def highlight_terms(text: str) -> tuple[str, ...]:
    """Positive words and phrases of a query (not the ones under a minus)."""
    query_lang = _query_lang()
    tree = query_lang.parse(text, lenient=True)
    negated = set()
    for node in query_lang.walk(tree):
        if isinstance(node, query_lang.Not):
            negated.update(id(n) for n in query_lang.walk(node.child))
    words = [
        n.text
        for n in query_lang.walk(tree)
        if isinstance(n, (query_lang.Word, query_lang.Phrase)) and id(n) not in negated and n.text
    ]
    return tuple(dict.fromkeys(words))


def stored_weights(store):
    weights = _core_search().SearchWeights
    value = store.setting(WEIGHTS_KEY, None)
    if not isinstance(value, dict):
        return weights()
    known = {
        k: float(v)
        for k, v in value.items()
        if k in ("fusion", "importance", "heat", "freshness") and isinstance(v, (int, float))
    }
    return weights(**known)


def shared_tokenizer():
    """One jieba per process: loading its dictionary costs about a second each time."""
    return _core_search().tokenize.shared_tokenizer()


def _active_embedder():
    from memdesk.core.embed import active_embedder

    return active_embedder()


class SearchBackend:
    # () -> (embedder or None, why not): the installed model by default; tests pass a model-free one
    embedder_factory = staticmethod(_active_embedder)

    def __init__(self, store):
        self.store = store
        self.engine = None  # opened by prepare() or by the first search, whichever comes first
        self.notice = ""  # e.g. why search is keyword-only
        self._lock = threading.Lock()

    def open_engine(self):
        """The engine over the store's index (loads its columns: well under a second)."""
        with self._lock:
            if self.engine is None:
                search = _core_search()
                embedder, self.notice = self.embedder_factory()
                engine = search.SearchEngine(
                    self.store, embedder, weights=stored_weights(self.store), tokenizer=shared_tokenizer()
                )
                engine.catch_up()
                self.engine = engine
            return self.engine

    def prepare(self, *, cancel=lambda: False, progress=lambda done, total: None) -> int:
        """Open the engine and cut what an upgrade left uncut (work lane).

        Searches run meanwhile and see the cut memories as each batch lands.
        Returns the memory count. The word lists load apart, in warm_up.
        """
        pending = _core_search().indexer.pending
        engine = self.open_engine()
        if pending(self.store.connection()):
            engine.build(cancel=cancel, progress=progress)
        return len(engine)

    def warm_up(self, *, cancel=lambda: False, progress=lambda done, total: None) -> None:
        """jieba (usually loaded by now), the synonym lists and pinyin's table (work lane)."""
        engine = self.open_engine()
        engine.warm_up()
        engine.warm_up_typing()

    @property
    def engine_ready(self) -> bool:
        return self.engine is not None

    def stale_vectors(self) -> int:
        """Memories whose vector for the active model is missing or out of date."""
        engine = self.engine
        if engine is None or engine.embedder is None:
            return 0
        return len(self.store.stale_vector_ids(engine.embedder.model_id))

    def embed(self, *, cancel=lambda: False, progress=lambda done, total: None) -> int:
        """The embedding job (work lane): vectors for every stale memory, then into the index."""
        from memdesk.core.embed import reembed

        engine = self.engine
        if engine is None or engine.embedder is None:
            return 0
        done = reembed(self.store, engine.embedder, cancel=cancel, progress=progress)
        if done:  # re-reading every vector is ~1 s at 100k: not when none was stale
            engine.reload_vectors()
        return done

    def set_weights(self, weights) -> None:
        if self.engine is not None:
            self.engine.weights = weights

    def apply(self, changes) -> None:
        """Keep the index current (search lane; re-reads the changed memories)."""
        if self.engine is not None and changes:
            self.engine.apply(changes)

    def catch_up(self) -> bool:
        """After another process wrote: the engine reads the change feed."""
        if self.engine is not None:
            self.engine.catch_up()
        return True

    def search(self, text: str, *, persona=queries.ALL, limit: int = LIMIT, offset: int = 0) -> Outcome:
        started = time.perf_counter()
        query_lang = _query_lang()
        terms = highlight_terms(text)
        try:
            query_lang.parse(text)
        except query_lang.QuerySyntaxError as exc:
            return Outcome(text, [], terms, error=query_error_text(exc))
        engine = self.open_engine()
        result = engine.search(text, persona=persona, limit=limit, offset=offset, record_access=False)
        hits = [Hit(h.id, h.score, h.explain, h.explain.highlights(), h.record) for h in result.hits]
        return Outcome(
            text,
            hits,
            terms,
            total=result.total,
            notice=result.notice,
            elapsed_ms=(time.perf_counter() - started) * 1000,
            offset=offset,
        )

    def matching(self, text: str, *, persona=queries.ALL) -> list[str]:
        """Every match of the search, in rank order, as ids only: a table sorting all of them."""
        query_lang = _query_lang()
        try:
            query_lang.parse(text)
        except query_lang.QuerySyntaxError:
            return []
        return self.open_engine().matching(text, persona=persona)

    def hits_of(self, text: str, ids: list[str], *, persona=queries.ALL) -> list[Hit]:
        """The search's hits for these memories (rows on screen of a table sorting every match)."""
        query_lang = _query_lang()
        try:
            query_lang.parse(text)
        except query_lang.QuerySyntaxError:
            return []
        found = self.open_engine().hits_of(text, ids, persona=persona)
        return [Hit(h.id, h.score, h.explain, h.explain.highlights(), h.record) for h in found]
