"""A search's hits, and why each was found, worked out only when asked.

Naming the matched words, readings and script folds of 20 hits took about a third of a
search at 1k memories under the profiler (bench/search_speed.py's corpus; p95 against
FTS5 went from 6.1-7.2x to 4.4-5.6x), yet an assistant's memory_search and a CLI search
without --explain never read them. A hit's ``explain`` is made on first
access, for all the hits of its result at once (the word bags are read in one go).
It reads the index as it is then: each hit's words are looked up by its memory's id,
so an explanation is never another memory's, but one asked for after a later write
names the words of the memory as that write left it. The window asks at once, on its
search thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from memdesk.core.domain.records import MemoryRecord
from memdesk.core.search.rank.explain import HitExplanation, script_matches


class Explanations:
    """The explanations of one result's hits: ``make`` runs once, on first use."""

    def __init__(self, make: Callable[[], list[HitExplanation]]):
        self._make: Callable[[], list[HitExplanation]] | None = make
        self._made: list[HitExplanation] | None = None
        self._lock = threading.Lock()

    def get(self, position: int) -> HitExplanation:
        if self._made is None:
            with self._lock:
                if self._made is None:
                    assert self._make is not None
                    self._made, self._make = self._make(), None
        return self._made[position]


class SearchHit:
    """A ranked memory: its id, final score and record; ``explain`` says why (see above)."""

    __slots__ = ("id", "score", "record", "_explanations", "_position")

    def __init__(self, memory_id: str, score: float, record: MemoryRecord, explanations: Explanations, position: int):
        self.id, self.score, self.record = memory_id, score, record
        self._explanations, self._position = explanations, position

    @property
    def explain(self) -> HitExplanation:
        return self._explanations.get(self._position)

    def __repr__(self) -> str:
        return f"SearchHit({self.id!r}, {self.score:.4f})"


def explain_hits(
    lock,
    index_now: Callable,
    asked: tuple,
    slots: list[int],
    records: list[MemoryRecord],
    numbers: tuple,
    first: int | list[int] = 1,
) -> list[HitExplanation]:
    """Every hit's HitExplanation (``Explanations``' maker): the matched words, readings and
    script folds from the engine's index as it now is (under its lock), the numbers
    (columns, fusion, final, ranks) the ranking kept. ``asked``: the query's terms and the
    texts it ranks by; ``slots``: where the hits were; ``first``: the first hit's place in the
    results (a later page's is past 1), or each hit's place (hits picked by id). Only these are kept until asked,
    not the ranking's arrays over every memory."""
    terms, rank_texts = asked
    cols, fusion, final, ranks = numbers
    with lock:
        index = index_now()
        table, keyword = index.table, index.keyword
        now = table.records_of(slots)  # the records the search read, unless a write came since
        found = {
            record.id: slot if (now.get(slot) is not None and now[slot].id == record.id) else table.slot(record.id)
            for slot, record in zip(slots, records)
        }
        slots = [s for s in found.values() if s is not None]
        prefetch = getattr(keyword.words, "prefetch", None)
        if prefetch is not None and terms.pinyin:  # naming a pinyin match reads the hits' word bags
            prefetch(slots, keyword.bigrams)
        matched = dict(zip(slots, keyword.matched_many(slots, terms)))
        out = []
        for i, record in enumerate(records):
            slot = found[record.id]
            words, grams = matched.get(slot, ([], []))
            pinyin = keyword.matched_pinyin(slot, terms) if terms.pinyin and slot is not None else []
            hit_ranks = {name: (values[i] or None) for name, values in ranks.items()}
            sim = cols["vector"][i]
            out.append(
                HitExplanation(
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
                    position=first[i] if isinstance(first, list) else first + i,
                    matched_pinyin=tuple(pinyin),
                    matched_script=script_matches(rank_texts, record, words + grams),
                    pinyin_score=cols["pinyin"][i],
                )
            )
        return out
