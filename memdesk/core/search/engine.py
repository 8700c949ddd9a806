"""SearchEngine: the index of a store, kept current, and the search itself.

With a store, the index is the store's own (search/index/indexer.py writes it in
every write transaction; search/index/stored.py reads it): ``build`` only opens it,
and each search first catches up with the change feed, so another process's
write is found by the next search. Without a store (tests, benchmarks) the
in-memory SearchIndex is built from records (``put``/``remove``); there
``build`` may run on a worker while searches use the previous index, and
changes applied meanwhile are replayed. Searches, ``apply`` and the swap
hold one lock, so searches from several threads are safe but run one at a
time. Call ``warm_up`` (jieba's dictionary and the thesaurus, ~0.5 s) from
a worker before the first search.

How a search runs: the query is parsed (query.py) and split into ranked free
words and constraints (filters.py); ranker.py ranks the memories in scope
(keyword BM25 and its expansion, substring, vectors, fused) and this module
turns the first ones into hits (hits.py: why each was found is worked out when asked).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import numpy as np

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.embedding import Embedder, embed_text, text_hash
from memdesk.core.domain.errors import CancelledError
from memdesk.core.domain.records import MemoryRecord
from memdesk.core.domain.times import now_utc
from memdesk.core.search.index.in_memory import SearchIndex, vocabulary_of
from memdesk.core.search.index.keyword_settings import KeywordSettings
from memdesk.core.search.index.stored import StoredIndex
from memdesk.core.search.language.script import available as script_folding
from memdesk.core.search.language.tokenize import Tokenizer, normalise
from memdesk.core.search.language.wordclass import function_words
from memdesk.core.search.query.query import parse
from memdesk.core.search.rank.explain import MissExplanation
from memdesk.core.search.rank.fusion import SearchWeights
from memdesk.core.search.rank.hits import Explanations, SearchHit, explain_hits
from memdesk.core.search.rank.ranker import Asked, Ranking, RankInputs, rank
from memdesk.core.search.rank.why_not import explain_missing

INLINE_EMBED_LIMIT = 64  # changed memories embedded in apply(); more wait for reembed()


@dataclass
class SearchResult:
    query: str  # the query as parsed, rendered back to normalised text
    hits: list[SearchHit]
    # Memories that match, before the offset and limit. With a limit, the
    # substring fallback is skipped once the ranked hits fill offset + limit, so
    # total may then leave out substring-only matches (a later page, which asks
    # for more, counts them); with limit=None it is exact.
    total: int
    semantic: bool  # vector similarity took part
    notice: str = ""  # e.g. why the search was keyword-only
    expanded_with: tuple[str, ...] = ()  # related terms the keyword ranking added
    changes: Changes = field(default_factory=Changes)  # from record_access

    @property
    def ids(self) -> list[str]:
        return [h.id for h in self.hits]


class SearchEngine:
    def __init__(
        self,
        store=None,
        embedder: Embedder | None = None,
        *,
        weights: SearchWeights | None = None,
        keyword: KeywordSettings | None = None,
        tokenizer: Tokenizer | None = None,
        persist_vectors: bool = True,
    ):
        self.store = store
        self.embedder = embedder
        self.weights = weights or SearchWeights()
        self.keyword_settings = keyword or KeywordSettings()
        if store is not None and tokenizer is not None:
            store.tokenizer = tokenizer  # writes and queries cut alike, with one jieba
        self.tokenizer = tokenizer or (store.tokenizer if store is not None else Tokenizer())
        self.persist_vectors = persist_vectors
        self._lock = threading.RLock()
        self._index = self._new_index()
        self._personas: list = []
        self._building = False
        self._pending: list[Changes] = []

    def _new_index(self):
        model = (self.embedder.model_id, self.embedder.dim) if self.embedder is not None else None
        if self.store is not None:
            return StoredIndex(self.store, self.tokenizer, self.keyword_settings, model)
        return SearchIndex(self.tokenizer, self.keyword_settings, model)

    @property
    def stored(self) -> bool:
        """The index lives in the store (else in this process's memory)."""
        return self.store is not None

    def warm_up(self) -> None:
        """Load jieba and the thesaurus now; call from a worker thread at start-up."""
        self.tokenizer.warm_up()
        self._index.keyword.thesaurus.load()
        function_words()  # questions' function words (wordclass.py; ~5 ms once cached)
        script_folding()  # OpenCC (~35 ms): here, not on the first keystroke with a Chinese character

    def warm_up_typing(self) -> None:
        """What search-as-you-type reaches for soon after warm_up (the window calls both):
        the English stemmer (its import, 10-40 ms, on the first English word) and pinyin's
        character table (~4 MB, ~30 ms from its cache in pieces; a pinyin hit's "why found"
        and mixed queries such as ka啡 need it: the first "kf" typed waited ~50 ms). Not in
        warm_up: the MCP server warms up under the lock its first search waits for."""
        self.tokenizer.load_stemmer()
        self._index.keyword.reader.load()

    def __len__(self) -> int:
        return len(self._index.table)

    # ---- building and keeping current ------------------------------------------------
    def build(
        self,
        records: Iterable[MemoryRecord] | None = None,
        *,
        cancel: Callable[[], bool] = lambda: False,
        progress: Callable[[int, int], None] = lambda done, total: None,
    ) -> int:
        """Make the index ready; returns how many memories it holds.

        With a store the index is already there: this cuts what an upgrade
        left uncut (resumable, with progress) and loads the columns, well
        under a second at 100k. Without one, it builds from ``records``.
        """
        if self.store is not None and records is None:
            from memdesk.core.search.index.indexer import build as cut_pending

            cut_pending(self.store, cancel=cancel, progress=progress)
            if cancel():
                raise CancelledError(code="index_build_cancelled")
            index = self._new_index()
            index.load()
            with self._lock:
                self._index = index
            return len(index.table)
        with self._lock:
            self._building, self._pending = True, []
        try:
            records = list(records if records is not None else self.store.iter_records())
            personas = self.store.personas() if self.store is not None else self._personas
            index = self._new_index()
            index.learn([p.name for p in personas])
            index.learn(w for r in records for w in vocabulary_of(r))  # before cutting any text
            total = len(records)
            for done, record in enumerate(records, 1):
                index.put(record)
                if done % 500 == 0:
                    if cancel():
                        raise CancelledError(code="index_rebuild_cancelled")
                    progress(done, total)
            if index.vectors is not None and self.embedder is not None and self.store is not None:
                # (index.vectors exists only with an embedder: _new_index)
                index.set_vectors(*self.store.load_vectors(self.embedder.model_id))
            progress(total, total)
            with self._lock:
                self._index, self._personas = index, personas
                pending, self._pending = self._pending, []
                self._building = False
                for changes in pending:
                    self.apply(changes)
            return total
        finally:
            with self._lock:
                self._building = False

    def put(self, records: Iterable[MemoryRecord]) -> None:
        """Index records directly (no store needed): add or replace."""
        records = list(records)
        with self._lock:
            self._index.learn(w for r in records for w in vocabulary_of(r))
            for record in records:
                self._index.put(record)

    def remove(self, ids: Iterable[str]) -> None:
        with self._lock:
            for memory_id in ids:
                self._index.remove(memory_id)

    def set_personas(self, personas: list) -> None:
        """PersonaRecords for persona: filters when there is no store."""
        with self._lock:
            self._personas = list(personas)
            self._index.learn(p.name for p in personas)

    def apply(self, changes: Changes) -> None:
        """Bring the index up to date with one Changes value (re-reads those ids)."""
        if self.store is not None:
            self.catch_up()
            return
        if not changes:
            return
        with self._lock:
            if self._building:
                self._pending.append(changes)
            if changes.personas and self.store is not None:
                self.set_personas(self.store.personas())
            ids = changes.memory_ids
            if not ids:
                return
            fresh: dict[str, MemoryRecord] = self.store.get_many(ids) if self.store is not None else {}
            gone = [i for i in ids if i not in fresh]
            self.remove(gone)
            self.put(fresh.values())
            self._embed(list(fresh.values()))

    def catch_up(self) -> bool:
        """Take in what any process (this one too) wrote since the last look."""
        if self.store is None:
            return False
        with self._lock:
            index = self._index
            if index.marker < 0:
                index.load()
                return True
            changed, found = index.catch_up()
            if found and index.vectors is not None:
                fresh = index.table.records_of([slot for slot, _ in found])
                self._embed(list(fresh.values()))
            return changed

    def _embed(self, records: list[MemoryRecord]) -> None:
        index, embedder = self._index, self.embedder
        if index.vectors is None or embedder is None or not records:  # (no vectors without an embedder)
            return
        todo = []
        for record in records:
            slot = index.table.slot(record.id)
            if slot is not None and index.vectors.hash_of(slot) is None and record.deleted_at is None:
                todo.append((slot, record))
        if not todo or len(todo) > INLINE_EMBED_LIMIT:
            return  # a bulk change: reembed() catches up, then reload_vectors()
        texts = [embed_text(r.title, r.content) for _, r in todo]
        hashes = [text_hash(text) for text in texts]
        # The writer embedded it already (`memdesk add`, an assistant's save: embed_written)?
        stored = self.store.stored_vectors(embedder.model_id, [r.id for _, r in todo]) if self.store is not None else {}
        missing = [k for k, (_, r) in enumerate(todo) if stored.get(r.id, ("",))[0] != hashes[k]]
        fresh = dict(zip(missing, embedder.embed([texts[k] for k in missing]))) if missing else {}
        for k, (slot, record) in enumerate(todo):
            index.vectors.set(slot, fresh[k] if k in fresh else stored[record.id][1], hashes[k])
        if self.persist_vectors and self.store is not None and fresh:
            self.store.put_vectors(embedder.model_id, [(todo[k][1].id, hashes[k], v) for k, v in fresh.items()])

    def reload_vectors(self) -> int:
        """Re-read stored vectors (after the reembed job); returns how many are loaded."""
        if self.embedder is None or self.store is None:
            return 0
        with self._lock:
            return self._index.load_vectors()

    def embed_missing(self) -> int:
        """Embed every indexed memory that lacks a vector (no store needed)."""
        with self._lock:
            missing = self._index.missing_vectors()
            for start in range(0, len(missing), INLINE_EMBED_LIMIT):
                self._embed(missing[start : start + INLINE_EMBED_LIMIT])
            return len(missing)

    # ---- searching -------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        persona: str | None = None,
        limit: int | None = 20,
        offset: int = 0,
        record_access: bool = False,
        semantic: bool = True,
        expand: bool = True,
        lenient: bool = False,
        now: datetime | None = None,
    ) -> SearchResult:
        """Ranked memories for ``query``.

        persona: None = every persona, '' = global memories only, an id = that
        persona's memories plus the global ones. record_access: count the hits
        as read (assistants and the brief; not the GUI search bar). lenient:
        for text an assistant sends — never raise on syntax, and quoted text
        ranks instead of being required (filters.plan). expand: allow
        related-term expansion for sentence-like queries. offset: skip that many of the
        ranked results (the window's table fetches page after page); the ranking is the
        one a search with limit=offset+limit makes, so pages join without gaps.
        """
        now = now or now_utc()
        tree = parse(query, lenient=lenient, now=now)
        self.catch_up()
        with self._lock:
            offset = max(0, offset)
            r = self._rank(
                tree, Asked(persona, semantic, expand, lenient, now), None if limit is None else offset + limit
            )
            hits = self._hits(r, r.order[offset:] if limit is None else r.order[offset : offset + limit], offset)
        result = SearchResult(
            tree.render(), hits, r.total, r.semantic, r.notice, expanded_with=tuple(r.expansion.words)
        )
        if record_access and hits and self.store is not None:
            result.changes = self.store.touch([h.id for h in hits])
            self.apply(result.changes)
        return result

    def matching(self, query: str, *, persona: str | None = None, now: datetime | None = None) -> list[str]:
        """The id of every memory ``query`` matches (search()'s total with limit=None), in rank
        order, without a record or an explanation: what a table sorting all of them needs
        (40k matches at 100k memories: the ranking 5-120 ms, their ids one read)."""
        now = now or now_utc()
        tree = parse(query, now=now)
        self.catch_up()
        with self._lock:
            order = self._rank(tree, Asked(persona, now=now), None).order.tolist()
            ids = self._index.table.ids_of(order)
        return [ids[slot] for slot in order if slot in ids]

    def hits_of(
        self, query: str, memory_ids: list[str], *, persona: str | None = None, now: datetime | None = None
    ) -> list[SearchHit]:
        """The hits of ``query`` that are these memories (those it matches), each with its place
        in the whole ranking: the rows on screen of a table sorting every match (matching)."""
        now = now or now_utc()
        tree = parse(query, now=now)
        self.catch_up()
        with self._lock:
            r = self._rank(tree, Asked(persona, now=now), None)
            place = np.full(self._index.table.size, -1, dtype=np.int64)
            place[r.order] = np.arange(len(r.order))
            slots = [s for s in map(self._index.table.slot, memory_ids) if s is not None and place[s] >= 0]
            return self._hits(r, np.array(slots, dtype=np.int64), place[slots].tolist()) if slots else []

    def _resolve_persona(self, value: str) -> set:
        text = normalise(value).strip()
        if text in ("", "global", "全局", "none"):
            return {None}
        personas = self.store.personas() if self.store is not None else self._personas
        return {p.id for p in personas if normalise(p.name) == text or p.id == value}

    def _rank(self, tree, asked: Asked, limit: int | None) -> Ranking:
        return rank(self._rank_inputs(), tree, asked, limit)

    def _rank_inputs(self) -> RankInputs:
        """What a ranking reads of this engine (under the lock: the index is swapped by build)."""
        return RankInputs(self._index, self.weights, self.keyword_settings, self.embedder, self._resolve_persona)

    def _hits(self, r: Ranking, shown: np.ndarray, offset: int | list[int] = 0) -> list[SearchHit]:
        # Columns converted once (tolist) rather than per hit: this runs on every keystroke.
        slots = shown.tolist()
        cols = {name: values[shown].tolist() for name, values in r.parts.items()}
        fusion, final = r.fusion[shown].tolist(), r.final[shown].tolist()
        ranks = {name: rank[shown].tolist() for name, rank in r.ranks.items()}
        found = self._index.table.records_of(slots)
        records = [found[slot] for slot in slots]
        asked, numbers = (r.terms, r.plan.rank_texts), (cols, fusion, final, ranks)
        first = [p + 1 for p in offset] if isinstance(offset, list) else offset + 1
        explanations = Explanations(
            lambda: explain_hits(self._lock, lambda: self._index, asked, slots, records, numbers, first)
        )
        return [SearchHit(record.id, final[i], record, explanations, i) for i, record in enumerate(records)]

    # ---- why not ------------------------------------------------------------------
    def explain_missing(self, query: str, memory_id: str, *, limit: int | None = 20, **options: Any) -> MissExplanation:
        """Why ``memory_id`` is (not) among the first ``limit`` results of this search; the
        other options are search()'s (persona, semantic, expand, lenient, now): why_not.py."""
        asked = Asked(**options)
        asked = replace(asked, now=asked.now or now_utc())
        tree = parse(query, lenient=asked.lenient, now=asked.now)
        self.catch_up()
        with self._lock:
            return explain_missing(self._rank_inputs(), self._persona_name, tree, asked, memory_id, limit)

    def _persona_name(self, persona_id: str | None) -> str:
        personas = self.store.personas() if self.store is not None else self._personas
        return next((p.name for p in personas if p.id == persona_id), persona_id or "global")
