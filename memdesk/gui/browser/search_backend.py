"""The one function the search bar calls: ``SearchBackend.search``.

It asks the core's SearchEngine once its index is built (on a worker, after
the window shows: jieba and the embedding model load there), and until then
a plain SQLite substring search with the same query syntax. Searches from
the window never count as an access (record_access=False): looking is not
remembering. Every call here runs off the UI thread, on the task manager's
single-threaded "search" lane, so index updates and searches keep their order.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from peewee import fn

from ...core import models, queries
from ...core.models import Memory, MemoryTag
from ...core.times import now_utc
from .briefs import _bind, changed_since

log = logging.getLogger(__name__)
LIMIT = 100  # a screenful is ~20; more than 100 means the query needs another word
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
    engine: str = "substring"  # "engine" once the index is built
    total: int = 0
    notice: str = ""
    elapsed_ms: float = 0.0


def _query_lang():
    # Importing memdesk.core.search pulls in numpy and the engine: not before the window shows.
    from ...core.search import query

    return query


def highlight_terms(text: str) -> tuple[str, ...]:
    """Positive words and phrases of a query (not the ones under a minus)."""
    query_lang = _query_lang()
    tree = query_lang.parse(text, lenient=True)
    negated = set()
    for node in query_lang.walk(tree):
        if isinstance(node, query_lang.Not):
            negated.update(id(n) for n in query_lang.walk(node.child))
    words = [n.text for n in query_lang.walk(tree)
             if isinstance(n, (query_lang.Word, query_lang.Phrase)) and id(n) not in negated and n.text]
    return tuple(dict.fromkeys(words))


def stored_weights(store):
    from ...core.search import SearchWeights

    value = store.setting(WEIGHTS_KEY, None)
    if not isinstance(value, dict):
        return SearchWeights()
    known = {k: float(v) for k, v in value.items()
             if k in ("fusion", "importance", "heat", "freshness") and isinstance(v, (int, float))}
    return SearchWeights(**known)


_tokenizer = None
_tokenizer_lock = threading.Lock()


def shared_tokenizer():
    """One jieba per process: loading its dictionary costs about a second each time."""
    global _tokenizer
    with _tokenizer_lock:
        if _tokenizer is None:
            from ...core.search import Tokenizer

            _tokenizer = Tokenizer()
        return _tokenizer


def _active_embedder():
    from ...core.embed import active_embedder

    return active_embedder()


class SearchBackend:
    # () -> (embedder or None, why not): the installed model by default; tests pass a model-free one
    embedder_factory = staticmethod(_active_embedder)

    def __init__(self, store):
        self.store = store
        self.engine = None  # set once built; until then the SQLite fallback answers
        self.notice = ""  # e.g. why search is keyword-only

    def prepare(self, *, cancel=lambda: False, progress=lambda done, total: None) -> int:
        """Load jieba and the model, build the index (work lane). Returns the memory count."""
        from ...core.search import SearchEngine

        embedder, self.notice = self.embedder_factory()
        engine = SearchEngine(self.store, embedder, weights=stored_weights(self.store),
                              tokenizer=shared_tokenizer())
        engine.warm_up()
        count = engine.build(cancel=cancel, progress=progress)
        self.engine = engine
        return count

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
        from ...core.embed import reembed

        engine = self.engine
        if engine is None or engine.embedder is None:
            return 0
        done = reembed(self.store, engine.embedder, cancel=cancel, progress=progress)
        engine.reload_vectors()
        return done

    def set_weights(self, weights) -> None:
        if self.engine is not None:
            self.engine.weights = weights

    def apply(self, changes) -> None:
        """Keep the index current (search lane; re-reads the changed memories)."""
        if self.engine is not None and changes:
            self.engine.apply(changes)

    def catch_up(self, since) -> bool:
        """After another process wrote: re-index what changed since ``since``.

        False when that is not enough (memories were purged): build again.
        """
        engine = self.engine
        if engine is None:
            return True
        from ...core.changes import Changes

        ids = tuple(changed_since(self.store, since))
        if ids:
            engine.apply(Changes(updated=ids))
        return len(engine) == self.store.count(state="all")

    def search(self, text: str, *, persona=queries.ALL, limit: int = LIMIT) -> Outcome:
        started = time.perf_counter()
        query_lang = _query_lang()
        terms = highlight_terms(text)
        try:
            tree = query_lang.parse(text)
        except query_lang.QuerySyntaxError as exc:
            return Outcome(text, [], terms, error=exc.reason)
        engine = self.engine
        if engine is not None:
            result = engine.search(text, persona=persona, limit=limit, record_access=False)
            hits = [Hit(h.id, h.score, h.explain, tuple(h.explain.matched_words) + tuple(h.explain.matched_bigrams),
                        h.record) for h in result.hits]
            return Outcome(text, hits, terms, engine="engine", total=result.total, notice=result.notice,
                           elapsed_ms=(time.perf_counter() - started) * 1000)
        hits = self._substring(tree, persona, limit)
        return Outcome(text, hits, terms, total=len(hits), elapsed_ms=(time.perf_counter() - started) * 1000)

    def _substring(self, tree, persona, limit) -> list[Hit]:
        query_lang = _query_lang()
        _bind(self.store)
        condition = _condition(tree)
        state_filtered = any(isinstance(n, query_lang.Filter) and n.field == "is" for n in query_lang.walk(tree))
        query = queries.filtered(persona=persona, merge_global=True, state="all" if state_filtered else "active")
        query = query.select(Memory.id)
        if condition is not None:
            query = query.where(condition)
        query = query.order_by(Memory.updated_at.desc()).limit(limit)
        sql, params = query.sql()
        rows = models.database.execute_sql(sql, params).fetchall()
        explain = {"backend": "substring (the search index is still being built)",
                   "order": "most recently updated first"}
        return [Hit(mid, 0.0, explain) for (mid,) in rows]


# ---- the SQLite fallback's reading of the query tree ------------------------------------------
def _like(text: str):
    haystack = fn.lower(Memory.title.concat(" ").concat(Memory.content).concat(" ").concat(Memory.tags)
                        .concat(" ").concat(Memory.group))
    return haystack.contains(text.lower())


def _condition(node):
    Q = _query_lang()
    if isinstance(node, Q.Everything):
        return None
    if isinstance(node, (Q.Word, Q.Phrase)):
        return _like(node.text)
    if isinstance(node, Q.Not):
        inner = _condition(node.child)
        return None if inner is None else ~inner
    if isinstance(node, (Q.And, Q.Or)):
        parts = [c for c in (_condition(child) for child in node.children) if c is not None]
        if not parts:
            return None
        out = parts[0]
        for part in parts[1:]:
            out = (out & part) if isinstance(node, Q.And) else (out | part)
        return out
    if isinstance(node, Q.Filter):
        return _filter(node)
    return None


def _filter(f):
    value = f.value
    if f.field == "tag":
        return Memory.id.in_(MemoryTag.select(MemoryTag.memory).where(MemoryTag.tag == value))
    if f.field == "group":
        return (Memory.group == value) | Memory.group.startswith(value + "/")
    if f.field in ("type", "scope", "tier"):
        return getattr(Memory, f.field) == value.lower()
    if f.field == "id":
        return Memory.id.startswith(value)
    if f.field == "persona":
        if value.lower() in ("global", "全局", ""):
            return Memory.persona.is_null()
        persona = models.Persona.get_or_none(models.Persona.name == value)
        return Memory.persona == (persona.id if persona else value)
    if f.field == "is":
        return queries.state_condition(value.lower(), now_utc())
    if f.field == "importance":
        number = int(value) if value.lstrip("-").isdigit() else 0
        column = Memory.importance
        return {">=": column >= number, "<=": column <= number, ">": column > number,
                "<": column < number}.get(f.op, column == number)
    return None
