"""What the window's tree and result list show of a memory (a Brief), and every memory of a
window's view as compact columns (a BriefTable): what the tree holds.

A Brief object per memory (its slots, its id and title strings, a dict entry)
cost ~400 bytes: a window showing a million memories grew by 400 MB once its
tree had loaded. Here a memory is a row of columns, ~56 bytes plus the UTF-8
of its id and title:
- ids and titles as UTF-8 in one bytearray each, with end offsets;
- persona, group, type, tier and tag set as small ints into one list of the
  distinct values (a store has a few of each, repeated on thousands of rows);
- state and importance as one and two bytes; the update time (seconds) and heat as
  eight bytes each (the memory table's columns: gui/browser/table_model.py);
- id -> row through a sorted array of id hashes, plus a dict for rows added
  after the first fill (a removed row is marked, and revived if its id returns).

It reads like a dict of id -> Brief (get, [], in, len, items): a Brief is made
when someone asks for one, so the views keep their interface. No Qt and no
database here; listing.load_table fills one. Not thread-safe: one thread fills
it, then one thread (the window's) reads and changes it.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

STATES = ("active", "deleted", "expired", "superseded")
GONE = -1  # the state of a row whose memory left the view
_STATE_CODE = {name: code for code, name in enumerate(STATES)}


@dataclass(frozen=True, slots=True)
class Brief:
    """One memory as the tree and the result list show it (listing.py reads them)."""

    id: str
    persona_id: str | None
    group: str
    title: str  # record.display_title
    tags: tuple[str, ...]
    type: str
    tier: str
    state: str  # active | deleted | expired | superseded
    importance: int
    # The table's columns: seconds since the epoch (a float, not the stored text: at a
    # million memories those strings were 75 MB) and the stored heat 0-100.
    updated: float = 0.0
    heat: float = 0.0

    @property
    def sort_key(self) -> tuple[str, str]:
        # The title itself when it folds to itself (Chinese titles): the tree build makes a
        # key per memory, and a million new copies were ~100 MB at its peak.
        folded = self.title.casefold()
        return (self.title if folded == self.title else folded, self.id)


class _Texts:
    """Strings as UTF-8 in one buffer: ~1 byte a character of Latin text and 3 of Chinese,
    where a str object costs 49-74 bytes before its first character."""

    __slots__ = ("_blob", "_ends", "_moved")

    def __init__(self) -> None:
        self._blob = bytearray()
        self._ends = array("q")
        self._moved: dict[int, str] = {}  # rows whose text changed after they were added

    def append(self, text: str) -> None:
        self._blob += text.encode("utf-8", "surrogatepass")
        self._ends.append(len(self._blob))

    def __getitem__(self, row: int) -> str:
        if self._moved and row in self._moved:
            return self._moved[row]
        start = self._ends[row - 1] if row else 0
        return self._blob[start : self._ends[row]].decode("utf-8", "surrogatepass")

    def __setitem__(self, row: int, text: str) -> None:
        if self[row] != text:
            self._moved[row] = text


class BriefTable(Mapping):
    def __init__(self, key: Callable[[str], int] = hash) -> None:
        """``key`` hashes an id (tests give one that collides)."""
        self._key = key
        self._ids = _Texts()
        self._titles = _Texts()
        self._persona, self._group, self._type, self._tier, self._tags = (array("i") for _ in range(5))
        self._state = array("b")
        self._importance = array("h")
        self._updated = array("d")  # seconds since the epoch
        self._heat = array("d")
        self._values: list = []  # code -> value (a persona id or None, a group, a type, a tier, a tag set)
        self._codes: dict = {}  # value -> code
        self._hashes: array | None = array("q")  # while filling: hash(id) per row
        self._by_hash: np.ndarray | None = None  # after seal(): the hashes sorted, and the row of each
        self._hash_rows: np.ndarray | None = None
        self._extra: dict[str, int] = {}  # rows added after seal()
        self._live = 0

    @classmethod
    def of(cls, briefs: Iterable[Brief], key: Callable[[str], int] = hash) -> BriefTable:
        table = cls(key)
        for brief in briefs:
            table.append(brief)
        return table.seal()

    # ---- filling --------------------------------------------------------------------------
    def _code(self, value) -> int:
        codes = self._codes
        return codes.setdefault(value, len(codes))

    @property
    def _distinct(self) -> list:
        """code -> value (codes are given in insertion order, which the dict keeps)."""
        if len(self._values) != len(self._codes):
            self._values = list(self._codes)
        return self._values

    def add(
        self, memory_id, persona_id, group, title, tags, type_, tier, state, importance, updated=0.0, heat=0.0
    ) -> int:
        """A new row (the fields of a Brief, in its order); its row number."""
        # A million rows at a window's start: one dict call per value, no method calls.
        codes = self._codes
        row = len(self._state)
        self._ids.append(memory_id)
        self._titles.append(title)
        self._persona.append(codes.setdefault(persona_id, len(codes)))
        self._group.append(codes.setdefault(group, len(codes)))
        self._type.append(codes.setdefault(type_, len(codes)))
        self._tier.append(codes.setdefault(tier, len(codes)))
        self._tags.append(codes.setdefault(tuple(tags), len(codes)))
        self._state.append(_STATE_CODE[state])
        self._importance.append(importance if -32768 <= importance <= 32767 else max(-32768, min(32767, importance)))
        self._updated.append(updated)
        self._heat.append(heat)
        self._live += 1
        if self._hashes is not None:
            self._hashes.append(self._key(memory_id))
        else:
            self._extra[memory_id] = row
        return row

    def append(self, brief: Brief) -> int:
        return self.add(
            brief.id,
            brief.persona_id,
            brief.group,
            brief.title,
            brief.tags,
            brief.type,
            brief.tier,
            brief.state,
            brief.importance,
            brief.updated,
            brief.heat,
        )

    def seal(self) -> BriefTable:
        """Index the rows added so far by id (one numpy sort, which lets the GIL go)."""
        if self._hashes is not None:
            hashes = np.frombuffer(self._hashes, dtype=np.int64) if self._hashes else np.empty(0, np.int64)
            order = np.argsort(hashes, kind="stable")
            self._by_hash, self._hash_rows = hashes[order], order.astype(np.int32)
            self._hashes = None
        return self

    # ---- rows ------------------------------------------------------------------------------
    def row(self, memory_id: str, *, gone: bool = False) -> int | None:
        """The row of a memory in the view (or, with ``gone``, one that left it)."""
        row = self._extra.get(memory_id)
        hashes, rows = self._by_hash, self._hash_rows
        if row is None and hashes is not None and rows is not None and len(hashes):
            key = self._key(memory_id)
            at = int(hashes.searchsorted(key, "left"))
            while at < len(hashes) and int(hashes[at]) == key:
                candidate = int(rows[at])
                if self._ids[candidate] == memory_id:
                    row = candidate
                    break
                at += 1
        if row is None or (not gone and self._state[row] == GONE):
            return None
        return row

    def rows_of(self, memory_ids: list[str]) -> np.ndarray:
        """The rows of these memories in the view, in the order given (ids not in it left out):
        row() for every match of a search (50k) at once, with the hash lookups in numpy."""
        found = np.full(len(memory_ids), -1, dtype=np.int64)
        hashes, rows = self._by_hash, self._hash_rows
        if hashes is not None and rows is not None and len(hashes) and len(memory_ids):
            keys = np.fromiter(map(self._key, memory_ids), dtype=np.int64, count=len(memory_ids))
            at = np.minimum(np.searchsorted(hashes, keys), len(hashes) - 1)
            after = np.minimum(at + 1, len(hashes) - 1)
            alone = (hashes[at] == keys) & ((after == at) | (hashes[after] != keys))  # no other id has this hash
            found[alone] = rows[at[alone]]
        ids = self._ids
        for n, memory_id in enumerate(memory_ids):
            row = int(found[n])
            if row < 0 or ids[row] != memory_id:  # added since, hashes that collide, not in the view
                found[n] = -1 if (other := self.row(memory_id, gone=True)) is None else other
        found = found[found >= 0]
        return found[np.frombuffer(self._state, dtype=np.int8)[found] != GONE].astype(np.int32)

    def rows(self) -> Iterator[int]:
        """Every row in the view, in the order they were added."""
        state = self._state
        return (row for row in range(len(state)) if state[row] != GONE)

    def memory_id(self, row: int) -> str:
        return self._ids[row]

    def title(self, row: int) -> str:
        return self._titles[row]

    def state_code(self, row: int) -> int:
        """The row's state as its index in STATES (GONE for a row that left the view)."""
        return self._state[row]

    def brief(self, row: int) -> Brief:
        values = self._distinct
        return Brief(
            self._ids[row],
            values[self._persona[row]],
            values[self._group[row]],
            self._titles[row],
            values[self._tags[row]],
            values[self._type[row]],
            values[self._tier[row]],
            STATES[self._state[row]],
            self._importance[row],
            self._updated[row],
            self._heat[row],
        )

    def sort_key(self, row: int) -> tuple[str, str]:
        """Brief.sort_key of the row, made from its columns."""
        # _Texts.__getitem__ written out: the tree's sort asks for two million keys at a million memories
        titles, ids = self._titles, self._ids
        if titles._moved and row in titles._moved:
            title = titles._moved[row]
        else:
            ends = titles._ends
            title = titles._blob[ends[row - 1] if row else 0 : ends[row]].decode("utf-8", "surrogatepass")
        ends = ids._ends
        memory_id = ids._blob[ends[row - 1] if row else 0 : ends[row]].decode("utf-8", "surrogatepass")
        folded = title.casefold()
        return (title if folded == title else folded, memory_id)

    def size(self) -> int:
        """Rows ever added (row numbers run below it; a row that left the view is GONE)."""
        return len(self._state)

    def column(self, name: str) -> np.ndarray:
        """A copy of one column for every row, as numpy: "state" (STATES codes, GONE), "importance",
        "updated", "heat", or "persona" / "group" / "type" / "tier" / "tags" (codes: see value)."""
        source = {
            "state": self._state,
            "importance": self._importance,
            "updated": self._updated,
            "heat": self._heat,
            "persona": self._persona,
            "group": self._group,
            "type": self._type,
            "tier": self._tier,
            "tags": self._tags,
        }[name]
        return np.array(source)  # a copy: a view would stop the array from growing

    def value(self, code: int):
        """What a code of the persona, group, type, tier or tags column stands for."""
        return self._distinct[code]

    def placed(self, rows: Iterable[int], pause: Callable[[int], None] = lambda n: None) -> dict[tuple, array]:
        """(kind, key) of each container -> its rows, in the order given (tree_nodes.placements,
        by column: a place tuple per memory and container cost a second at a million)."""
        state, group, kind, tier, tags = self._state, self._group, self._type, self._tier, self._tags
        values = self._distinct
        by: dict[str, defaultdict[int, array]] = {
            name: defaultdict(lambda: array("i")) for name in ("state", "group", "type", "tier", "tag")
        }
        by_state, by_group, by_type, by_tier, by_tag = by.values()
        tag_codes: dict[int, tuple[int, ...]] = {}
        for n, row in enumerate(rows):
            if n % 5000 == 0:
                pause(n)
            code = state[row]
            if code:
                if code != GONE:
                    by_state[code].append(row)
                continue
            by_group[group[row]].append(row)
            by_type[kind[row]].append(row)
            by_tier[tier[row]].append(row)
            t = tags[row]
            own = tag_codes.get(t)
            if own is None:
                own = tag_codes[t] = tuple(self._code(tag) for tag in values[t])
            for code in own:
                by_tag[code].append(row)
        out: dict[tuple, array] = {}
        values = self._distinct  # with the single tags coded above
        for name, buckets in by.items():
            for code, bucket in buckets.items():
                out[(name, STATES[code] if name == "state" else values[code])] = bucket
        return out

    # ---- the dict of id -> Brief ------------------------------------------------------------
    def __getitem__(self, memory_id: str) -> Brief:
        row = self.row(memory_id)
        if row is None:
            raise KeyError(memory_id)
        return self.brief(row)

    def __contains__(self, memory_id) -> bool:
        return isinstance(memory_id, str) and self.row(memory_id) is not None

    def __iter__(self) -> Iterator[str]:
        return (self._ids[row] for row in self.rows())

    def __len__(self) -> int:
        return self._live

    def __setitem__(self, memory_id: str, brief: Brief) -> None:
        row = self.row(memory_id, gone=True)
        if row is None:
            self.add(memory_id, *(getattr(brief, name) for name in Brief.__slots__[1:]))
            return
        if self._state[row] == GONE:
            self._live += 1
        self._titles[row] = brief.title
        self._persona[row] = self._code(brief.persona_id)
        self._group[row] = self._code(brief.group)
        self._type[row] = self._code(brief.type)
        self._tier[row] = self._code(brief.tier)
        self._tags[row] = self._code(tuple(brief.tags))
        self._state[row] = _STATE_CODE[brief.state]
        self._importance[row] = max(-32768, min(32767, brief.importance))
        self._updated[row] = brief.updated
        self._heat[row] = brief.heat

    def pop(self, memory_id: str, default=None):
        row = self.row(memory_id)
        if row is None:
            return default
        brief = self.brief(row)
        self._state[row] = GONE
        self._live -= 1
        return brief
