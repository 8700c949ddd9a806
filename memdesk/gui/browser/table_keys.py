"""The memory table's text sort keys: each row's place in pinyin order of its title or of its
content's start (core/search/language/collation.py), worked out per distinct text once, on the
work lane (~0.7 s of work at 100k, spread out by pauses for the UI thread: _keys), and kept per
table row as one float array. A row added or
changed since gets a place between its neighbours (half-way numbers) when its text is at hand.
"""

from __future__ import annotations

import threading
import time
from bisect import bisect_left
from collections.abc import Callable

import numpy as np

from memdesk.core.search.language import collation, piece_cache
from memdesk.core.views.brief_table import BriefTable
from memdesk.core.views.listing import content_starts, contents

KEY_SLICE_S = 0.0001  # keys worked out between two of the UI thread's turns (_keys)
SYNC_KEYS = 10_000  # titles keyed at once on the UI thread (~60 ms); more wait for the work lane
STALE_CONTENT_MAX = 50  # contents changed since their keys: read at once up to this many, else all again
CONTENT_CHARS = 24  # the content's start that sorts it: ties past it are rare and cost nothing to leave


def ranks_of(texts: list[str]) -> tuple[list[str], np.ndarray]:
    """(the distinct texts' pinyin keys in order, each text's place among them)."""
    keyed = _keys(set(texts))
    ordered = sorted(keyed, key=keyed.__getitem__)
    places = {text: place for place, text in enumerate(ordered)}
    return [keyed[t] for t in ordered], np.array([places[t] for t in texts], dtype=np.float64)


def _keys(texts: set[str]) -> dict[str, str]:
    """Each text's pinyin key, with the UI thread's turns in between when this runs on a
    window's worker thread (piece_cache.UI_TURN_S, set by the window; 0 elsewhere).

    100k keys are ~0.4 s of Python. While they ran, each of the UI thread's paint and data()
    calls, which come back into Python from Qt, queued for the GIL behind them: at 100k the
    window froze for 0.4-0.8 s after its first result (cold_start's window_settled_max_stall_ms,
    40-54 ms without this job). A pause after every KEY_SLICE_S of work brings it to 54-86 ms
    (six starts), and the keys arrive later: 3.7 s at 100k instead of 0.7 (until then titles
    sort by code point). Not kept, as they helped little: pausing the garbage collector, a
    switch interval of 0.5 ms, and sorting in runs so that no one C sort holds the GIL long.
    """
    pause = piece_cache.UI_TURN_S if threading.current_thread() is not threading.main_thread() else 0.0
    if not pause:
        return {text: collation.sort_key(text) for text in texts}
    keyed: dict[str, str] = {}
    clock = time.perf_counter
    until = clock() + KEY_SLICE_S
    for n, text in enumerate(texts):
        keyed[text] = collation.sort_key(text)
        if n % 16 == 15 and clock() > until:
            time.sleep(pause)
            until = clock() + KEY_SLICE_S
    return keyed


def title_ranks(table: BriefTable) -> tuple[list[str], np.ndarray]:
    """The title column's sort keys, worked out once per table on the work lane."""
    return ranks_of([table.title(row) for row in range(table.size())])


def content_line(content: str) -> str:
    """A content's start as the content column shows it: its words on one line."""
    return " ".join(content.split())[:CONTENT_CHARS]


def content_ranks(store, table: BriefTable) -> tuple[list[str], np.ndarray]:
    """The content column's sort keys: every memory's content start read in one narrow query
    (0.11 s at 100k memories), keyed as titles are (work lane, when the column is first sorted)."""
    starts = content_starts(store, CONTENT_CHARS * 2)  # (runs of spaces fold away)
    return ranks_of([content_line(starts.get(table.memory_id(row), "")) for row in range(table.size())])


