"""The memory tree as plain Python nodes (no Qt), built off the UI thread.

Each node caches its row in its parent, so ``parent()`` is O(1) (Anki's
sidebar; calibre and Vorta's ``children.index(self)`` is what to avoid).
Memory leaves are materialised lazily in batches: a container keeps the
rows (of its BriefTable) it has not shown yet in ``pending`` (sorted, always
after the shown ones), and the model hands out more through Qt's fetchMore.
So a group with 100k memories costs 400 KB of row numbers, not 100k nodes;
the memories themselves are columns (core/views/brief_table.py), not objects.

Incremental updates (a few changed memories) go through ``Tree.update``,
which reports every structural change to a notifier (the Qt model turns
those into beginInsertRows/endInsertRows etc.; builds off-thread pass none).
"""

from __future__ import annotations

import heapq
import time
from array import array
from bisect import bisect_left, insort
from collections.abc import Mapping

import numpy as np

from memdesk.core.domain.records import TIERS, TYPES
from memdesk.core.search.language.collation import sort_key
from memdesk.core.views.brief_table import STATES, BriefTable

BATCH = 500  # leaves materialised per fetchMore
RUN = 10_000  # memories sorted in one call while the tree is built (~10 ms of GIL)
SECTIONS = ("personas", "groups", "types", "tags", "tiers", "saved", "inactive", "trash")
CONTAINER_KINDS = frozenset({"group", "type", "tag", "tier", "state"})
INACTIVE_STATES = ("expired", "superseded")


class Node:
    __slots__ = ("kind", "key", "label", "parent", "row", "children", "nfolders", "pending", "count", "__weakref__")

    def __init__(self, kind: str, key, label: str = "", parent: Node | None = None):
        self.kind = kind  # root section group type tag tier state persona saved memory
        self.key = key
        self.label = label
        self.parent = parent
        self.row = 0
        self.children: list[Node] = []
        self.nfolders = 0  # children[:nfolders] are sub-containers, the rest memory leaves
        self.pending: array | tuple = array("i") if kind in CONTAINER_KINDS else ()  # rows not shown yet
        self.count = 0

    @property
    def place(self) -> tuple:
        return (self.kind, self.key)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Node({self.kind}, {self.key!r}, rows={len(self.children)}, pending={len(self.pending)})"


class NullNotifier:
    def begin_insert(self, parent, first, last):
        pass

    def end_insert(self):
        pass

    def begin_remove(self, parent, first, last):
        pass

    def end_remove(self):
        pass

    def changed(self, node):
        pass


NULL = NullNotifier()


def placements(brief) -> list[tuple[str, str]]:
    """The containers a memory appears in."""
    if brief is None:
        return []
    if brief.state != "active":
        return [("state", brief.state)]
    return [("group", brief.group), ("type", brief.type), ("tier", brief.tier)] + [("tag", t) for t in brief.tags]


def _in_order(table: BriefTable, cancel=lambda: False) -> array:
    """The table's rows by sort_key, sorted in runs of RUN and merged in Python.

    One list.sort is one C call that holds the GIL: sorting each container at a
    million memories froze the window for up to 1.9 s. A run sorts in ~10 ms; the
    merge is Python, which lets the UI thread in every switch interval. Keys are
    made from the columns as the sort needs them: a key per memory held at once
    was ~100 MB at a million.
    """
    rows = array("i", table.rows())
    key = table.sort_key
    runs = []
    for start in range(0, len(rows), RUN):
        if cancel():
            return array("i")
        runs.append(array("i", sorted(rows[start : start + RUN], key=key)))
        time.sleep(0)
    if len(runs) <= 1:
        return runs[0] if runs else array("i")
    return array("i", heapq.merge(*runs, key=key))


def _renumber(node: Node, start: int = 0) -> None:
    children = node.children
    for i in range(start, len(children)):
        children[i].row = i


