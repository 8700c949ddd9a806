"""Reading the index a store keeps (indexer.py) with the in-memory index's interface.

A process loads only each memory's packed numeric columns (persona, group,
states, times, counters, lengths: ~100 bytes a memory) and asks the database
for the postings of its query's terms. Slots are the index's doc numbers,
stable for a memory's life and in storage order. ``catch_up`` follows the
change feed (and the index's epoch, bumped when vocabulary re-cuts or the
upgrade build touch memories the feed does not name), so a write by any
process is seen by the next search here.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import cast

import numpy as np

from memdesk.core.domain.records import MemoryRecord
from memdesk.core.search.index import terms as index_terms
from memdesk.core.search.index.bm25 import MIN_IDF, BM25Field
from memdesk.core.search.index.indexer import pending
from memdesk.core.search.index.keyword import KeywordIndex
from memdesk.core.search.index.keyword_settings import KeywordSettings
from memdesk.core.search.index.postings_codec import decode_terms
from memdesk.core.search.index.stats import stat
from memdesk.core.search.index.stored_table import StoredTable
from memdesk.core.search.index.substring import SubstringIndex
from memdesk.core.search.index.vectors import VectorIndex
from memdesk.core.search.index.vocab import Vocabulary
from memdesk.core.search.language.pinyin import SHARED_PINYIN
from memdesk.core.search.language.tokenize import Tokenizer, normalise

RELOAD_AFTER = 20_000  # more changed memories than this: reload every column at once
POSTINGS_CACHE = 256  # terms whose postings stay in memory between searches
VECTOR_BLOCK = 4096  # stored vectors read per step at start


class StoredField(BM25Field):
    """BM25 over one field's postings; the same scoring code as the in-memory field."""

    def __init__(self, store, table: StoredTable, field: int, length: str, *, k1: float, b: float, epsilon: float):
        super().__init__(k1=k1, b=b, epsilon=epsilon)
        self.store, self.table, self.field, self.length_col = store, table, field, length
        self._cache: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._n = 0
        self._total = 0.0
        self._avg: float | None = None
        self._docs: dict[int, dict[str, float]] = {}
        self.names: dict[int, str] = {}  # term ids read so far (an id always names the same term)

    def reset(self, n: int, total: float, *, postings: bool = True) -> None:
        """New statistics; ``postings``: the postings changed too (else, e.g. after access
        counts only, the cached postings stay: search-as-you-type reuses them)."""
        self._n, self._total, self._avg = n, total, None
        if postings:
            self._cache.clear()
            self._docs.clear()

    def __len__(self) -> int:
        return self._n

    def doc_count(self) -> int:
        return self._n

    def total_length(self) -> float:
        return self._total

    def lengths(self, slots: np.ndarray) -> np.ndarray:
        return self.table.cols[self.length_col][slots]

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        cached = self._cache.get(term)
        if cached is not None:
            self._cache.move_to_end(term)
            return cached
        arrays = index_terms.read(self.store.connection(), self.field, term)
        # Uncut or just-purged docs can sit beyond the loaded columns for a moment.
        keep = arrays[0] < self.table.size
        if not keep.all():
            arrays = (arrays[0][keep], arrays[1][keep])
        self._cache[term] = arrays
        if len(self._cache) > POSTINGS_CACHE:
            self._cache.popitem(last=False)
        return arrays

    def df(self, term: str) -> int:
        return len(self.postings(term)[0])

    def _average_idf(self) -> float:
        # Read only when a query term sits in half the memories or more (its idf
        # floors); one pass over the term counts, kept until the index changes.
        if self._avg is None:
            n = self._n
            dfs = index_terms.frequencies(self.store.connection(), self.field)
            self._avg = 0.0 if n == 0 or len(dfs) == 0 else float(np.mean(np.log(n - dfs + 0.5) - np.log(dfs + 0.5)))
        return self._avg

    def idf(self, term: str) -> float:
        df = self.df(term)
        if df == 0:
            return 0.0
        n = self._n
        value = math.log(n - df + 0.5) - math.log(df + 0.5)
        return max(self.epsilon * self._average_idf(), MIN_IDF) if value <= 0 else value

    def doc_weights(self, slot: int) -> dict[str, float]:
        slot = int(slot)
        cached = self._docs.get(slot)
        if cached is None:
            row = self.store.connection().execute("SELECT terms FROM search_doc WHERE doc = ?", (slot,)).fetchone()
            cached = self.bags([row[0] if row else None])[0]
            if len(self._docs) > 512:
                self._docs.clear()
            self._docs[slot] = cached
        return cached

    def bags(self, term_lists: list) -> list[dict[str, float]]:
        """This field's bag (term -> count, in the cut's order) of each stored term list; the
        readings worked out from the words (a term list leaves them out: index_writer)."""
        field = index_terms.WORDS if self.field == index_terms.PINYIN else self.field
        decoded = [decode_terms(t)[field] for t in term_lists]
        unknown = {int(i) for ids, _ in decoded for i in ids.tolist()} - self.names.keys()
        if unknown:
            self.names.update(index_terms.names(self.store.connection(), unknown))
        names = self.names
        bags = [{names[i]: tf for i, tf in zip(ids.tolist(), tfs.tolist())} for ids, tfs in decoded]
        return [SHARED_PINYIN.document_terms(b) for b in bags] if field != self.field else bags

    def contains(self, slot: int, term: str) -> bool:
        bag = self._docs.get(int(slot))
        if bag is None and term in self._cache:
            # The query's own terms: their postings (sorted by doc) were read to score it, so a
            # hit's "why found" needs no term bag (a JSON read and parse per hit).
            docs = self._cache[term][0]
            at = int(np.searchsorted(docs, slot))
            return at < len(docs) and int(docs[at]) == int(slot)
        return term in (bag if bag is not None else self.doc_weights(slot))

    def holding(self, slots: list[int], term: str) -> set[int]:
        """Which of these slots contain ``term`` (contains() for many hits in one step)."""
        cached = self._cache.get(term)
        if cached is None or not slots:
            return {s for s in slots if self.contains(s, term)}
        wanted = np.asarray(slots, dtype=np.int64)
        docs = cached[0]
        at = np.minimum(np.searchsorted(docs, wanted), max(len(docs) - 1, 0))
        found = (docs[at] == wanted) if len(docs) else np.zeros(len(wanted), dtype=bool)
        out = set()
        for slot, hit in zip(slots, found.tolist()):
            bag = self._docs.get(int(slot))  # a bag read already is asked, as contains() does
            if (term in bag) if bag is not None else hit:
                out.add(slot)
        return out

    def prefetch(self, slots: list[int], other: StoredField) -> None:
        """Read the term bags of the hits about to be explained, for both fields, in one query."""
        conn = self.store.connection()
        wanted = [int(s) for s in slots if int(s) not in self._docs][:500]
        if not wanted:
            return
        if len(self._docs) + len(wanted) > 512:
            self._docs.clear()
            other._docs.clear()
        marks = ",".join("?" * len(wanted))
        rows = conn.execute(f"SELECT doc, terms FROM search_doc WHERE doc IN ({marks})", wanted).fetchall()
        lists = [r[1] for r in rows]
        for (doc, _), mine, theirs in zip(rows, self.bags(lists), other.bags(lists)):
            self._docs[doc] = mine
            other._docs[doc] = theirs