class TextRanks:
    """One text column's keys for one table: None until worked out (set), NaN for rows changed
    or added since, placed again from their text when next asked (text_of)."""

    def __init__(self) -> None:
        self.keys: list[str] | None = None
        self.ranks: np.ndarray | None = None

    def set(self, ranks: tuple[list[str], np.ndarray] | None) -> None:
        self.keys, self.ranks = ranks or (None, None)

    @property
    def ready(self) -> bool:
        return self.ranks is not None

    def stale(self, row: int) -> None:
        if self.ranks is not None and row < len(self.ranks):
            self.ranks[row] = np.nan

    def of(self, rows: np.ndarray, size: int, text_of: Callable[[list[int]], list[str]]) -> np.ndarray:
        """The rows' places (zeros while the keys are on their way: a stable sort keeps the order)."""
        ranks, keys = self.ranks, self.keys
        if ranks is None or keys is None:
            return np.zeros(len(rows))
        if len(ranks) < size:
            ranks = self.ranks = np.concatenate([ranks, np.full(size - len(ranks), np.nan)])
        stale = rows[np.isnan(ranks[rows])].tolist()
        for row, text in zip(stale, text_of(stale) if stale else []):  # between their neighbours
            ranks[row] = bisect_left(keys, collation.sort_key(text)) - 0.5
        return ranks[rows]


class ColumnKeys:
    """The sort keys of the memory table's columns: one number per row whose order is the
    column's order. Numbers as they are; coded columns (group, persona, type) by their texts'
    places, worked out per distinct value at each sort; titles and content starts from their
    TextRanks. ``text_of(column, value)``: the text a coded value shows; ``want_contents``:
    asks the work lane for content_ranks (the model's content_keys_wanted)."""

    def __init__(self, store, text_of: Callable, want_contents: Callable[[], None]) -> None:
        self.store, self.text_of, self.want_contents = store, text_of, want_contents
        self.titles = TextRanks()
        self.contents = TextRanks()
        self.asked = False  # content keys on their way

    def reset(self, title_ranks_=None) -> None:
        self.titles.set(title_ranks_)
        self.contents.set(None)
        self.asked = False

    def set_contents(self, ranks) -> None:
        self.contents.set(ranks)
        self.asked = False

    def stale(self, rows: list[int | None]) -> None:
        for row in rows:
            if row is not None:
                self.titles.stale(row)
                self.contents.stale(row)

    def of(self, name: str, table: BriefTable, rows: np.ndarray) -> np.ndarray:
        if name in ("importance", "updated", "heat"):
            return table.column(name)[rows]
        if name == "title":
            if not self.titles.ready and table.size() <= SYNC_KEYS:
                self.titles.set(title_ranks(table))
            return self.titles.of(rows, table.size(), lambda stale: [table.title(r) for r in stale])
        if name == "snippet":
            return self._content(table, rows)
        column = table.column(name)[rows]
        codes = np.unique(column)
        texts = [self.text_of(name, table.value(int(c))) for c in codes]
        places = collation.rank_of(texts)
        lookup = np.zeros(int(codes.max()) + 1, dtype=np.int64)
        lookup[codes] = [places[t] for t in texts]
        return lookup[column]

    def _content(self, table: BriefTable, rows: np.ndarray) -> np.ndarray:
        """The content starts' places: read and keyed on the work lane the first time (the
        model's set_content_ranks sorts again); the few changed since are read here."""
        ranks = self.contents.ranks
        if ranks is not None:
            known = rows[rows < len(ranks)]
            if int(np.isnan(ranks[known]).sum()) + len(rows) - len(known) > STALE_CONTENT_MAX:
                self.contents.set(None)  # many changed (an import): all keyed again
        if not self.contents.ready and not self.asked:
            self.asked = True
            self.want_contents()  # (a model without a worker is given them at once: tests)
        if not self.contents.ready:
            return np.zeros(len(rows))

        def text_of(stale: list[int]) -> list[str]:
            found = contents(self.store, [table.memory_id(r) for r in stale])
            return [content_line(found.get(table.memory_id(r), ("", ""))[1]) for r in stale]

        return self.contents.of(rows, table.size(), text_of)
