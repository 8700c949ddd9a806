"""One query's ranking over a search index (the engine's search and why_not.py share it).

What a ranking reads comes in a RankInputs: the index and the settings, handed by the
engine, so this module and best_only.py need nothing of the engine itself.

The free words produce up to four rankings over the memories in scope (keyword BM25, its
expansion with related terms, substring, vector similarity); RRF fuses them — or, when
vectors take part, a convex mix of standardised keyword and vector scores — and for
questions the best hits lend a share of their score to the memories stored next to them
in the same conversation (more to the line after a hit that asks: its answer). The
final score adds importance, heat and freshness (fusion.py). Memories found only by
substring follow the ranked hits. A question's named dates lift the keyword scores of
the memories saved then (when.py).

Tried and left out (LoCoMo R@5 / R@10): lifting the best 30 hits whose speaker label
("Caroline: …") is a name the question uses, by 0.1 / 0.2 / 0.4, keyword-only 0.6566 /
0.7412 -> 0.6471 / 0.7358, 0.6398 / 0.7336, 0.6430 / 0.7317 (82% of the evidence is
the named person's own line, but so are the hits it displaces); with MiniLM,
Rocchio feedback on the query vector from the best 3 or 5 keyword hits (weight 0.3,
0.6, 1.0) or the best 3 vector hits, 0.6829 / 0.7799 -> 0.6784-0.6830 / 0.7706-0.7755;
the date lift on the hybrid score as well (x1.2, x1.5) 0.6856 / 0.7822-0.7842 (noise).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np

from memdesk.core.domain.embedding import Embedder
from memdesk.core.domain.times import now_utc
from memdesk.core.search.index.keyword import QueryTerms
from memdesk.core.search.index.keyword_settings import KeywordSettings
from memdesk.core.search.language.when import period_mask
from memdesk.core.search.query.filters import Evaluator, Plan, plan, visible_mask
from memdesk.core.search.rank.best_only import best_only
from memdesk.core.search.rank.fusion import SearchWeights, context_lift, final_scores, hybrid, rrf
from memdesk.core.search.rank.rankings import interleave, needles, ranked

if TYPE_CHECKING:
    from memdesk.core.search.index.in_memory import SearchIndex
    from memdesk.core.search.index.stored import StoredIndex

VECTOR_DEPTH = 50  # the most similar memories a vector ranking contributes
SUBSTRING_CAP = 1000  # per word, when a limit is given
NO_EMBEDDER = "keyword search only: no embedding model is set up"
# A line that ends in a question: its last mark, before closing quotes and a trailing aside "(…)".
_ASKS = re.compile(r"[?？][\s\"'”’」』]*(?:[(（][^()（）]*[)）]\s*)?$")


@dataclass(frozen=True)
class RankInputs:
    """What a ranking reads: the index searched (in memory or the store's) and the settings
    it ranks with; SearchEngine hands its own."""

    index: SearchIndex | StoredIndex
    weights: SearchWeights
    keyword_settings: KeywordSettings
    embedder: Embedder | None
    resolve_persona: Callable[[str], set]  # a persona: filter's value -> persona ids (None: global)


@dataclass(frozen=True)
class Asked:
    """How a search was asked, besides its text and limit: SearchEngine.search's options
    (persona: None every persona, '' global only, an id that persona and the global ones)."""

    persona: str | None = None
    semantic: bool = True
    expand: bool = True
    lenient: bool = False
    now: datetime | None = None  # None: now, when the search runs


@dataclass
class Ranking:
    """Everything one query computed, kept for hits and for explain."""

    plan: Plan
    terms: QueryTerms
    expansion: QueryTerms  # related terms added to the keyword ranking
    order: np.ndarray  # result slots, best first (only the first ``limit`` when _best_only ranked)
    final: np.ndarray
    fusion: np.ndarray
    ranks: dict
    parts: dict  # per-slot arrays: bm25, bigram, pinyin, keyword, vector, importance, heat, freshness
    allowed: np.ndarray
    visible: np.ndarray
    semantic: bool
    notice: str
    total: int = -1  # results before the limit (len(order) unless only the first were ordered)

    def __post_init__(self) -> None:
        if self.total < 0:
            self.total = len(self.order)


@dataclass
class _Lists:
    """The rankings of one query as they are gathered, with the scores that break their ties."""

    rankings: dict[str, np.ndarray]
    tie_scores: dict[str, np.ndarray]
    expansion: QueryTerms


def rank(inputs: RankInputs, tree, asked: Asked, limit: int | None) -> Ranking:
    index = inputs.index
    table, size = index.table, index.table.size
    persona, now, semantic, expand = asked.persona, asked.now or now_utc(), asked.semantic, asked.expand
    query_plan = plan(tree, soft_phrases=asked.lenient)
    visible = visible_mask(table, persona, tree, now)
    evaluator = Evaluator(table, index.keyword, index.substring, inputs.resolve_persona, now)
    allowed = visible.copy()
    for node in query_plan.constraints:
        allowed &= evaluator.mask(node)

    parts = index.keyword.analyse_parts(query_plan.rank_texts)
    terms, scored = _keyword_scores(inputs, parts, size)
    word_bm25, gram_bm25, pinyin_bm25, keyword = scored
    dated = _dated(inputs, terms, query_plan, table)
    if dated is not None:
        keyword = keyword * dated
        scored = (word_bm25, gram_bm25, pinyin_bm25, keyword)
    if limit is not None and len(parts) == 1 and not _vectors_rank(inputs, query_plan, semantic):
        best = _best_ranking(inputs, now, limit, query_plan, terms, allowed, visible, scored, semantic)
        if best is not None:
            return best
    lists = _keyword_lists(inputs, parts, keyword, allowed, expand, dated) if terms else _Lists({}, {}, QueryTerms())
    similarity, semantic_used, notice = _vector_list(inputs, lists, query_plan, allowed, visible, semantic)
    _substring_list(inputs, lists.rankings, query_plan, keyword, allowed, limit)
    fusion, ranks, members = _fuse(inputs, lists, terms, query_plan, similarity, allowed)

    slots = np.where(members)[0]
    scores = {
        "importance": table.importance01(slots),
        "heat": table.heat01(slots, now),
        "freshness": table.freshness01(slots, now, inputs.weights.freshness_half_life_days),
    }
    final = final_scores(inputs.weights, fusion[slots], scores["importance"], scores["heat"], scores["freshness"])
    group = _groups(ranks, slots, terms, word_bm25, gram_bm25, pinyin_bm25)
    order = np.lexsort((slots, -final, group))

    final_all = np.zeros(size)
    final_all[slots] = final
    columns = {"bm25": word_bm25, "bigram": gram_bm25, "pinyin": pinyin_bm25, "keyword": keyword, "vector": similarity}
    for name, values in scores.items():
        columns[name] = np.zeros(size)
        columns[name][slots] = values
    return Ranking(
        query_plan,
        terms,
        lists.expansion,
        slots[order],
        final_all,
        fusion,
        ranks,
        columns,
        allowed,
        visible,
        semantic_used,
        notice,
    )


def _keyword_scores(inputs: RankInputs, parts: list[QueryTerms], size: int):
    """The query's terms (a message's questions merged) and its (word, bigram, pinyin,
    keyword) BM25 per slot; keyword = word + bigram_weight x bigram + pinyin."""
    terms = parts[0]
    if len(parts) > 1:
        terms = QueryTerms(sentence=True)
        for part in parts:
            terms.add(part)
    keyword_index, zeros = inputs.index.keyword, np.zeros(size)
    word_bm25, gram_bm25 = keyword_index.scores(terms, size) if terms else (zeros, zeros)
    pinyin_bm25 = keyword_index.pinyin_scores(terms, size) if terms.pinyin else zeros
    keyword = word_bm25 + inputs.keyword_settings.bigram_weight * gram_bm25
    if terms.pinyin:  # (adding zeros changes nothing and costs a pass over every memory)
        keyword += pinyin_bm25
    return terms, (word_bm25, gram_bm25, pinyin_bm25, keyword)


def _best_ranking(inputs: RankInputs, now, limit, query_plan, terms, allowed, visible, scored, semantic):
    """The ranking from best_only.py when the keyword ranking alone decides (one plain
    query, no vectors; not a question: no expansion, no context): only the first
    ``limit`` results are ordered. None when it does not apply."""
    if terms.sentence or not query_plan.retrieval:
        return None
    best = best_only(inputs.weights, inputs.index.table, now, limit, allowed, terms, scored)
    if best is None:
        return None
    order, total, final, fusion, ranks, columns = best
    notice = NO_EMBEDDER if inputs.embedder is None else _no_vectors_notice(inputs, semantic)
    return Ranking(
        query_plan, terms, QueryTerms(), order, final, fusion, ranks, columns, allowed, visible, False, notice, total
    )


def _dated(inputs: RankInputs, terms: QueryTerms, query_plan, table) -> np.ndarray | None:
    """Per slot, the factor a question's named dates lift its keyword scores by (when.py);
    None when it names none (or is not a question)."""
    lift = inputs.keyword_settings.date_lift
    if lift <= 0 or not terms.sentence or not query_plan.rank_texts:
        return None
    inside = period_mask(" ".join(query_plan.rank_texts), table.col("created")[: table.size])
    if inside is None or not inside.any():
        return None
    return np.where(inside, 1.0 + lift, 1.0)


def _keyword_lists(inputs: RankInputs, parts: list[QueryTerms], keyword, allowed, expand, dated) -> _Lists:
    """The keyword ranking (one per question, interleaved) and, for sentence-like queries,
    its expansion with related terms."""
    index = inputs.index
    size = len(keyword)
    lists = _Lists({}, {}, QueryTerms())
    part_rankings = []
    for part in parts:
        part_scores = keyword if len(parts) == 1 else index.keyword.combined(part, size)
        if dated is not None and len(parts) > 1:
            part_scores = part_scores * dated
        extra = _expansion(inputs, part, part_scores, allowed, expand)
        if extra:
            lists.expansion.add(extra)
            expanded = QueryTerms(dict(part.words), dict(part.bigrams))
            expanded.add(extra)
            expanded_scores = index.keyword.combined(expanded, size)
            if dated is not None:
                expanded_scores = expanded_scores * dated
            if inputs.keyword_settings.expand_mode == "fuse":
                lists.rankings["expanded"] = ranked(expanded_scores, allowed)
            else:
                part_scores = expanded_scores
        part_rankings.append(ranked(part_scores, allowed))
    if len(part_rankings) == 1:
        lists.rankings["keyword"] = part_rankings[0]
        lists.tie_scores["keyword"] = part_scores
    else:
        lists.rankings["keyword"] = interleave(part_rankings)
    return lists


def _expansion(inputs: RankInputs, terms: QueryTerms, scores, allowed, expand: bool) -> QueryTerms:
    # RM3 practice: the expanded query replaces the literal ranking (keeping
    # both as separate RRF lists cost recall in stores full of chatter: the
    # literal list re-promotes chatter matches).
    keyword = inputs.index.keyword
    if not (expand and keyword.should_expand(terms)):
        return QueryTerms()
    return keyword.expansion(terms, scores, allowed)


def _vectors_rank(inputs: RankInputs, query_plan, semantic: bool) -> bool:
    """Whether a vector ranking takes part (_vector_list's conditions)."""
    vectors = inputs.index.vectors
    return bool(
        inputs.embedder is not None and semantic and vectors is not None and len(vectors) and query_plan.rank_texts
    )


def _vector_list(inputs: RankInputs, lists: _Lists, query_plan, allowed, visible, semantic):
    """The vector ranking when a model and vectors are there; returns (similarity per slot,
    whether vectors took part, a notice on why not or what they missed)."""
    index, embedder = inputs.index, inputs.embedder
    size = index.table.size
    similarity = np.full(size, np.nan)
    if embedder is None:
        return similarity, False, NO_EMBEDDER
    if not semantic:
        return similarity, False, ""
    if index.vectors is None or not len(index.vectors):
        return similarity, False, _no_vectors_notice(inputs, semantic)
    if not query_plan.rank_texts:
        return similarity, False, ""
    qvec = embedder.embed([" ".join(query_plan.rank_texts)], query=True)[0]
    similarity = index.vectors.similarities(qvec, size)
    candidates = np.where(allowed & ~np.isnan(similarity))[0]
    lists.rankings["vector"] = candidates[np.argsort(-similarity[candidates], kind="stable")[:VECTOR_DEPTH]]
    lists.tie_scores["vector"] = np.nan_to_num(similarity, nan=-2.0)
    covered, shown = int(index.vectors.has(size)[visible].sum()), int(visible.sum())
    notice = f"{shown - covered} memories have no vector yet; they are found by keyword only" if covered < shown else ""
    return similarity, True, notice


def _no_vectors_notice(inputs: RankInputs, semantic: bool) -> str:
    vectors = inputs.index.vectors
    if semantic and (vectors is None or not len(vectors)):
        return "keyword search only: no memory has a vector for this model yet"
    return ""


def _substring_list(inputs: RankInputs, rankings, query_plan, keyword, allowed, limit) -> None:
    """Substring fallback: only what the rankings so far missed, after them."""
    index = inputs.index
    size = len(keyword)
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


def _fuse(inputs: RankInputs, lists: _Lists, terms, query_plan, similarity, allowed):
    """Fused score per slot, each slot's rank per list, and which slots are results."""
    rankings, tie_scores, weights = lists.rankings, lists.tie_scores, inputs.weights
    size = len(allowed)
    fusion, ranks = rrf(rankings, size, weights.rrf_k, tie_scores)
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
            keyword_lists: dict[str, np.ndarray] = {n: rankings[n] for n in ("keyword", "expanded") if n in rankings}
            keyword_signal = rrf(keyword_lists, size, weights.rrf_k)[0]
        fusion = hybrid(keyword_signal, similarity, allowed, members, weights.keyword_share)
    scored = "keyword" in tie_scores or "vector" in rankings  # interleaved questions have ranks only
    if terms.sentence and scored and weights.context > 0 and query_plan.retrieval:
        fusion, members = _lift_context(inputs, fusion, ranks, rankings, members, allowed)
    return fusion, ranks, members


def _lift_context(inputs: RankInputs, fusion, ranks, rankings, members, allowed):
    """The best few found memories lend a share of their score to their neighbours
    (fusion.context_lift); memories reached that way join the results."""
    weights = inputs.weights
    size = len(fusion)
    found = np.zeros(size, dtype=bool)
    for name in ("keyword", "expanded", "vector"):
        if name in rankings:
            found[rankings[name]] = True
    candidates = np.where(found)[0]
    if len(candidates) == 0:
        return fusion, members
    lenders = np.zeros(size, dtype=bool)
    lenders[candidates[np.argsort(-fusion[candidates], kind="stable")[: weights.context_from]]] = True
    table = inputs.index.table
    previous, following = table.neighbours(weights.context_window_s)
    asking = None
    if weights.reply > weights.context:
        asking = np.zeros(size, dtype=bool)
        lending = [int(s) for s in np.where(lenders)[0] if following[s] >= 0]
        for slot, record in table.records_of(lending).items():
            asking[slot] = _ASKS.search(record.content) is not None
    lifted = context_lift(fusion, lenders, allowed, previous, following, weights.context, asking, weights.reply)
    gained = np.where(lifted > fusion)[0]
    rank_of = np.zeros(size, dtype=np.int64)
    rank_of[gained[np.argsort(fusion[gained] - lifted[gained], kind="stable")]] = np.arange(1, len(gained) + 1)
    ranks["context"] = rank_of
    members = members.copy()
    members[gained] = True
    top = lifted[members].max()
    return (lifted / top if top > 0 else lifted), members


def _groups(ranks, slots, terms, word_bm25, gram_bm25, pinyin_bm25) -> np.ndarray:
    """The band each result sorts in before its score: 0 ranked, 1 found by pinyin alone (after
    every literal hit: kafei the word before 咖啡), 2 substring only, 3 the rest."""
    ranked_hit = np.zeros(len(slots), dtype=bool)
    for name in ("keyword", "expanded", "vector", "context"):
        if name in ranks:
            ranked_hit |= ranks[name][slots] > 0
    substring_hit = ranks["substring"][slots] > 0 if "substring" in ranks else np.zeros(len(slots), bool)
    group = np.where(ranked_hit, 0, np.where(substring_hit, 2, 3))
    if terms.pinyin:
        literal = (word_bm25[slots] > 0) | (gram_bm25[slots] > 0)
        others = np.zeros(len(slots), dtype=bool)
        for name in ("expanded", "vector", "context"):
            if name in ranks:
                others |= ranks[name][slots] > 0
        group = np.where((group == 0) & ~literal & ~others & (pinyin_bm25[slots] > 0), 1, group)
    return group
