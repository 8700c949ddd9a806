"""The per-memory columns a fresh process loads from the store's index (search_meta's packed
rows: persona, group, states, times, counters, lengths), with the lookups the in-memory table
answers from its dicts (records, ids, tags) read from SQL instead."""

from __future__ import annotations

import fnmatch
from collections import OrderedDict

import numpy as np

from memdesk.core.domain.records import MIN_ID_PREFIX, MemoryRecord
from memdesk.core.search.index import terms as index_terms
from memdesk.core.search.index.memory_rows import SELECT, memory_from_row
from memdesk.core.search.index.meta import META
from memdesk.core.search.index.table import RecordTable
from memdesk.core.search.language.tokenize import normalise

IDS_READ_ALL = 5000  # ids_of reads every slot's id at once past this many slots

# every packed column but "doc", in META's order
PACKED: tuple[str, ...] = tuple(META.names or ())[1:]

RECORDS_KEPT = 2000  # full records kept between searches


class StoredTable(RecordTable):
    """The per-slot columns of RecordTable, filled from the store's packed rows."""

    def __init__(self, store):
        super().__init__(capacity=16)
        self.store = store
        self._size = 0
        self._count = 0
        self._tags: dict[str, np.ndarray] = {}  # tag: filters' masks (tag_mask)
        self._records: OrderedDict[int, MemoryRecord] = OrderedDict()  # records_of's, until memories change
        self.add_columns()

    def __len__(self) -> int:
        return self._count

    @property
    def size(self) -> int:
        return self._size

    def _grow(self, size: int) -> None:
        if size > len(self.cols["live"]):
            capacity = max(size, 2 * len(self.cols["live"]))
            for name, array in self.cols.items():
                grown = np.zeros(capacity, dtype=array.dtype)
                grown[: len(array)] = array
                self.cols[name] = grown
        self._size = max(self._size, size)

    def load(self) -> None:
        self._tags.clear()
        self._records.clear()
        conn = self.store.connection()
        size = conn.execute("SELECT COALESCE(MAX(doc), 0) + 1 FROM search_meta").fetchone()[0]
        for name, array in self.cols.items():
            self.cols[name] = np.zeros(max(size, 16), dtype=array.dtype)
        self._size = size
        cursor = conn.execute("SELECT meta FROM search_meta")
        while True:  # in slices: a million rows joined at once would double the peak memory
            rows = cursor.fetchmany(50_000)
            if not rows:
                break
            self._place(np.frombuffer(b"".join(r[0] for r in rows), dtype=META))
        self._count = int(self.col("live").sum())
        self.reload_codes()

    def _place(self, rows: np.ndarray) -> None:
        if len(rows) == 0:
            self._count = int(self.col("live").sum())
            return
        docs = rows["doc"]
        self._grow(int(docs.max()) + 1)
        c = self.cols
        c["live"][docs] = True
        c["seq"][docs] = docs
        for name in PACKED:
            c[name][docs] = rows[name]
        self._count = int(self.col("live").sum())
        self._neighbours = None

    def refresh(self, memory_ids: list[str]) -> list[tuple[int, str]]:
        """Re-read these memories' columns; returns (slot, embed-text hash) of each found."""
        self._tags.clear()
        self._records.clear()
        conn = self.store.connection()
        found, blobs = [], []
        for start in range(0, len(memory_ids), 500):
            chunk = memory_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for doc, ehash, meta in conn.execute(
                f"SELECT d.doc, d.ehash, m.meta FROM search_doc d JOIN search_meta m ON m.doc = d.doc "
                f"WHERE d.memory_id IN ({marks})",
                chunk,
            ):
                found.append((doc, ehash))
                blobs.append(meta)
        if len(found) < len(memory_ids):  # some were purged: drop slots that no longer exist
            live = {d for (d,) in conn.execute("SELECT doc FROM search_meta")}
            for slot in np.where(self.col("live"))[0].tolist():
                if slot not in live:
                    self.cols["live"][slot] = False
        self._place(np.frombuffer(b"".join(blobs), dtype=META))
        self.reload_codes()
        return found

    def reload_codes(self) -> None:
        """Re-read the persona and group codes (another process may have added some)."""
        rows = self.store.connection().execute("SELECT kind, name, code FROM search_code").fetchall()
        self._persona_codes = {n: c for k, n, c in rows if k == "p"}
        self._group_codes = {n: c for k, n, c in rows if k == "g"}

    def add_columns(self) -> None:
        for name in ("wlen", "glen", "plen"):
            self.cols.setdefault(name, np.zeros(len(self.cols["live"]), dtype=np.float64))

    # -- lookups the in-memory table answers from its dicts ---------------------------
    def record(self, slot: int) -> MemoryRecord | None:
        return self.records_of([slot]).get(slot)

    def records_of(self, slots: list[int]) -> dict[int, MemoryRecord]:
        """Full records by slot, straight from SQL (peewee's rows cost more than the rest of
        a search's hits), kept until memories change: typing a query on shows mostly the
        same hits again. The least recently shown are let go first (clearing them all once
        there were too many made the next call, often the same hits' explanations, read
        them all again)."""
        out, missing = {}, []
        kept = self._records
        for slot in slots:
            known = kept.get(int(slot))
            if known is None:
                missing.append(int(slot))
            else:
                out[int(slot)] = known
                kept.move_to_end(int(slot))
        conn = self.store.connection()
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in conn.execute(
                f"SELECT d.doc, {SELECT} FROM search_doc d JOIN memory m ON m.id = d.memory_id "
                f"WHERE d.doc IN ({marks})",
                chunk,
            ):
                out[row[0]] = kept[row[0]] = memory_from_row(row[1:])
        while len(kept) > RECORDS_KEPT:  # the least recently shown go first
            kept.popitem(last=False)
        return out

    def ids_of(self, slots: list[int]) -> dict[int, str]:
        conn = self.store.connection()
        if len(slots) > IDS_READ_ALL:  # every match of a common word: one pass beats many IN lists
            wanted = set(map(int, slots))  # (40k slots at 100k memories: 48 ms read whole, 82 ms by 500)
            every = conn.execute("SELECT doc, memory_id FROM search_doc")
            return {doc: memory_id for doc, memory_id in every if doc in wanted}
        out = {}
        for start in range(0, len(slots), 500):
            chunk = [int(s) for s in slots[start : start + 500]]
            marks = ",".join("?" * len(chunk))
            out.update(conn.execute(f"SELECT doc, memory_id FROM search_doc WHERE doc IN ({marks})", chunk))
        return out

    def slot(self, memory_id: str) -> int | None:
        row = (
            self.store.connection()
            .execute("SELECT doc FROM search_doc WHERE memory_id = ? AND terms IS NOT NULL", (memory_id,))
            .fetchone()
        )
        return row[0] if row else None

    def tag_mask(self, pattern: str) -> np.ndarray:
        # Kept until memories change: typing after a tag: filter asks again at every keystroke.
        known = self._tags.get(pattern)
        if known is None or len(known) != self.size:
            if len(self._tags) >= 16:  # typed prefixes (tag:健, tag:健康) come and go
                self._tags.clear()
            known = self._tags[pattern] = self._tag_mask(pattern)
        return known.copy()

    def _tag_mask(self, pattern: str) -> np.ndarray:
        mask = np.zeros(self.size, dtype=bool)
        pattern = normalise(pattern)
        conn = self.store.connection()
        if any(c in pattern for c in "*?["):
            tags = [
                t
                for (t,) in conn.execute("SELECT term FROM search_term WHERE field = ?", (index_terms.TAGS,))
                if fnmatch.fnmatchcase(t, pattern)
            ]
        else:
            tags = [pattern]
        for tag in tags:
            docs = index_terms.read(conn, index_terms.TAGS, tag)[0]
            mask[docs[docs < len(mask)]] = True
        return mask & self.col("live")

    def id_mask(self, pattern: str) -> np.ndarray:
        mask = np.zeros(self.size, dtype=bool)
        conn = self.store.connection()
        if any(c in pattern for c in "*?["):
            rows = [
                (d, i)
                for d, i in conn.execute("SELECT doc, memory_id FROM search_doc WHERE terms IS NOT NULL")
                if fnmatch.fnmatchcase(i, pattern)
            ]
        else:
            rows = conn.execute(
                "SELECT doc, memory_id FROM search_doc WHERE memory_id = ? AND terms IS NOT NULL", (pattern,)
            ).fetchall()
            if not rows and len(pattern) >= MIN_ID_PREFIX:  # the 8 characters `memdesk list` prints
                rows = conn.execute(  # substr, not LIKE: _ and % are characters of an id, and case counts
                    "SELECT doc, memory_id FROM search_doc WHERE substr(memory_id, 1, ?) = ? AND terms IS NOT NULL",
                    (len(pattern), pattern),
                ).fetchall()
        docs = [d for d, _ in rows if d < self.size]
        mask[docs] = True
        return mask
