"""SearchEngine: the index of a store, kept current, and the search itself.

With a store, the index is the store's own (search/indexer.py writes it in
every write transaction; search/stored.py reads it): ``build`` only opens it,
and each search first catches up with the change feed, so another process's
write is found by the next search. Without a store (tests, benchmarks) the
in-memory SearchIndex is built from records (``put``/``remove``); there
``build`` may run on a worker while searches use the previous index, and
changes applied meanwhile are replayed. Searches, ``apply`` and the swap
hold one lock, so searches from several threads are safe but run one at a
time. Call ``warm_up`` (jieba's dictionary and the thesaurus, ~0.5 s) from
a worker before the first search.

How a search runs: the query is parsed (query.py) and split into ranked free
words and constraints (filters.py); the free words produce up to four
rankings over the memories in scope (keyword BM25, its expansion with
related terms, substring, vector similarity); RRF fuses them — or, when
vectors take part, a convex mix of standardised keyword and vector scores —
and for questions the best hits lend a share of their score to the memories
stored next to them in the same conversation. The final score adds
importance, heat and freshness (fusion.py). Memories found only by
substring follow the ranked hits (seed 000's fallback).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from ..changes import Changes
from ..embedding import Embedder, embed_text, text_hash
from ..errors import CancelledError
from ..records import MemoryRecord
from ..times import now_utc
from .explain import HitExplanation, MissExplanation, script_matches
from .filters import Evaluator, Plan, plan, visible_mask
from .fusion import SearchWeights, context_lift, final_scores, hybrid, rrf
from .index import SearchIndex, vocabulary_of
from .keyword import KeywordSettings, QueryTerms
from .query import parse
from .rankings import interleave, needles, ranked
from .script import available as script_folding
from .stored import StoredIndex
from .tokenize import Tokenizer, normalise
from .wordclass import function_words

VECTOR_DEPTH = 50  # the most similar memories a vector ranking contributes
SUBSTRING_CAP = 1000  # per word, when a limit is given
INLINE_EMBED_LIMIT = 64  # changed memories embedded in apply(); more wait for reembed()
NO_EMBEDDER = "keyword search only: no embedding model is set up"


@dataclass(frozen=True)
class SearchHit:
    id: str
    score: float
    record: MemoryRecord
    explain: HitExplanation


@dataclass
class SearchResult:
    query: str  # the query as parsed, rendered back to normalised text
    hits: list[SearchHit]
    # Memories that match, before the limit. With a limit, the substring
    # fallback is skipped once the ranked hits fill it, so total may then
    # leave out substring-only matches; with limit=None it is exact.
    total: int
    semantic: bool  # vector similarity took part
    notice: str = ""  # e.g. why the search was keyword-only
    expanded_with: tuple[str, ...] = ()  # related terms the keyword ranking added
    changes: Changes = field(default_factory=Changes)  # from record_access

    @property
    def ids(self) -> list[str]:
        return [h.id for h in self.hits]


@dataclass
class _Ranking:
    """Everything one query computed, kept for hits and for explain."""

    plan: Plan
    terms: QueryTerms
    expansion: QueryTerms  # related terms added to the keyword ranking
    order: np.ndarray  # result slots, best first
    final: np.ndarray
    fusion: np.ndarray
    ranks: dict
    parts: dict  # per-slot arrays: bm25, bigram, keyword, vector, importance, heat, freshness
    allowed: np.ndarray
    visible: np.ndarray
    semantic: bool
    notice: str


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
        # Not pinyin's character table (~12 MB, one 30 ms parse holding the GIL): only a
        # pinyin hit's "why found" and mixed queries (ka啡) need it, and they read it then.

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
            from .indexer import build as cut_pending

            cut_pending(self.store, cancel=cancel, progress=progress)
            if cancel():
                raise CancelledError("index build cancelled; it resumes where it stopped")
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
                        raise CancelledError("index build cancelled; the previous index is still used")
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
        vectors = embedder.embed(texts)
        items = []
        for (slot, record), text, vector in zip(todo, texts, vectors):
            index.vectors.set(slot, vector, text_hash(text))
            items.append((record.id, text_hash(text), vector))
        if self.persist_vectors and self.store is not None:
            self.store.put_vectors(embedder.model_id, items)

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
        related-term expansion for sentence-like queries.
        """
        now = now or now_utc()
        tree = parse(query, lenient=lenient, now=now)
        self.catch_up()
        with self._lock:
            r = self._rank(tree, persona, now, semantic, expand, limit, lenient)
            hits = self._hits(r, r.order if limit is None else r.order[:limit])
        result = SearchResult(
            tree.render(), hits, len(r.order), r.semantic, r.notice, expanded_with=tuple(r.expansion.words)
        )
        if record_access and hits and self.store is not None:
            result.changes = self.store.touch([h.id for h in hits])
            self.apply(result.changes)
        return result

    def _resolve_persona(self, value: str) -> set:
        text = normalise(value).strip()
        if text in ("", "global", "全局", "none"):
            return {None}
        personas = self.store.personas() if self.store is not None else self._personas
        return {p.id for p in personas if normalise(p.name) == text or p.id == value}

    def _rank(self, tree, persona, now, semantic, expand, limit, lenient=False) -> _Ranking:
        index = self._index
        table, size = index.table, index.table.size
        query_plan = plan(tree, soft_phrases=lenient)
        visible = visible_mask(table, persona, tree, now)
        evaluator = Evaluator(table, index.keyword, index.substring, self._resolve_persona, now)
        allowed = visible.copy()
        for node in query_plan.constraints:
            allowed &= evaluator.mask(node)

        parts = index.keyword.analyse_parts(query_plan.rank_texts)
        terms = parts[0]
        if len(parts) > 1:
            terms = QueryTerms(sentence=True)
            for part in parts:
                terms.add(part)
        rankings: dict[str, np.ndarray] = {}
        tie_scores: dict[str, np.ndarray] = {}
        zeros = np.zeros(size)
        word_bm25, gram_bm25 = index.keyword.scores(terms, size) if terms else (zeros, zeros)
        pinyin_bm25 = index.keyword.pinyin_scores(terms, size) if terms.pinyin else zeros
        keyword = word_bm25 + self.keyword_settings.bigram_weight * gram_bm25 + pinyin_bm25
        expansion = QueryTerms()
        if terms:
            part_rankings = []
            for part in parts:
                part_scores = keyword if len(parts) == 1 else index.keyword.combined(part, size)
                extra = self._expansion(part, part_scores, allowed, expand)
                if extra:
                    expansion.add(extra)
                    expanded = QueryTerms(dict(part.words), dict(part.bigrams))
                    expanded.add(extra)
                    expanded_scores = index.keyword.combined(expanded, size)
                    if self.keyword_settings.expand_mode == "fuse":
                        rankings["expanded"] = ranked(expanded_scores, allowed)
                    else:
                        part_scores = expanded_scores
                part_rankings.append(ranked(part_scores, allowed))
            if len(part_rankings) == 1:
                rankings["keyword"] = part_rankings[0]
                tie_scores["keyword"] = part_scores
            else:
                rankings["keyword"] = interleave(part_rankings)
        similarity = np.full(size, np.nan)
        semantic_used, notice = False, ""
        if self.embedder is None:
            notice = NO_EMBEDDER
        elif semantic and query_plan.rank_texts and index.vectors is not None and len(index.vectors):
            qvec = self.embedder.embed([" ".join(query_plan.rank_texts)], query=True)[0]
            similarity = index.vectors.similarities(qvec, size)
            candidates = np.where(allowed & ~np.isnan(similarity))[0]
            top = candidates[np.argsort(-similarity[candidates], kind="stable")[:VECTOR_DEPTH]]
            rankings["vector"] = top
            tie_scores["vector"] = np.nan_to_num(similarity, nan=-2.0)
            semantic_used = True
            covered = int(index.vectors.has(size)[visible].sum())
            if covered < int(visible.sum()):
                notice = f"{int(visible.sum()) - covered} memories have no vector yet; they are found by keyword only"
        elif self.embedder is not None and semantic and (index.vectors is None or not len(index.vectors)):
            notice = "keyword search only: no memory has a vector for this model yet"

        # Substring fallback: only what the rankings above missed, after them.
        found_elsewhere = np.zeros(size, dtype=bool)
        for slots in rankings.values():
            found_elsewhere[slots] = True
        words = needles(query_plan.soft_words if query_plan.retrieval else query_plan.rank_texts)
        if words and (limit is None or int((found_elsewhere & allowed).sum()) < limit):
            counts = np.zeros(size)
            cap = SUBSTRING_CAP if limit is not None else None
            for needle in words:
                counts[index.substring.find(needle, allowed & ~found_elsewhere, cap)] += 1
            hit = np.where(counts > 0)[0]
            rankings["substring"] = hit[np.lexsort((-keyword[hit], -counts[hit]))]

        fusion, ranks = rrf(rankings, size, self.weights.rrf_k, tie_scores)
        if query_plan.retrieval:
            members = np.zeros(size, dtype=bool)
            for slots in rankings.values():
                members[slots] = True
            members &= allowed
        else:
            members = allowed
        if "vector" in rankings:
            keyword_signal = tie_scores.get("keyword")
            if keyword_signal is None:  # several questions: their interleaved order is all there is
                lists: dict[str, np.ndarray] = {n: rankings[n] for n in ("keyword", "expanded") if n in rankings}
                keyword_signal = rrf(lists, size, self.weights.rrf_k)[0]
            fusion = hybrid(keyword_signal, similarity, allowed, members, self.weights.keyword_share)
        scored = "keyword" in tie_scores or "vector" in rankings  # interleaved questions have ranks only
        if terms.sentence and scored and self.weights.context > 0 and query_plan.retrieval:
            fusion, members = self._lift_context(fusion, ranks, rankings, members, allowed)
        slots = np.where(members)[0]
        importance = table.importance01(slots)
        heat = table.heat01(slots, now)
        freshness = table.freshness01(slots, now, self.weights.freshness_half_life_days)
        final = final_scores(self.weights, fusion[slots], importance, heat, freshness)
        ranked_hit = np.zeros(len(slots), dtype=bool)
        for name in ("keyword", "expanded", "vector", "context"):
            if name in ranks:
                ranked_hit |= ranks[name][slots] > 0
        substring_hit = ranks["substring"][slots] > 0 if "substring" in ranks else np.zeros(len(slots), bool)
        group = np.where(ranked_hit, 0, np.where(substring_hit, 2, 3))
        if terms.pinyin:  # found by pinyin alone: after every literal hit (kafei the word before 咖啡)
            literal = (word_bm25[slots] > 0) | (gram_bm25[slots] > 0)
            others = np.zeros(len(slots), dtype=bool)
            for name in ("expanded", "vector", "context"):
                if name in ranks:
                    others |= ranks[name][slots] > 0
            group = np.where((group == 0) & ~literal & ~others & (pinyin_bm25[slots] > 0), 1, group)
        order = np.lexsort((slots, -final, group))

        final_all = np.zeros(size)
        final_all[slots] = final
        parts = {
            "bm25": word_bm25,
            "bigram": gram_bm25,
            "pinyin": pinyin_bm25,
            "keyword": keyword,
            "vector": similarity,
        }
        for name, values in (("importance", importance), ("heat", heat), ("freshness", freshness)):
            full = np.zeros(size)
            full[slots] = values
            parts[name] = full
        return _Ranking(
            query_plan,
            terms,
            expansion,
            slots[order],
            final_all,
            fusion,
            ranks,
            parts,
            allowed,
            visible,
            semantic_used,
            notice,
        )

    def _lift_context(self, fusion, ranks, rankings, members, allowed):
        """The best few found memories lend a share of their score to their neighbours
        (fusion.context_lift); memories reached that way join the results."""
        size = len(fusion)
        found = np.zeros(size, dtype=bool)
        for name in ("keyword", "expanded", "vector"):
            if name in rankings:
                found[rankings[name]] = True
        candidates = np.where(found)[0]
        if len(candidates) == 0:
            return fusion, members
        lenders = np.zeros(size, dtype=bool)
        lenders[candidates[np.argsort(-fusion[candidates], kind="stable")[: self.weights.context_from]]] = True
        previous, following = self._index.table.neighbours(self.weights.context_window_s)
        lifted = context_lift(fusion, lenders, allowed, previous, following, self.weights.context)
        gained = np.where(lifted > fusion)[0]
        rank = np.zeros(size, dtype=np.int64)
        rank[gained[np.argsort(fusion[gained] - lifted[gained], kind="stable")]] = np.arange(1, len(gained) + 1)
        ranks["context"] = rank
        members = members.copy()
        members[gained] = True
        top = lifted[members].max()
        return (lifted / top if top > 0 else lifted), members

    def _expansion(self, terms: QueryTerms, scores: np.ndarray, allowed: np.ndarray, expand: bool) -> QueryTerms:
        # RM3 practice: the expanded query replaces the literal ranking (keeping
        # both as separate RRF lists cost recall in stores full of chatter: the
        # literal list re-promotes chatter matches).
        keyword = self._index.keyword
        if not (expand and keyword.should_expand(terms)):
            return QueryTerms()
        return keyword.expansion(terms, scores, allowed)

    def _hits(self, r: _Ranking, shown: np.ndarray) -> list[SearchHit]:
        # Columns converted once (tolist) rather than per hit: this runs on every keystroke.
        table, keyword = self._index.table, self._index.keyword
        cols = {name: values[shown].tolist() for name, values in r.parts.items()}
        fusion, final = r.fusion[shown].tolist(), r.final[shown].tolist()
        ranks = {name: rank[shown].tolist() for name, rank in r.ranks.items()}
        hits = []
        records = table.records_of(shown.tolist())
        prefetch = getattr(keyword.words, "prefetch", None)
        if prefetch is not None and r.terms.pinyin:  # naming a pinyin match reads the hits' word bags
            prefetch(shown.tolist(), keyword.bigrams)
        for i, slot in enumerate(shown.tolist()):
            words, grams = keyword.matched(slot, r.terms)
            pinyin = keyword.matched_pinyin(slot, r.terms) if r.terms.pinyin else []
            record = records[slot]
            folded = script_matches(r.plan.rank_texts, record, words + grams)
            hit_ranks = {name: (values[i] or None) for name, values in ranks.items()}
            sim = cols["vector"][i]
            explanation = HitExplanation(
                matched_words=tuple(words),
                matched_bigrams=tuple(grams),
                bm25=cols["bm25"][i],
                bigram_bm25=cols["bigram"][i],
                keyword_score=cols["keyword"][i],
                vector_similarity=None if sim != sim else sim,
                ranks=hit_ranks,
                fusion=fusion[i],
                importance=cols["importance"][i],
                heat=cols["heat"][i],
                freshness=cols["freshness"][i],
                final=final[i],
                found_by=tuple(n for n, v in hit_ranks.items() if v),
                position=i + 1,
                matched_pinyin=tuple(pinyin),
                matched_script=folded,
                pinyin_score=cols["pinyin"][i],
            )
            hits.append(SearchHit(record.id, final[i], record, explanation))
        return hits

    # ---- why not ------------------------------------------------------------------
    def explain_missing(
        self,
        query: str,
        memory_id: str,
        *,
        persona: str | None = None,
        limit: int | None = 20,
        semantic: bool = True,
        expand: bool = True,
        lenient: bool = False,
        now: datetime | None = None,
    ) -> MissExplanation:
        """Why ``memory_id`` is (not) among the first ``limit`` results of this search (why_not.py)."""
        from .why_not import explain_missing

        return explain_missing(
            self,
            query,
            memory_id,
            persona=persona,
            limit=limit,
            semantic=semantic,
            expand=expand,
            lenient=lenient,
            now=now,
        )

    def _persona_name(self, persona_id: str | None) -> str:
        personas = self.store.personas() if self.store is not None else self._personas
        return next((p.name for p in personas if p.id == persona_id), persona_id or "global")
