"""Slots for indexed records, with the columns filters and ranking read.

Every indexed memory has a slot (a row number). Filters and ranking work on
numpy arrays indexed by slot, so checking scope, hidden states and metadata
for 100k memories is a handful of vector operations, not a Python loop.
Freed slots are reused, so the arrays never need compacting.
"""

from __future__ import annotations

import fnmatch
from datetime import datetime

import numpy as np

from memdesk.core.domain.heat import heat_array
from memdesk.core.domain.records import MIN_ID_PREFIX, SCOPES, TIERS, TYPES, MemoryRecord
from memdesk.core.search.language.tokenize import normalise

GLOBAL_CODE = -1
_FLOAT_COLUMNS = ("importance", "created", "updated", "expires", "access", "mention", "seq")
_INT_COLUMNS = ("persona", "group", "type", "scope", "tier")
_BOOL_COLUMNS = ("live", "deleted", "superseded")


def timestamp(value: datetime | None, default: float) -> float:
    return value.timestamp() if value is not None else default


class RecordTable:
    def __init__(self, capacity: int = 1024):
        self.records: list[MemoryRecord | None] = []
        self.slot_of: dict[str, int] = {}
        self._free: list[int] = []
        self._persona_codes: dict[str, int] = {}
        self._group_codes: dict[str, int] = {}
        self.tag_slots: dict[str, set[int]] = {}
        self._next_seq = 0  # order records first arrived in: storage order when built from a store
        self._neighbours: tuple[float, np.ndarray, np.ndarray] | None = None
        self.cols: dict[str, np.ndarray] = {}
        for name in _FLOAT_COLUMNS:
            self.cols[name] = np.zeros(capacity, dtype=np.float64)
        for name in _INT_COLUMNS:
            self.cols[name] = np.zeros(capacity, dtype=np.int32)
        for name in _BOOL_COLUMNS:
            self.cols[name] = np.zeros(capacity, dtype=bool)

    def __len__(self) -> int:
        return len(self.slot_of)

    @property
    def size(self) -> int:
        """Slots in use or freed: the length every per-slot array is cut to."""
        return len(self.records)

    def col(self, name: str) -> np.ndarray:
        return self.cols[name][: self.size]

    # -- updates ---------------------------------------------------------------
    def put(self, record: MemoryRecord) -> int:
        slot = self.slot_of.get(record.id)
        if slot is None:
            slot = self._free.pop() if self._free else self._new_slot()
            self.slot_of[record.id] = slot
            self.cols["seq"][slot] = self._next_seq
            self._next_seq += 1
        else:
            self._drop_tags(slot)
        self.records[slot] = record
        c = self.cols
        c["live"][slot] = True
        c["persona"][slot] = self.persona_code(record.persona_id)
        c["group"][slot] = self._code(self._group_codes, normalise(record.group))
        c["type"][slot] = TYPES.index(record.type) if record.type in TYPES else -1
        c["scope"][slot] = SCOPES.index(record.scope) if record.scope in SCOPES else -1
        c["tier"][slot] = TIERS.index(record.tier) if record.tier in TIERS else -1
        c["importance"][slot] = record.importance
        c["created"][slot] = record.created_at.timestamp()
        c["updated"][slot] = record.updated_at.timestamp()
        c["expires"][slot] = timestamp(record.expires_at, np.inf)
        c["access"][slot] = record.access_count
        c["mention"][slot] = record.mention_count
        c["deleted"][slot] = record.deleted_at is not None
        c["superseded"][slot] = record.superseded_by is not None
        for tag in record.tags:
            self.tag_slots.setdefault(normalise(tag), set()).add(slot)
        self._neighbours = None
        return slot

    def remove(self, memory_id: str) -> int | None:
        slot = self.slot_of.pop(memory_id, None)
        if slot is None:
            return None
        self._drop_tags(slot)
        self.records[slot] = None
        self.cols["live"][slot] = False
        self._free.append(slot)
        self._neighbours = None
        return slot

    def _drop_tags(self, slot: int) -> None:
        record = self.records[slot]
        for tag in record.tags if record else ():
            slots = self.tag_slots.get(normalise(tag))
            if slots is not None:
                slots.discard(slot)
                if not slots:
                    del self.tag_slots[normalise(tag)]

    def _new_slot(self) -> int:
        slot = len(self.records)
        self.records.append(None)
        if slot >= len(self.cols["live"]):
            for name, array in self.cols.items():
                grown = np.zeros(len(array) * 2, dtype=array.dtype)
                grown[: len(array)] = array
                self.cols[name] = grown
        return slot

    @staticmethod
    def _code(codes: dict[str, int], key: str) -> int:
        code = codes.get(key)
        if code is None:
            code = codes[key] = len(codes)
        return code

    def persona_code(self, persona_id: str | None) -> int:
        return GLOBAL_CODE if persona_id is None else self._code(self._persona_codes, persona_id)

    def record(self, slot: int) -> MemoryRecord | None:
        return self.records[slot]

    def records_of(self, slots: list[int]) -> dict[int, MemoryRecord]:
        return {s: record for s in slots if (record := self.records[s]) is not None}

    def slot(self, memory_id: str) -> int | None:
        return self.slot_of.get(memory_id)

    def ids_of(self, slots: list[int]) -> dict[int, str]:
        return {s: record.id for s in slots if (record := self.records[s]) is not None}

    # -- masks -------------------------------------------------------------------
    def scope_mask(self, persona: str | None) -> np.ndarray:
        """None = every persona; '' = global only; an id = that persona + global."""
        codes = self.col("persona")
        live = self.col("live")
        if persona is None:
            return live.copy()
        if persona == "":
            return live & (codes == GLOBAL_CODE)
        code = self._persona_codes.get(persona)
        own = (codes == code) if code is not None else np.zeros(self.size, dtype=bool)
        return live & (own | (codes == GLOBAL_CODE))

    def expired_mask(self, now: datetime) -> np.ndarray:
        return self.col("expires") <= now.timestamp()

    def persona_mask(self, persona_ids: set[str | None]) -> np.ndarray:
        wanted = [self._persona_codes[p] for p in persona_ids if p is not None and p in self._persona_codes]
        if None in persona_ids:
            wanted.append(GLOBAL_CODE)
        return np.isin(self.col("persona"), wanted)

    def group_mask(self, pattern: str) -> np.ndarray:
        """The group, its sub-groups ('a' covers 'a/b'), or a glob with * and ?."""
        pattern = normalise(pattern).strip("/")
        wanted = [
            code
            for name, code in self._group_codes.items()
            if name == pattern or name.startswith(pattern + "/") or fnmatch.fnmatchcase(name, pattern)
        ]
        return np.isin(self.col("group"), wanted)

    def tag_mask(self, pattern: str) -> np.ndarray:
        mask = np.zeros(self.size, dtype=bool)
        pattern = normalise(pattern)
        if any(c in pattern for c in "*?["):
            names = [t for t in self.tag_slots if fnmatch.fnmatchcase(t, pattern)]
        else:
            names = [t for t in (pattern,) if t in self.tag_slots]
        for name in names:
            mask[list(self.tag_slots[name])] = True
        return mask

    def id_mask(self, pattern: str) -> np.ndarray:
        mask = np.zeros(self.size, dtype=bool)
        if any(c in pattern for c in "*?["):
            slots = [s for i, s in self.slot_of.items() if fnmatch.fnmatchcase(i, pattern)]
        else:
            slots = [self.slot_of[pattern]] if pattern in self.slot_of else []
            if not slots and len(pattern) >= MIN_ID_PREFIX:  # the 8 characters `memdesk list` prints
                slots = [s for i, s in self.slot_of.items() if i.startswith(pattern)]
        mask[slots] = True
        return mask

    # -- ranking signals (each 0..1) -----------------------------------------------
    def importance01(self, slots: np.ndarray) -> np.ndarray:
        return (self.cols["importance"][slots] - 1.0) / 9.0

    def heat01(self, slots: np.ndarray, now: datetime) -> np.ndarray:
        c = self.cols
        return heat_array(c["created"][slots], c["access"][slots], c["mention"][slots], now.timestamp()) / 100.0

    def freshness01(self, slots: np.ndarray, now: datetime, half_life_days: float) -> np.ndarray:
        age_days = np.maximum(0.0, now.timestamp() - self.cols["updated"][slots]) / 86400.0
        return np.power(0.5, age_days / half_life_days)

    # -- context -------------------------------------------------------------------
    def neighbours(self, window_s: float) -> tuple[np.ndarray, np.ndarray]:
        """(previous, next) slot per slot, -1 for none: the memory stored just before and
        just after it, of the same persona and within ``window_s`` seconds (deleted and
        superseded memories are skipped, and have none).

        Memories saved in one conversation are context for each other (a
        question's answer is often the next line). Cached until the next change.
        """
        cached = self._neighbours
        if cached is not None and cached[0] == window_s:
            return cached[1], cached[2]
        size = self.size
        previous, following = np.full(size, -1), np.full(size, -1)
        c = self.cols
        # Memories in the trash or superseded do not stand between two that are shown.
        slots = np.where(self.col("live") & ~self.col("deleted") & ~self.col("superseded"))[0]
        slots = slots[np.lexsort((c["seq"][slots], c["created"][slots], c["persona"][slots]))]
        a, b = slots[:-1], slots[1:]
        linked = (c["persona"][a] == c["persona"][b]) & (np.abs(c["created"][b] - c["created"][a]) <= window_s)
        previous[b[linked]] = a[linked]
        following[a[linked]] = b[linked]
        self._neighbours = (window_s, previous, following)
        return previous, following
