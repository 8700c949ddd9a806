"""The tree view on the left: loads its tree off the UI thread and keeps it
current from ``changes_applied``.

A handful of changed memories (ours, or another process's as the change feed
reports them) are re-read on the UI thread (one short query) and moved with
row signals; more than INCREMENTAL_MAX, a pruned feed ("reload") or a persona
switch rebuild the tree on the work lane and swap it in, keeping what was
expanded and selected.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QTreeView, QVBoxLayout, QWidget

from memdesk.core import ops as operations
from memdesk.core.feed.reader import is_reload
from memdesk.core.views import collector, queries
from memdesk.core.views.listing import load_briefs, load_table

from .tree_model import KEY_ROLE, KIND_ROLE, TreeModel
from .tree_nodes import Tree

INCREMENTAL_MAX = 300
CONTAINERS = frozenset({"group", "type", "tag", "tier", "state"})  # a place the table shows
SECTIONS_SHOWN = frozenset({("section", "types"), ("section", "tags"), ("section", "tiers"), ("section", "inactive")})
DEFAULT_EXPANDED = (("group", None), ("section", "personas"))


def _build_tree(store, persona, cancel) -> Tree:
    # Pauses the cyclic collector while a million rows stream through (core/views/collector.py);
    # what stays is columns and a node per container, nothing the collector has to walk.
    with collector.paused():
        table = load_table(store, persona=persona, cancel=cancel)
        personas = [(p.id, p.name, p.colour) for p in store.personas()]
        saved = operations.saved_searches(store)
        return Tree(table, personas=personas, saved=saved, persona_filter=persona).build(cancel)


class TreePane(QWidget):
    memory_selected = Signal(str)  # a memory leaf became current (the editor follows)
    node_activated = Signal(str, object)  # kind, key of a clicked non-memory node
    place_chosen = Signal(object)  # (kind, key) of a container or section that became current
    loaded = Signal()
    persona_gone = Signal()  # the persona being shown was deleted elsewhere

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.model = TreeModel(self)
        self.view = QTreeView(self)
        self.view.setObjectName("memoryTree")
        self.view.setModel(self.model)
        self.view.setHeaderHidden(True)
        self.view.setUniformRowHeights(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setDragEnabled(True)
        self.view.setAcceptDrops(True)
        self.view.setDropIndicatorShown(True)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.view.setExpandsOnDoubleClick(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

        self.persona = queries.ALL
        self._generation = 0
        self._building = False
        self._pending_ids: set[str] = set()
        self._expanded: set[tuple] = set(DEFAULT_EXPANDED)
        self._quiet = 0
        self._current_id = None
        self.took_place: str | None = None  # the leaf made current when the current one left (on_changes)

        self.view.expanded.connect(lambda i: self._expanded.add(self.model.node(i).place))
        self.view.collapsed.connect(lambda i: self._expanded.discard(self.model.node(i).place))
        self.view.selectionModel().currentChanged.connect(self._on_current)
        self.view.clicked.connect(self._on_clicked)
        session.changes_applied.connect(self.on_changes)
        session.saved_searches_changed.connect(self._reload_saved)

    # ---- loading ----------------------------------------------------------------------------
    @property
    def building(self) -> bool:
        return self._building

    def expect_reload(self) -> None:
        """A reload is on its way (the window opens the search index first): count as building."""
        self._building = True

    def set_persona(self, persona) -> None:
        self.persona = persona
        self.reload()

    def reload(self) -> None:
        self._generation += 1
        generation, persona, store = self._generation, self.persona, self.session.store
        self._building = True
        self._pending_ids.clear()
        self.session.taskman.run(
            lambda cancel, progress: _build_tree(store, persona, cancel),
            label=self.tr("Loading memories"),
            lane="work",
            on_done=lambda tree: self._swap(generation, tree),
            on_failed=lambda exc: self._failed(generation, exc),
        )

    def _failed(self, generation, exc) -> None:
        if generation == self._generation:
            self._building = False
            self.session.report(exc)

    def _swap(self, generation: int, tree: Tree) -> None:
        if generation != self._generation:
            tree.dispose()
            return  # a newer build (another persona, more changes) is on its way
        selected = self.selected_ids()
        current = self._current_id
        scroll = self.view.verticalScrollBar().value()
        self._quiet += 1
        try:
            self.model.set_tree(tree)
            for place in list(self._expanded):
                node = tree.containers.get(place) or (tree.sections.get(place[1]) if place[0] == "section" else None)
                if node is not None:
                    self.view.expand(self.model.index_of(node))
            self._building = False
            pending, self._pending_ids = self._pending_ids, set()
            if len(pending) > INCREMENTAL_MAX:
                QTimer.singleShot(0, self.reload)  # too many for the UI thread: build again
            elif pending:
                self._apply_ids(pending)
            self._reselect(selected, current)
            self.view.verticalScrollBar().setValue(scroll)
        finally:
            self._quiet -= 1
        self.loaded.emit()

    def _reload_saved(self) -> None:
        self.model.set_saved(operations.saved_searches(self.session.store))

    # ---- keeping current ---------------------------------------------------------------------
    def on_changes(self, changes) -> None:
        if is_reload(changes):  # the feed was pruned past what we had read: only a full read can tell
            self.reload()
            return
        if changes.personas:
            personas = self.session.store.personas()
            self.model.set_personas([(p.id, p.name, p.colour) for p in personas])
            if self.persona not in (queries.ALL, queries.GLOBAL) and self.persona not in {p.id for p in personas}:
                self.persona_gone.emit()
                return
        ids = changes.memory_ids
        if not ids:
            return
        if self._building:
            self._pending_ids.update(ids)
        elif len(ids) > INCREMENTAL_MAX:
            self.reload()
        else:
            current, selected = self._current_id, self.selected_ids()
            leaf = self.current_node() if current else None
            leaf = leaf if leaf is not None and leaf.kind == "memory" and leaf.key == current else None
            before = (leaf.parent, leaf.row) if leaf is not None else None
            self._quiet += 1
            try:
                self._apply_ids(ids)
                if before is not None and self._left_for_state(current, before[0]):
                    current = self._take_place(*before)  # not after it into the trash: the next leaf
                self._reselect(selected, current)
            finally:
                self._quiet -= 1

    def _left_for_state(self, memory_id: str, parent) -> bool:
        """The memory left ``parent`` as it went to or from the trash (or expired, or was purged)."""
        home = self.model.tree.home_of(memory_id)
        return home is not parent and (home is None or home.kind == "state" or parent.kind == "state")

    def _take_place(self, parent, row: int) -> str | None:
        """The leaf now at ``row`` of ``parent`` (else the one before), made current quietly."""
        self.took_place = None
        leaves = parent.children[parent.nfolders :]
        if parent.parent is None or not leaves:
            self._current_id = None
            return None
        at = min(max(row - parent.nfolders, 0), len(leaves) - 1)
        self.took_place = self._current_id = leaves[at].key
        return self.took_place

    def _apply_ids(self, ids) -> None:
        ids = list(ids)
        fresh = load_briefs(self.session.store, persona=self.persona, ids=ids)
        self.model.apply_briefs({i: fresh.get(i) for i in ids})

    # ---- selection -----------------------------------------------------------------------------
    def selected_ids(self) -> list[str]:
        out = []
        for index in self.view.selectionModel().selectedIndexes():
            if index.data(KIND_ROLE) == "memory":
                out.append(index.data(KEY_ROLE))
        return list(dict.fromkeys(out))

    def selected_nodes(self) -> list:
        return [self.model.node(i) for i in self.view.selectionModel().selectedIndexes()]

    def current_node(self):
        index = self.view.currentIndex()
        return self.model.node(index) if index.isValid() else None

    def select_memory(self, memory_id: str | None, *, quiet: bool = True) -> bool:
        """Make a memory current (expanding and scrolling to it); False if it is not in view."""
        self._quiet += quiet
        try:
            index = self.model.leaf_index(memory_id) if memory_id else QModelIndex()
            if quiet:
                self._current_id = memory_id
            if not index.isValid():
                self.view.selectionModel().clear()
                return False
            self.view.scrollTo(index)
            self.view.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            return True
        finally:
            self._quiet -= quiet

    def _reselect(self, selected: list[str], current: str | None) -> None:
        if current and self.current_memory_id() != current:
            self.select_memory(current)
        model = self.view.selectionModel()
        for memory_id in selected:
            if memory_id == current:
                continue
            index = self.model.leaf_index(memory_id)
            if index.isValid() and not model.isSelected(index):
                model.select(index, QItemSelectionModel.SelectionFlag.Select)

    def current_memory_id(self) -> str | None:
        node = self.current_node()
        return node.key if node is not None and node.kind == "memory" else None

    def _on_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        if self._quiet:
            return
        # A folder becoming current leaves the editor on its memory and shows its memories in the table.
        if not current.isValid() or current.data(KIND_ROLE) != "memory":
            node = self.model.node(current) if current.isValid() else None
            if node is not None and (node.kind in CONTAINERS or node.place in SECTIONS_SHOWN):
                self._current_id = None
                self.place_chosen.emit(node.place)
            return
        memory_id = current.data(KEY_ROLE)
        if memory_id != self._current_id:
            self._current_id = memory_id
            self.memory_selected.emit(memory_id)

    def _on_clicked(self, index: QModelIndex) -> None:
        kind = index.data(KIND_ROLE)
        if kind in ("persona", "saved"):
            self.node_activated.emit(kind, index.data(KEY_ROLE))

    # ---- counts for the status bar ------------------------------------------------------------
    def counts(self) -> dict:
        tree = self.model.tree
        return {"active": tree.total("groups"), "trash": tree.total("trash"), "loaded": not self._building}
