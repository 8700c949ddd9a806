"""One consistent set of search structures for the memories of a store.

The engine builds a fresh ``SearchIndex`` on a worker thread and swaps it in,
so searches keep using the old one meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from memdesk.core.domain.embedding import embed_text, text_hash
from memdesk.core.domain.records import MemoryRecord
from memdesk.core.search.index.keyword import KeywordIndex, searchable_text
from memdesk.core.search.index.keyword_settings import KeywordSettings
from memdesk.core.search.index.substring import SubstringIndex
from memdesk.core.search.index.table import RecordTable
from memdesk.core.search.index.vectors import VectorIndex
from memdesk.core.search.language.tokenize import Tokenizer


def vocabulary_of(record: MemoryRecord) -> list[str]:
    """The user's own terms in a memory: tags, group names, its title."""
    return [*record.tags, *record.group.split("/"), record.title]


class SearchIndex:
    def __init__(
        self, tokenizer: Tokenizer, settings: KeywordSettings | None = None, vector_model: tuple[str, int] | None = None
    ):
        self.tokenizer = tokenizer
        self.table = RecordTable()
        self.keyword = KeywordIndex(tokenizer, settings)
        self.substring = SubstringIndex()
        self.vectors = VectorIndex(*vector_model) if vector_model else None

    def put(self, record: MemoryRecord) -> int:
        slot = self.table.put(record)
        self.keyword.set(slot, record)
        self.substring.set(slot, searchable_text(record))
        if self.vectors is not None:
            current = self.vectors.hash_of(slot)
            if current is not None and current != text_hash(embed_text(record.title, record.content)):
                self.vectors.remove(slot)  # stale until re-embedded
        return slot

    def remove(self, memory_id: str) -> None:
        slot = self.table.remove(memory_id)
        if slot is not None:
            self.keyword.remove(slot)
            self.substring.remove(slot)
            if self.vectors is not None:
                self.vectors.remove(slot)

    def learn(self, words: Iterable[str]) -> int:
        """Add vocabulary; re-cut memories that contain a new term. Returns how many."""
        new = self.tokenizer.add_vocabulary(words)
        if not new:
            return 0
        slots: set[int] = set()
        for term in new:
            slots.update(self.substring.find(term))
        for slot in slots:
            record = self.table.records[slot]
            if record is not None:
                self.keyword.set(slot, record)
        return len(slots)

    def set_vectors(self, ids: list[str], matrix: np.ndarray) -> int:
        """Load stored vectors (fresh ones only, as Store.load_vectors returns)."""
        if self.vectors is None:
            return 0
        loaded = 0
        for memory_id, row in zip(ids, matrix):
            slot = self.table.slot_of.get(memory_id)
            if slot is None or len(row) != self.vectors.dim:
                continue
            record = self.table.records[slot]
            assert record is not None  # slot_of holds live slots only (table.remove pops it)
            self.vectors.set(slot, row, text_hash(embed_text(record.title, record.content)))
            loaded += 1
        return loaded

    def missing_vectors(self) -> list[MemoryRecord]:
        """Live memories with no current vector."""
        if self.vectors is None:
            return []
        has = self.vectors.has(self.table.size)
        return [
            r for slot, r in enumerate(self.table.records) if r is not None and not has[slot] and r.deleted_at is None
        ]
