"""BM25 over an inverted index that is updated in place.

Scores follow rank-bm25's ``BM25Okapi`` exactly (same k1, b, epsilon, and
the same floor for terms in more than half of the documents: epsilon times
the average idf), so ``tests/core/search`` can check us against it. rank-bm25
itself scores every document per query and must be rebuilt on every change;
here only the postings of the query's terms are touched, which is what keeps
a keystroke at 100k memories within a few milliseconds.

One deliberate difference: rank-bm25 leaves an idf of exactly 0 (a term in
half of the documents) at 0, and its floor turns negative when most terms
are common (a store of two similar memories). Either makes a word that is
plainly there unfindable, so any idf <= 0 gets the floor, and the floor is
at least MIN_IDF.

Term frequencies may be weighted (a title word can count twice); the
document length is then the weighted length, as in BM25F's simple form.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

K1, B, EPSILON = 1.5, 0.75, 0.25  # rank-bm25's BM25Okapi defaults
MIN_IDF = 0.01


class BM25Field:
    """Postings and length statistics of one field; documents live in slots."""

    def __init__(self, *, k1: float = K1, b: float = B, epsilon: float = EPSILON):
        self.k1, self.b, self.epsilon = k1, b, epsilon
        self._term_ids: dict[str, int] = {}
        self._terms: list[str] = []
        self._postings: list[dict[int, float]] = []
        self._df = np.zeros(1024, dtype=np.float64)
        self._doc_terms: dict[int, dict[int, float]] = {}
        self._doc_len = np.zeros(1024, dtype=np.float64)
        self._total_len = 0.0
        self._arrays: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._avg_idf: float | None = None

    # -- updates -------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._doc_terms)

    def set(self, slot: int, weights: dict[str, float]) -> None:
        """Index (or re-index) one document from its term -> weighted count."""
        self.remove(slot)
        if slot >= len(self._doc_len):
            grown = np.zeros(max(slot + 1, len(self._doc_len) * 2), dtype=np.float64)
            grown[: len(self._doc_len)] = self._doc_len
            self._doc_len = grown
        doc: dict[int, float] = {}
        for term, tf in weights.items():
            if tf <= 0:
                continue
            term_id = self._term_id(term)
            doc[term_id] = tf
            self._postings[term_id][slot] = tf
            self._df[term_id] += 1
            self._arrays.pop(term_id, None)
        length = float(sum(doc.values()))
        self._doc_terms[slot] = doc
        self._doc_len[slot] = length
        self._total_len += length
        self._avg_idf = None

    def remove(self, slot: int) -> None:
        doc = self._doc_terms.pop(slot, None)
        if doc is None:
            return
        for term_id in doc:
            del self._postings[term_id][slot]
            self._df[term_id] -= 1
            self._arrays.pop(term_id, None)
        self._total_len -= self._doc_len[slot]
        self._doc_len[slot] = 0.0
        self._avg_idf = None

    def _term_id(self, term: str) -> int:
        term_id = self._term_ids.get(term)
        if term_id is None:
            term_id = len(self._terms)
            self._term_ids[term] = term_id
            self._terms.append(term)
            self._postings.append({})
            if term_id >= len(self._df):
                grown = np.zeros(len(self._df) * 2, dtype=np.float64)
                grown[: len(self._df)] = self._df
                self._df = grown
        return term_id

    # -- statistics ------------------------------------------------------------
    def df(self, term: str) -> int:
        term_id = self._term_ids.get(term)
        return 0 if term_id is None else int(self._df[term_id])

    # -- what scoring reads (a stored field answers these from the database) --------
    def doc_count(self) -> int:
        return len(self._doc_terms)

    def total_length(self) -> float:
        return self._total_len

    def lengths(self, slots: np.ndarray) -> np.ndarray:
        return self._doc_len[slots]

    def _average_idf(self) -> float:
        # rank-bm25 averages the raw idf over every term present in the corpus.
        if self._avg_idf is None:
            n = len(self._doc_terms)
            df = self._df[: len(self._terms)]
            df = df[df > 0]
            if n == 0 or len(df) == 0:
                self._avg_idf = 0.0
            else:
                self._avg_idf = float(np.mean(np.log(n - df + 0.5) - np.log(df + 0.5)))
        return self._avg_idf

    def idf(self, term: str) -> float:
        df = self.df(term)
        if df == 0:
            return 0.0
        n = self.doc_count()
        value = math.log(n - df + 0.5) - math.log(df + 0.5)
        return max(self.epsilon * self._average_idf(), MIN_IDF) if value <= 0 else value

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """(slots, weighted counts) of a term, as cached arrays."""
        term_id = self._term_ids.get(term)
        if term_id is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        arrays = self._arrays.get(term_id)
        if arrays is None:
            posting = self._postings[term_id]
            arrays = (
                np.fromiter(posting.keys(), dtype=np.int64, count=len(posting)),
                np.fromiter(posting.values(), dtype=np.float64, count=len(posting)),
            )
            self._arrays[term_id] = arrays
        return arrays

    # -- scoring -------------------------------------------------------------
    def add_scores(self, query_terms: Iterable[str], out: np.ndarray, weight: float = 1.0) -> None:
        """Add weight x BM25 of every posting of the query terms into ``out``.

        Repeated query terms count again, as in rank-bm25.
        """
        weights: dict[str, float] = {}
        for term in query_terms:
            weights[term] = weights.get(term, 0.0) + weight
        self.add_weighted(weights, out)

    def add_weighted(self, weights: dict[str, float], out: np.ndarray) -> None:
        """Add sum over terms of weight x BM25 into ``out``, term by term: a term's postings
        hold each memory once, so one indexed add per term is exact, and no array the
        size of the store is made (at 1M memories those cost more than the scoring)."""
        n = self.doc_count()
        if n == 0 or not weights:
            return
        avgdl = self.total_length() / n
        for term, weight in weights.items():
            slots, tfs = self.postings(term)
            if len(slots) == 0 or weight == 0:
                continue
            if int(slots.max()) >= len(out):  # memories added after ``out`` was sized
                keep = slots < len(out)
                slots, tfs = slots[keep], tfs[keep]
            norm = self.k1 * (1 - self.b + self.b * self.lengths(slots) / avgdl)
            out[slots] += weight * self.idf(term) * (tfs * (self.k1 + 1) / (tfs + norm))

    def score_one(self, slot: int, query_terms: Iterable[str]) -> float:
        doc = self._doc_terms.get(slot)
        if doc is None:
            return 0.0
        n = len(self._doc_terms)
        avgdl = self._total_len / n
        total = 0.0
        for term in query_terms:
            term_id = self._term_ids.get(term)
            tf = doc.get(term_id, 0.0) if term_id is not None else 0.0
            if tf:
                norm = self.k1 * (1 - self.b + self.b * self._doc_len[slot] / avgdl)
                total += self.idf(term) * tf * (self.k1 + 1) / (tf + norm)
        return total

    def doc_weights(self, slot: int) -> dict[str, float]:
        doc = self._doc_terms.get(slot, {})
        return {self._terms[term_id]: tf for term_id, tf in doc.items()}

    def contains(self, slot: int, term: str) -> bool:
        term_id = self._term_ids.get(term)
        return term_id is not None and slot in self._postings[term_id]