class StoreTokenizer:
    """The shared Tokenizer, cutting each text with the store's vocabulary terms in it."""

    def __init__(self, tokenizer: Tokenizer, store):
        self.base, self.store = tokenizer, store

    def __getattr__(self, name):
        return getattr(self.base, name)

    def _overlay(self, text: str, normalised: bool) -> frozenset[str]:
        return Vocabulary(self.store.connection()).within(text if normalised else normalise(text))

    def words_and_stops(self, text: str, *, normalised: bool = False, subwords: bool = True):
        return self.base.words_and_stops(
            text, normalised=normalised, subwords=subwords, overlay=self._overlay(text, normalised)
        )

    def words(self, text: str, *, normalised: bool = False, subwords: bool = True) -> list[str]:
        return self.words_and_stops(text, normalised=normalised, subwords=subwords)[0]


class StoredSubstring(SubstringIndex):
    """Substring matching over the index's normalised texts, in SQL."""

    def __init__(self, store, table: StoredTable):
        super().__init__()
        self.store, self.table = store, table

    def find(self, needle: str, allowed: np.ndarray | None = None, limit: int | None = None) -> list[int]:
        if not needle:
            return []
        size = self.table.size
        if allowed is not None and 4 * int(allowed[:size].sum()) < size:
            return self._find_among(needle, np.where(allowed[:size])[0].tolist(), limit)
        found: list[int] = []
        for (doc,) in self.store.connection().execute(
            "SELECT doc FROM search_text WHERE instr(text, ?) > 0 ORDER BY doc", (needle,)
        ):
            if doc < size and (allowed is None or allowed[doc]):
                found.append(doc)
                if limit is not None and len(found) >= limit:
                    break
        return found

    def _find_among(self, needle: str, docs: list[int], limit: int | None) -> list[int]:
        """find() when a filter leaves few memories (a tag, a persona): their texts only, in doc
        order, instead of scanning every text in the store."""
        found: list[int] = []
        conn = self.store.connection()
        for start in range(0, len(docs), 500):
            chunk = docs[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = conn.execute(f"SELECT doc, text FROM search_text WHERE doc IN ({marks}) ORDER BY doc", chunk)
            for doc, text in rows:
                if needle in text:
                    found.append(doc)
                    if limit is not None and len(found) >= limit:
                        return found
        return found

    def text(self, slot: int) -> str:
        row = self.store.connection().execute("SELECT text FROM search_text WHERE doc = ?", (int(slot),)).fetchone()
        return row[0] if row else ""


class StoredIndex:
    """SearchIndex's interface over the index a store keeps."""

    stored = True

    def __init__(
        self,
        store,
        tokenizer: Tokenizer,
        settings: KeywordSettings | None = None,
        vector_model: tuple[str, int] | None = None,
    ):
        self.store = store
        self.tokenizer = tokenizer
        self.table = StoredTable(store)
        # StoreTokenizer stands in for a Tokenizer (the rest by delegation: __getattr__).
        self.keyword = KeywordIndex(cast(Tokenizer, StoreTokenizer(tokenizer, store)), settings)
        s = self.keyword.settings
        self.keyword.words = words = StoredField(
            store, self.table, index_terms.WORDS, "wlen", k1=s.k1, b=s.b, epsilon=s.epsilon
        )
        self.keyword.bigrams = grams = StoredField(
            store, self.table, index_terms.GRAMS, "glen", k1=s.k1, b=s.b, epsilon=s.epsilon
        )
        self.keyword.pinyin = pinyin = StoredField(
            store, self.table, index_terms.PINYIN, "plen", k1=s.k1, b=s.b, epsilon=s.epsilon
        )
        # Kept as StoredFields (KeywordIndex types its fields as BM25Field): _stats resets them.
        self._fields = ((words, "words_len"), (grams, "grams_len"), (pinyin, "pinyin_len"))
        self.substring = StoredSubstring(store, self.table)
        self.vectors = VectorIndex(*vector_model) if vector_model else None
        self.marker = -1
        self.epoch = None
        self.postings_version = None
        self.pending = 0

    def load(self) -> None:
        conn = self.store.connection()
        self.marker = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM change_log").fetchone()[0]
        self.epoch = stat(conn, "epoch")
        self.pending = pending(conn)
        self.postings_version = None  # a full load drops every cached posting
        self.table.load()
        self._stats()
        if self.vectors is not None:
            self.vectors = VectorIndex(self.vectors.model_id, self.vectors.dim)
            self.load_vectors()

    def _stats(self) -> None:
        conn = self.store.connection()
        n = int(stat(conn, "docs"))
        version = stat(conn, "postings")
        changed, self.postings_version = version != self.postings_version, version
        for field, length in self._fields:
            field.reset(n, float(stat(conn, length)), postings=changed)

    def catch_up(self) -> tuple[bool, list[tuple[int, str]]]:
        """Take in what any process wrote since the last look. Returns (anything
        changed, [(slot, embed-text hash)] of changed memories)."""
        conn = self.store.connection()
        newest = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM change_log").fetchone()[0]
        epoch = stat(conn, "epoch")
        if newest == self.marker and epoch == self.epoch:
            return False, []
        if epoch != self.epoch:
            self.load()
            return True, []
        rows = conn.execute(
            "SELECT memory_id FROM change_log WHERE seq > ? AND seq <= ? AND memory_id IS NOT NULL",
            (self.marker, newest),
        ).fetchall()
        oldest = conn.execute("SELECT MIN(seq) FROM change_log").fetchone()[0]
        if len(rows) > RELOAD_AFTER or (oldest is not None and oldest > self.marker + 1):
            self.load()  # too much, or the feed was pruned past what we read
            return True, []
        self.marker = newest
        ids = list(dict.fromkeys(r[0] for r in rows))
        found = self.table.refresh(ids) if ids else []
        if not ids:
            self.table.reload_codes()
        self._stats()
        if self.vectors is not None:
            for slot, ehash in found:
                if self.vectors.hash_of(slot) not in (None, ehash):
                    self.vectors.remove(slot)  # stale until re-embedded
        return True, found

    def load_vectors(self) -> int:
        """The model's vectors whose text still matches, as one matrix."""
        vectors = self.vectors
        if vectors is None:
            return 0
        conn = self.store.connection()
        matching = (
            "FROM memory_vector v JOIN search_doc d ON d.memory_id = v.memory_id "
            "WHERE v.model_id = ? AND v.dim = ? AND v.text_hash = d.ehash AND d.terms IS NOT NULL"
        )
        params = (vectors.model_id, vectors.dim)
        count, last = conn.execute(f"SELECT COUNT(*), MAX(d.doc) {matching}", params).fetchone()
        if not count:
            return 0
        vectors.reserve(last + 1)
        # Streamed in blocks into the one matrix: fetching all rows first held every blob as a
        # Python bytes object, then their join, then the matrix (three copies at the peak).
        cursor = conn.execute(f"SELECT d.doc, v.text_hash, v.vector {matching}", params)
        while rows := cursor.fetchmany(VECTOR_BLOCK):
            block = np.frombuffer(b"".join(r[2] for r in rows), dtype="<f4").reshape(len(rows), vectors.dim)
            vectors.set_many(np.fromiter((r[0] for r in rows), np.int64, len(rows)), block, [r[1] for r in rows])
        return count

    def missing_vectors(self) -> list[MemoryRecord]:
        if self.vectors is None:
            return []
        has = self.vectors.has(self.table.size)
        live = self.table.col("live") & ~self.table.col("deleted")
        return list(self.table.records_of(np.where(live & ~has)[0].tolist()).values())
