"""The browser: the tree on the left (personas, groups, types, tags, tiers, the trash) and
the memory table beside it (table_pane.py), which shows what the tree's current place
holds, or the hits of the search being typed. Index updates and searches queue on the
"search" lane in the order they were asked for; an answer to an older query than the
newest is dropped, and so is a page of an older query's hits."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from memdesk.core.storage import page_cache
from memdesk.core.views.listing import contents

from .search_backend import PAGE, SearchBackend
from .table_keys import content_ranks, title_ranks
from .table_pane import TablePane
from .tree_nodes import rows_of_place
from .tree_pane import INCREMENTAL_MAX, TreePane

FEED_HOLD_MAX_MS = 10_000  # the feed is read by then even if the tree never loads
# The word lists' load waits for results on their way to be painted, this long after they are
# shown at most, and starts anyway this long after the index is open (a search that failed).
WARM_UP_AFTER_SHOW_MS = 100
WARM_UP_WAIT_MAX_MS = 3_000


class BrowserPane(QWidget):
    memory_selected = Signal(str)  # from the tree or from a result
    search_finished = Signal(object)  # Outcome, once shown
    mode_changed = Signal(str)  # "tree" | "results"
    counts_changed = Signal()  # another page of hits came (the search's count may have grown)
    index_ready = Signal()
    embedded = Signal()  # the embedding job finished: search by meaning covers every memory

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.backend = SearchBackend(session.store)
        self.tree = TreePane(session, self)
        self.table = TablePane(session.store, self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("browserSplitter")
        self.splitter.addWidget(self.tree)
        self.splitter.addWidget(self.table)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setSizes([190, 570])
        self.tree.setMinimumWidth(140)  # "分组 (3,000)" whole at 800 px
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.place: tuple = ("group", None)  # the tree's place the table shows (every active memory)
        self.query = ""
        self._seq = 0
        self._started: dict[int, float] = {}
        self.latencies_ms: list[float] = []  # search asked -> results shown (bench/gui_speed.py reads these)
        self._deferred: list = []  # index updates waiting for the tree to finish loading
        self._prefetched = False
        self.warm_up_state = "not yet"  # -> "waiting for results" -> "started" -> "done" (tests read it)
        self.tree.loaded.connect(self._tree_loaded)
        self.tree.memory_selected.connect(self._tree_memory)
        self.tree.place_chosen.connect(self.show_place)
        self.table.memory_selected.connect(self.memory_selected)
        self.table.model.more_wanted.connect(self._fetch_page)
        self.table.model.snippets_wanted.connect(self._read_snippets)
        self.table.model.all_wanted.connect(self._fetch_all)
        self.table.model.hits_wanted.connect(self._fetch_hits)
        self.table.model.content_keys_wanted.connect(self._key_contents)
        session.changes_applied.connect(self._on_changes)

    # ---- the search index -------------------------------------------------------------------
    def start(self) -> None:
        """Open the store's search index and load jieba first, then fill the tree.

        Search is what a user reaches for at once; at 100k memories the tree is
        seconds of Python that would otherwise share the interpreter with it.
        """
        backend = self.backend

        def warm(cancel, progress):
            backend.open_engine().tokenizer.warm_up()

        def failed(exc):
            self.tree.reload()
            self.session.report(exc)

        # The feed's first poll reads every memory: after the index and the tree, not beside them.
        session = self.session
        session.hold_feed()
        self.tree.loaded.connect(session.release_feed)  # a no-op once released
        QTimer.singleShot(FEED_HOLD_MAX_MS, self, session.release_feed)  # a tree that failed to load
        self.tree.expect_reload()
        self.session.taskman.run(
            warm,
            label=self.tr("Opening the search index"),
            lane="search",
            visible=False,
            on_done=lambda _none: self.tree.reload(),
            on_failed=failed,
        )

    def build_index(self) -> None:
        """Open the store's index and load jieba and the model, after the window is up."""
        backend = self.backend
        self.session.taskman.run(
            backend.prepare,
            label=self.tr("Building the search index"),
            lane="work",
            on_done=lambda _count: self._index_built(),
            on_failed=self.session.report,
        )

    def _index_built(self) -> None:
        self.index_ready.emit()
        self._rerun()
        self._warm_up_after_results()
        backend = self.backend
        if backend.engine is None or backend.engine.embedder is None:
            return

        def embed_stale(cancel, progress) -> int | None:
            # Which memories lack a vector is a pass over every memory (0.5 s at 100k): asked
            # once, by the embedding job, on the work lane. On the UI thread it froze the
            # window ~1.8 s soon after start whenever a model was active.
            return backend.embed(cancel=cancel, progress=progress) or None

        self.session.taskman.run(
            embed_stale,
            label=self.tr("Embedding memories"),
            lane="work",
            on_done=lambda done: None if done is None else self.embedded.emit(),
            on_failed=self.session.report,
        )

    def _warm_up_after_results(self) -> None:
        """Load the synonym lists and pinyin's table (~0.4 s of Python on a worker), but not
        while results are being painted: beside a paint such a load takes the GIL between the
        paint's calls, and the window froze ~100-140 ms as the first results came at 100k
        memories (39-58 ms with the load after them). Searches meanwhile load what they need."""
        if self._started:  # results on their way: _show starts it once they are shown
            self.warm_up_state = "waiting for results"
            QTimer.singleShot(WARM_UP_WAIT_MAX_MS, self, self._start_warm_up)
        else:
            self._start_warm_up()

    def _start_warm_up(self) -> None:
        if self.warm_up_state in ("started", "done"):  # the fallback timer, after the results came
            return
        self.warm_up_state = "started"
        self.session.taskman.run(
            self.backend.warm_up,
            label=self.tr("Loading the word lists"),  # a start-up job (cold_start's "settled" waits for it)
            lane="work",
            visible=False,
            on_done=lambda _none: setattr(self, "warm_up_state", "done"),
            on_failed=self.session.report,
        )

    # ---- searching ----------------------------------------------------------------------------
    @property
    def persona(self):
        return self.tree.persona

    def set_persona(self, persona) -> None:
        self.tree.set_persona(persona)
        self._rerun()

    @property
    def searching(self) -> bool:
        return bool(self.query.strip())

    def search(self, text: str) -> None:
        self.query = text
        self._seq += 1  # answers still on their way are for an older query
        if not text.strip():
            if self.table.model.searching:
                self._show_place_rows()
                self.mode_changed.emit("tree")
            return
        seq, persona, backend = self._seq, self.persona, self.backend
        self._started[seq] = time.perf_counter()
        self.session.taskman.run(
            lambda cancel, progress: backend.search(text, persona=persona),
            label=self.tr("Searching"),
            lane="search",
            visible=False,
            on_done=lambda outcome: self._show(seq, outcome),
            on_failed=self.session.report,
        )

    def _show(self, seq: int, outcome) -> None:
        started = self._started.pop(seq, None)
        if seq != self._seq:
            return
        model = self.table.model
        model.persona_names = {p.id: p.name for p in self.session.store.personas()}
        entering = not model.searching
        same = not entering and model.outcome.query == outcome.query
        self.table.show_outcome(outcome, same_query=same)
        if entering:
            self.mode_changed.emit("results")
        if started is not None:
            self.latencies_ms.append((time.perf_counter() - started) * 1000)
        if self.warm_up_state == "waiting for results":
            QTimer.singleShot(WARM_UP_AFTER_SHOW_MS, self, self._start_warm_up)
        self.search_finished.emit(outcome)

    def _fetch_page(self, offset: int, count: int) -> None:
        """The table scrolled to the end of the hits it has: the next page of the same search
        (or, for a sort, every hit left)."""
        seq, text, persona, backend = self._seq, self.query, self.persona, self.backend
        count = count or PAGE

        def shown(outcome) -> None:
            if seq == self._seq:
                self.table.add_page(outcome)
                self.counts_changed.emit()
            else:
                self.table.model.fetching = False

        self.session.taskman.run(
            lambda cancel, progress: backend.search(text, persona=persona, limit=count, offset=offset),
            label=self.tr("Searching"),
            lane="search",
            visible=False,
            on_done=shown,
            on_failed=self.session.report,
        )

    def _fetch_all(self) -> None:
        """A sort of the search's hits: every match's row at once (ids from the engine, their
        rows in the table found here too: 65k matches at 100k memories, 0.2 s + 66 ms). The lane
        reads the table as title_ranks does; add_matches drops rows of a table replaced since."""
        seq, text, persona, backend = self._seq, self.query, self.persona, self.backend
        model = self.table.model
        table = model.table

        def shown(rows) -> None:
            if seq == self._seq:
                self.table.add_matches(table, rows)
                self.counts_changed.emit()
            else:
                model.fetching = False

        self.session.taskman.run(
            lambda cancel, progress: table.rows_of(backend.matching(text, persona=persona)),
            label=self.tr("Searching"),
            lane="search",
            visible=False,
            on_done=shown,
            on_failed=self.session.report,
        )

    def _fetch_hits(self, ids: list) -> None:
        """The hits of rows on screen of a search sorted by a column (why each was found); a
        block scrolled past before its turn on the lane is dropped (each is a ranking)."""
        seq, text, persona, backend, model = self._seq, self.query, self.persona, self.backend, self.table.model

        def hits(cancel, progress):
            wanted = seq == self._seq and model.hits_still_wanted(ids)
            return backend.hits_of(text, ids, persona=persona) if wanted else None

        def shown(found) -> None:
            if seq != self._seq:
                return
            if found is None:
                model.hits_dropped(ids)
            else:
                model.add_hits(found)

        self.session.taskman.run(
            hits, label="", lane="search", visible=False, on_done=shown, on_failed=self.session.report
        )

    def _key_contents(self) -> None:
        """The content column's sort keys (its first sort): read and keyed on the work lane."""
        store, model = self.session.store, self.table.model
        table = model.table
        self.session.taskman.run(
            lambda cancel, progress: content_ranks(store, table),
            label="",
            lane="work",
            visible=False,
            on_done=lambda ranks: model.set_content_ranks(table, ranks),
            on_failed=self.session.report,
        )

    def _read_snippets(self, ids: list) -> None:
        store, model = self.session.store, self.table.model
        self.session.taskman.run(
            lambda cancel, progress: contents(store, ids),
            label="",
            lane="work",
            visible=False,
            on_done=lambda found: model.add_snippets(found, ids),
            on_failed=self.session.report,
        )

    # ---- the table's place --------------------------------------------------------------------
    def show_place(self, place) -> None:
        """A place of the tree became current: the table shows its memories (unless searching)."""
        self.place = tuple(place)
        if not self.searching:
            self._show_place_rows()

    def _show_place_rows(self, *, keep: bool = False) -> None:
        model = self.table.model
        model.persona_names = {p.id: p.name for p in self.session.store.personas()}
        rows = rows_of_place(model.table, self.place)
        if keep:
            self.table.update_rows(rows, self._place_label())
        else:
            self.table.show_place(rows, self._place_label())

    def _place_label(self) -> str:
        if self.place == ("group", None):
            return self.tr("All memories")
        tree_model = self.tree.model
        node = tree_model.tree.containers.get(self.place) or tree_model.tree.sections.get(self.place[1] or "")
        return tree_model.label(node) if node is not None else ""

    def _tree_memory(self, memory_id: str) -> None:
        self.table.select_id(memory_id)
        self.memory_selected.emit(memory_id)

    def _table_loaded(self) -> None:
        """A new tree (and column store): the table reads it, and its titles' pinyin keys are
        worked out on the work lane (~0.7 s at 100k; until then titles sort by code point)."""
        table = self.tree.model.tree.briefs
        self.table.model.set_table(table)
        if self.searching:
            self._rerun()
        else:
            self._show_place_rows(keep=True)
        self.session.taskman.run(
            lambda cancel, progress: title_ranks(table),
            label="",
            lane="work",
            visible=False,
            on_done=lambda ranks: self.table.model.set_title_ranks(table, ranks),
            on_failed=self.session.report,
        )

    def _rerun(self) -> None:
        if self.searching:
            self.search(self.query)

    def _on_changes(self, changes) -> None:
        """Ours or another process's (the change feed): the index catches up from the feed; the
        table follows the tree's columns, which the tree has just brought up to date."""
        self._follow_changes(changes)
        if not self.backend.engine_ready:
            self._rerun()
        elif len(changes.memory_ids) > INCREMENTAL_MAX and self.tree.building:
            # Two big Python jobs at once starve the UI thread of the GIL: index after the tree.
            self._deferred.append(changes)
        else:
            self._update_index(changes)

    def _follow_changes(self, changes) -> None:
        ids = changes.memory_ids
        model = self.table.model
        if not ids or self.tree.building or model.table is not self.tree.model.tree.briefs:
            return  # a new tree is on its way: _table_loaded shows it
        model.forget(ids)
        model.retitled(ids)
        moved = self.table.current_id()
        if not self.searching:
            self._show_place_rows(keep=True)
        took = self.tree.took_place
        self.tree.took_place = None
        if took is None:
            return
        if self.tree.view.hasFocus() or self.table.current_id() == moved:
            self.table.select_id(took)  # deleted from the tree, or the table did not have it
            self.memory_selected.emit(took)
        elif self.table.current_id():
            self.tree.select_memory(self.table.current_id())  # the tree's leaf follows the table's choice

    def _update_index(self, changes) -> None:
        backend = self.backend
        self.session.taskman.run(
            lambda cancel, progress: backend.apply(changes),
            label=self.tr("Updating the search index"),
            lane="search",
            visible=len(changes.memory_ids) > INCREMENTAL_MAX,
            on_failed=self.session.report,
        )
        self._rerun()  # queued after the index update on the same lane

    def _tree_loaded(self) -> None:
        self._table_loaded()
        if not self._prefetched:  # start-up is over: the store's pages for the searches to come
            self._prefetched = True
            path = self.session.store.path
            self.session.taskman.run(
                lambda cancel, progress: page_cache.prefetch(path), label="", lane="work", visible=False
            )
        deferred, self._deferred = self._deferred, []
        for changes in deferred:
            self._update_index(changes)

    # ---- what the window asks ------------------------------------------------------------------
    def selected_ids(self) -> list[str]:
        """The table's selected memories; the tree's when the tree has the focus."""
        tree = self.tree.selected_ids() if self.tree.view.hasFocus() else []
        return tree or self.table.selected_ids() or self.tree.selected_ids()

    def select_memory(self, memory_id: str | None) -> None:
        """Follow the editor (e.g. a new memory) without re-emitting memory_selected. (A memory
        leaf becoming current in the tree leaves the table's place as it is.)"""
        self.table.select_id(memory_id)
        self.tree.select_memory(memory_id)

    def current_hit(self, memory_id: str):
        """The search hit for a memory when the results are showing (for explain)."""
        if not self.searching:
            return None
        return self.table.model.hits.get(memory_id)

    def step(self, delta: int) -> None:
        self.table.step(delta)

    def counts(self) -> dict:
        out = self.tree.counts()
        out["found"] = self.table.model.total if self.searching and self.table.model.searching else None
        return out