class Tree:
    def __init__(self, briefs: Mapping, *, personas=(), saved=(), persona_filter=None):
        # id -> Brief, kept as columns; a plain dict of briefs (tests, small views) is turned into one
        self.briefs = briefs if isinstance(briefs, BriefTable) else BriefTable.of(briefs.values())
        self.personas = list(personas)  # (id, name, colour)
        self.saved = list(saved)  # {"name", "query"}
        self.persona_filter = persona_filter
        self.root = Node("root", None)
        self.containers: dict[tuple, Node] = {}
        self.leaves: dict[str, list[Node]] = {}
        self.sections: dict[str, Node] = {}
        for name in SECTIONS:
            if name == "groups":
                node = Node("group", None, parent=self.root)
            elif name == "trash":
                node = Node("state", "deleted", parent=self.root)
            else:
                node = Node("section", name, parent=self.root)
            self.sections[name] = node
            self.root.children.append(node)
            if node.kind in CONTAINER_KINDS:
                self.containers[node.place] = node
        self.root.nfolders = len(self.root.children)
        _renumber(self.root)

    @classmethod
    def empty(cls) -> Tree:
        return cls({})

    def dispose(self) -> None:
        """Unlink every node from its parent and children, for a tree no view shows any more.
        A built tree is frozen out of the collector's passes (tree_pane), and a node and its
        parent point at each other: without this only the collector could free them."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            node.children, node.parent = [], None
        self.containers.clear()
        self.leaves.clear()
        self.sections.clear()

    # ---- full build (worker thread) -----------------------------------------------------
    def build(self, cancel=lambda: False) -> Tree:
        # Every container's memories come out in order when they are dealt in one order.
        # This runs on a worker: the pause lets the UI thread have the GIL.
        buckets = self.briefs.placed(_in_order(self.briefs, cancel), lambda n: time.sleep(0))
        for place, rows in buckets.items():
            if cancel():
                break
            node = self._ensure(place, NULL, renumber=False)
            node.pending = rows
            self._add_count(node, len(rows), NULL)
        self._fill_personas()
        self._fill_saved()
        stack = [self.root]
        while stack:
            node = stack.pop()
            _renumber(node)
            stack.extend(node.children[: node.nfolders])
        return self

    def _fill_personas(self) -> None:
        section = self.sections["personas"]
        section.children = [Node("persona", "", parent=section)]
        section.children += [Node("persona", pid, name, parent=section) for pid, name, _ in self.personas]
        section.nfolders = len(section.children)
        _renumber(section)

    def _fill_saved(self) -> None:
        section = self.sections["saved"]
        section.children = [Node("saved", i, s["name"], parent=section) for i, s in enumerate(self.saved)]
        section.nfolders = len(section.children)
        _renumber(section)

    def persona_colour(self, persona_id: str) -> str:
        return next((colour for pid, _, colour in self.personas if pid == persona_id), "")

    # ---- structure helpers --------------------------------------------------------------
    def _sort_key(self, memory_id: str):
        return self.briefs[memory_id].sort_key

    def pending_ids(self, node: Node) -> list[str]:
        """The memories a container has not shown yet, in order."""
        return [self.briefs.memory_id(row) for row in node.pending]

    @staticmethod
    def _folder_key(node: Node):
        kind, key = node.kind, node.key
        if kind == "group":
            return (0, "", "") if key == "" else (1, sort_key(node.label), key)  # 出差 < 会议 < 同事: pinyin
        if kind == "type":
            return (TYPES.index(key) if key in TYPES else len(TYPES), key)
        if kind == "tier":
            return (TIERS.index(key) if key in TIERS else len(TIERS), key)
        if kind == "state":
            return (INACTIVE_STATES.index(key) if key in INACTIVE_STATES else 9, key)
        return (0, sort_key(str(key)), str(key))

    def _parent_for(self, place: tuple, notifier) -> Node:
        kind, key = place
        if kind == "group":
            if key == "" or "/" not in key:
                return self.sections["groups"]
            return self._ensure(("group", key.rsplit("/", 1)[0]), notifier)
        if kind == "state":
            return self.sections["inactive"]
        return self.sections[{"type": "types", "tag": "tags", "tier": "tiers"}[kind]]

    def _ensure(self, place: tuple, notifier, *, renumber: bool = True) -> Node:
        node = self.containers.get(place)
        if node is not None:
            return node
        parent = self._parent_for(place, notifier)
        kind, key = place
        label = key.rsplit("/", 1)[-1] if kind == "group" else key
        node = Node(kind, key, label, parent)
        pos = bisect_left(parent.children, self._folder_key(node), hi=parent.nfolders, key=self._folder_key)
        notifier.begin_insert(parent, pos, pos)
        parent.children.insert(pos, node)
        parent.nfolders += 1
        if renumber:
            _renumber(parent, pos)
        notifier.end_insert()
        self.containers[place] = node
        return node

    def _add_count(self, node: Node | None, delta: int, notifier) -> None:
        while node is not None and node.kind in CONTAINER_KINDS:
            node.count += delta
            notifier.changed(node)
            if node.kind != "group":
                break
            node = node.parent

    @staticmethod
    def _permanent(node: Node) -> bool:
        return node.parent is not None and node.parent.kind == "root"

    def _prune(self, node: Node | None, notifier) -> None:
        while (
            node is not None
            and node.kind in CONTAINER_KINDS
            and not self._permanent(node)
            and node.count == 0
            and not node.children
            and not node.pending
        ):
            parent, row = node.parent, node.row
            notifier.begin_remove(parent, row, row)
            del parent.children[row]
            parent.nfolders -= 1
            _renumber(parent, row)
            notifier.end_remove()
            del self.containers[node.place]
            node = parent if parent.kind == "group" else None

    # ---- leaves ---------------------------------------------------------------------------
    def fetch_more(self, node: Node, notifier, batch: int = BATCH) -> int:
        take = node.pending[:batch]
        if not take:
            return 0
        del node.pending[:batch]
        first = len(node.children)
        notifier.begin_insert(node, first, first + len(take) - 1)
        for offset, row in enumerate(take):
            memory_id = self.briefs.memory_id(row)
            leaf = Node("memory", memory_id, parent=node)
            leaf.row = first + offset
            node.children.append(leaf)
            self.leaves.setdefault(memory_id, []).append(leaf)
        notifier.end_insert()
        return len(take)

    def _remove_leaf(self, node: Node, memory_id: str, notifier) -> None:
        for leaf in self.leaves.get(memory_id, ()):
            if leaf.parent is node:
                row = leaf.row
                notifier.begin_remove(node, row, row)
                del node.children[row]
                _renumber(node, row)
                notifier.end_remove()
                self.leaves[memory_id].remove(leaf)
                if not self.leaves[memory_id]:
                    del self.leaves[memory_id]
                break
        else:
            row, key = self.briefs.row(memory_id), self.briefs.sort_key
            if row is not None:
                i = bisect_left(node.pending, key(row), key=key)
                if i < len(node.pending) and node.pending[i] == row:
                    del node.pending[i]
                elif row in node.pending:  # keys changed under us; stay correct
                    node.pending.remove(row)
        self._add_count(node, -1, notifier)

    def _insert_leaf(self, node: Node, memory_id: str, notifier) -> None:
        key = self._sort_key(memory_id)
        row_key = self.briefs.sort_key
        if node.pending and key > row_key(node.pending[0]):
            insort(node.pending, self.briefs.row(memory_id), key=row_key)
        else:
            row = bisect_left(node.children, key, lo=node.nfolders, key=lambda leaf: self._sort_key(leaf.key))
            notifier.begin_insert(node, row, row)
            leaf = Node("memory", memory_id, parent=node)
            node.children.insert(row, leaf)
            _renumber(node, row)
            self.leaves.setdefault(memory_id, []).append(leaf)
            notifier.end_insert()
        self._add_count(node, +1, notifier)

    def update(self, fresh: dict, notifier=NULL) -> None:
        """Apply new briefs (None = gone from this view) with fine-grained notifications."""
        for memory_id, new in fresh.items():
            old = self.briefs.get(memory_id)
            if old == new:
                continue
            old_places, new_places = placements(old), placements(new)
            if old is not None and new is not None and old.sort_key == new.sort_key and old_places == new_places:
                self.briefs[memory_id] = new
                for leaf in self.leaves.get(memory_id, ()):
                    notifier.changed(leaf)
                continue
            for place in old_places:
                self._remove_leaf(self.containers[place], memory_id, notifier)
            if new is None:
                self.briefs.pop(memory_id, None)
            else:
                self.briefs[memory_id] = new
            for place in new_places:
                self._insert_leaf(self._ensure(place, notifier), memory_id, notifier)
            for place in old_places:
                self._prune(self.containers.get(place), notifier)

    def set_personas(self, personas, notifier=NULL) -> None:
        self._refill(self.sections["personas"], personas, "personas", notifier)

    def set_saved(self, saved, notifier=NULL) -> None:
        self._refill(self.sections["saved"], saved, "saved", notifier)

    def _refill(self, section: Node, items, what: str, notifier) -> None:
        if section.children:
            notifier.begin_remove(section, 0, len(section.children) - 1)
            section.children, section.nfolders = [], 0
            notifier.end_remove()
        if what == "personas":
            self.personas = list(items)
            fill = self._fill_personas
        else:
            self.saved = list(items)
            fill = self._fill_saved
        count = len(items) + (1 if what == "personas" else 0)
        if count:
            notifier.begin_insert(section, 0, count - 1)
            fill()
            notifier.end_insert()

    def home_of(self, memory_id: str) -> Node | None:
        """The container where a memory is shown first (its group, or its state)."""
        places = placements(self.briefs.get(memory_id))
        return self.containers.get(places[0]) if places else None

    def materialise(self, memory_id: str, notifier=NULL) -> Node | None:
        """The leaf of a memory in its home container, fetching batches up to it."""
        node, row = self.home_of(memory_id), self.briefs.row(memory_id)
        if node is None or row is None:
            return None
        while True:
            for leaf in self.leaves.get(memory_id, ()):
                if leaf.parent is node:
                    return leaf
            if row not in node.pending or not self.fetch_more(node, notifier):
                return None

    def total(self, section: str) -> int:
        return self.sections[section].count


def rows_of_place(table: BriefTable, place: tuple | None) -> np.ndarray:
    """The table's rows a tree node stands for: a group with its subgroups, a type, a tier or
    a tag (active memories), a state (the trash...), or every active memory (the memory
    table's rows for the tree's current place: table_model.py)."""
    state = table.column("state")
    kind, key = place if place else ("group", None)
    if kind == "state":
        return np.flatnonzero(state == STATES.index(key)).astype(np.int32)
    if kind == "section" and key == "inactive":
        return np.flatnonzero((state == STATES.index("expired")) | (state == STATES.index("superseded")))
    active = state == STATES.index("active")
    if kind in ("group", "type", "tier", "tag") and key is not None:
        column = table.column("tags" if kind == "tag" else kind)
        codes = np.unique(column[active])
        wanted = [int(c) for c in codes if _place_holds(kind, key, table.value(int(c)))]
        active &= np.isin(column, np.array(wanted, dtype=column.dtype))
    return np.flatnonzero(active).astype(np.int32)


def _place_holds(kind: str, key, value) -> bool:
    if kind == "tag":
        return key in value
    if kind == "group" and key:
        return value == key or value.startswith(key + "/")
    return value == key
