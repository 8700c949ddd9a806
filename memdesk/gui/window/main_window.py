"""The main window: persona selector and search on top, the memory tree and the memory
table (what the tree's place holds, or a search's hits) on the left, the editor on the
right, jobs and counts below.

It wires views to the session; it holds no data of its own. The App in
main.py owns the session and rebuilds this window for a language switch.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import ops as operations
from memdesk.core.views import queries
from memdesk.gui import icons
from memdesk.gui.app.maintenance import MaintenanceScheduler
from memdesk.gui.browser.browser_pane import BrowserPane
from memdesk.gui.browser.search_bar import SearchBar
from memdesk.gui.dialogs.ask import Asker
from memdesk.gui.dialogs.review_inbox import proposal_count
from memdesk.gui.editor.editor import MemoryEditor
from memdesk.gui.importing.importer import Importer
from memdesk.gui.semantic.controller import ModelController
from memdesk.gui.semantic.offer import SemanticOffer, set_offer_pending

from .actions import build_actions, build_menus, context_menu
from .examples import ExamplesBanner
from .geometry import restore_layout, save_layout
from .memory_actions import MemoryActions
from .status import JobsWidget, SearchNotice
from .toolbar import MainToolbar
from .window_dialogs import WindowDialogs


class MainWindow(WindowDialogs, QMainWindow):
    first_shown = Signal()
    database_requested = Signal(str, bool)
    language_requested = Signal(str)

    def __init__(self, session, *, ask: Asker | None = None, maintenance_delay_ms: int = 120_000):
        super().__init__()
        self.setObjectName("mainWindow")
        self.session = session
        self.ask = ask or Asker()
        self.setWindowIcon(icons.app_icon())
        self.last_error = ""
        self.personas_dialog = self.settings_dialog = self.tool_log_dialog = self.context_preview_dialog = None
        self.review_dialog = self.statistics_dialog = self.syntax_dialog = None
        self.review_count = 0
        self._shown = False
        self._maintenance_delay_ms = maintenance_delay_ms

        self.browser = BrowserPane(session, self)
        self.editor = MemoryEditor(session, self.ask, self)
        self.search_bar = SearchBar(self)
        self.actions_ = MemoryActions(session, self.ask, self, title_of=self._title_of)
        self.importer = Importer(session, self)
        self.maintenance = MaintenanceScheduler(session, self)
        self.models = ModelController(self)
        self.acts = build_actions(self)
        build_menus(self, self.acts)
        self.toolbar = MainToolbar(self.acts, self.search_bar, self)
        self.addToolBar(self.toolbar)
        self.persona_combo = self.toolbar.persona_combo
        self._build_centre()
        self.jobs = JobsWidget(session.taskman, self)
        self.counts_label = QLabel(self)
        self.counts_label.hide()  # until there is something to count
        self.search_notice = SearchNotice(self)
        self.statusBar().addPermanentWidget(self.search_notice)
        self.waiting_label = QLabel(self)
        self.waiting_label.setObjectName("waitingLabel")
        self.waiting_label.hide()
        self._review_reading = self._review_again = False
        self.statusBar().addPermanentWidget(self.waiting_label)
        self.statusBar().addPermanentWidget(self.counts_label)
        self.statusBar().addPermanentWidget(self.jobs)
        # Each part of the status bar its own place: "回收站 0 条" and "正在建立搜索索引" never run together.
        for label in (self.search_notice, self.waiting_label, self.counts_label):
            label.setContentsMargins(10, 0, 10, 0)
        self.statusBar().setStyleSheet("QStatusBar::item { border: none; border-left: 1px solid #c8c8c8; }")
        self.setAcceptDrops(True)
        self._connect()
        self.refresh_personas()
        self._update_title()
        restore_layout(self)
        self.update_review_count()
        self.browser.start()  # the search index, then the tree
        self.examples_banner.offer()

    # ---- building -------------------------------------------------------------------------------
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.toolbar.fit(self.width())

    def _build_centre(self) -> None:
        self.examples_banner = ExamplesBanner(self.session.store, self.importer, self)
        self.semantic_offer = SemanticOffer(self.models, self.session.store.location, self)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.browser)
        self.splitter.addWidget(self.editor)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([700, 560])
        centre = QWidget(self)
        layout = QVBoxLayout(centre)
        layout.setContentsMargins(6, 4, 6, 0)
        layout.addWidget(self.examples_banner)
        layout.addWidget(self.semantic_offer)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(centre)

    def _connect(self) -> None:
        s = self.session
        s.error_raised.connect(self.show_error)
        s.notice.connect(self.show_notice)  # bound methods only: the session outlives this window
        s.changes_applied.connect(self._on_changes)
        s.changes_applied.connect(self.update_review_count)  # a merge or an edit may close a proposal
        s.external_change.connect(self.update_review_count)  # another process's maintenance run
        s.waiting_changed.connect(self._show_waiting)
        self.maintenance.finished.connect(self._maintenance_finished)
        s.undo_stack.canUndoChanged.connect(self._update_undo)
        s.undo_stack.canRedoChanged.connect(self._update_undo)
        s.undo_stack.undoTextChanged.connect(self._update_undo)
        s.undo_stack.redoTextChanged.connect(self._update_undo)
        s.busy_changed.connect(self._update_undo)
        self._update_undo()
        self.persona_combo.persona_chosen.connect(self.browser.set_persona)
        self.search_bar.query_changed.connect(self.browser.search)
        self.search_bar.step_requested.connect(self.browser.step)
        self.search_bar.open_requested.connect(self._open_current_result)
        self.search_bar.save_requested.connect(self.save_search)
        self.search_bar.help_requested.connect(self.show_syntax)
        self.browser.memory_selected.connect(self.open_memory)
        self.browser.search_finished.connect(self._on_search_finished)
        self.browser.mode_changed.connect(self._on_mode_changed)
        self.browser.counts_changed.connect(self._update_counts)
        tree = self.browser.tree
        tree.loaded.connect(self._update_counts)
        tree.node_activated.connect(self._node_activated)
        tree.persona_gone.connect(lambda: self.set_persona(queries.ALL))
        tree.model.drop_requested.connect(self._dropped)
        for view in (tree.view, self.browser.table.view):
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(partial(self._context_menu, view))
        self.browser.table.may_move = lambda: not self.editor.dirty
        self.editor.saved.connect(self.browser.select_memory)
        self.editor.open_requested.connect(self._open_from_chain)
        self.editor.restore_requested.connect(lambda i: self.actions_.restore([i]))
        self.editor.dirty_changed.connect(self._update_title)
        self.editor.memory_shown.connect(lambda _id: self._update_title())
        self.importer.imported.connect(self._imported)
        self.importer.exported.connect(
            lambda n, path: self.show_notice(self.tr("Exported %n memories to {file}", "", n).format(file=path))
        )
        self.models.search_state.connect(self._show_search_notice)
        self.examples_banner.loaded.connect(self._examples_loaded)
        self.semantic_offer.set_up_requested.connect(lambda: self.open_settings("model"))

    # ---- first show -----------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown:
            self._shown = True
            QTimer.singleShot(0, self._after_first_show)

    def _after_first_show(self) -> None:
        self.first_shown.emit()
        self.semantic_offer.offer()
        # The slow starts (jieba ~1 s, the embedding model) happen after the window is up.
        self.browser.build_index()
        self.maintenance.start(self._maintenance_delay_ms)

    # ---- personas -------------------------------------------------------------------------------
    def refresh_personas(self) -> None:
        self.persona_combo.refresh(self.session.store.personas())

    def set_persona(self, persona) -> None:
        """queries.ALL, queries.GLOBAL or a persona id."""
        self.persona_combo.set_persona(persona)

    def current_persona_id(self) -> str | None:
        return self.persona_combo.current_persona_id()

    # ---- memories ---------------------------------------------------------------------------------
    def open_memory(self, memory_id: str) -> None:
        if memory_id == self.editor.memory_id and not self.editor.is_new:
            return
        if not self.editor.maybe_leave(then=partial(self._open_from_chain, memory_id)):
            self.browser.select_memory(self.editor.memory_id)  # the selection goes back to what is edited
            return
        hit, query, terms = self._search_of(memory_id)
        self.editor.load(memory_id, hit=hit, query=query, terms=terms)

    def _search_of(self, memory_id: str) -> tuple:
        """(hit, query, terms to mark) for a memory under the current search."""
        hit = self.browser.current_hit(memory_id)
        outcome = self.browser.table.model.outcome
        searching = self.browser.searching and outcome is not None
        terms = (tuple(hit.terms) if hit else ()) + tuple(outcome.terms) if searching else ()
        return hit, (self.browser.query if hit else ""), terms

    def _open_current_result(self) -> None:
        memory_id = self.browser.table.current_id() or self.browser.table.step(0)
        if memory_id:
            self.open_memory(memory_id)
            self.editor.form.content.setFocus()

    def _open_from_chain(self, memory_id: str) -> None:
        self.open_memory(memory_id)
        self.browser.select_memory(memory_id)

    def new_memory(self) -> None:
        if not self.editor.maybe_leave(then=self.new_memory):
            return
        node = self.browser.tree.current_node()
        group = node.key if node is not None and node.kind == "group" and node.key else ""
        self.editor.new_memory(persona_id=self.current_persona_id(), group=group)

    def _selection_or_current(self) -> list[str]:
        ids = self.browser.selected_ids()
        return ids or ([self.editor.memory_id] if self.editor.memory_id else [])

    def delete_selected(self) -> None:
        ids = self._selection_or_current()
        in_trash = [i for i in ids if self.state_of(i) == "deleted"]
        if ids and len(in_trash) == len(ids):
            self.actions_.purge(ids)  # Del in the trash: delete for good (asks first)
        else:
            self.actions_.delete([i for i in ids if i not in in_trash])

    def restore_selected(self) -> None:
        self.actions_.restore([i for i in self._selection_or_current() if self.state_of(i) == "deleted"])

    def _brief(self, memory_id: str):
        return self.browser.tree.model.tree.briefs.get(memory_id)

    def _title_of(self, memory_id: str) -> str:
        brief = self._brief(memory_id)
        if brief is not None:
            return brief.title
        return self.editor.record.display_title if self.editor.record and self.editor.memory_id == memory_id else ""

    def state_of(self, memory_id: str) -> str:
        brief = self._brief(memory_id)
        if brief is not None:
            return brief.state
        record = self.session.store.get_many([memory_id]).get(memory_id)
        return "deleted" if record and record.is_deleted else "active"

    def tags_of(self, memory_id: str) -> tuple:
        brief = self._brief(memory_id)
        return brief.tags if brief is not None else ()

    def _dropped(self, kind: str, key, ids: list) -> None:
        name = ""
        if kind == "persona":
            name = self.session.store.persona(key).name if key else self.tr("Global")
        self.actions_.drop(kind, key, ids, name)

    def _context_menu(self, view, pos) -> None:
        if view is self.browser.tree.view:
            nodes, ids = self.browser.tree.selected_nodes(), self.browser.tree.selected_ids()
        else:
            nodes, ids = [], self.browser.table.selected_ids()
        menu = context_menu(self, nodes, ids)
        if not menu.isEmpty():
            menu.popup(view.viewport().mapToGlobal(pos))
        self._last_menu = menu  # tests look at it

    def _node_activated(self, kind: str, key) -> None:
        if kind == "persona":
            self.set_persona(key or queries.GLOBAL)
        elif kind == "saved":
            saved = self.browser.tree.model.tree.saved
            if 0 <= key < len(saved):
                self.search_bar.set_text(saved[key]["query"])

    # ---- searches ---------------------------------------------------------------------------------
    def _on_search_finished(self, outcome) -> None:
        self._outcome_notice = outcome.notice
        self._show_search_notice()
        self.search_bar.set_error(outcome.error)
        self._update_counts()
        self._follow_search()

    def _show_search_notice(self, *_args) -> None:
        """Why search is keyword-only just now, if it is (the model job's word first)."""
        notice = getattr(self, "_outcome_notice", "") if self.browser.searching else ""
        self.search_notice.say(self.models.search_state_text, notice)

    def _on_mode_changed(self, _mode: str) -> None:
        self._update_counts()
        self._follow_search()

    def _follow_search(self) -> None:
        """The open memory's "why found" and marks follow the current search (or its end),
        not the search that opened it."""
        if self.editor.memory_id and not self.editor.is_new:
            self.editor.show_search(*self._search_of(self.editor.memory_id))

    def save_search(self) -> None:
        query = self.search_bar.text().strip()
        if not query:
            return
        name = self.ask.text(self, self.tr("Save search"), self.tr("Name:"), query)
        if not name or not name.strip():
            return
        searches = operations.saved_searches(self.session.store) + [{"name": name.strip(), "query": query}]
        self.session.perform(
            partial(operations.set_saved_searches, searches=searches),
            label=self.tr("Save search “{name}”").format(name=name.strip()),
        )

    def remove_saved_search(self, index: int) -> None:
        searches = operations.saved_searches(self.session.store)
        if 0 <= index < len(searches):
            name = searches[index]["name"]
            del searches[index]
            self.session.perform(
                partial(operations.set_saved_searches, searches=searches),
                label=self.tr("Remove saved search “{name}”").format(name=name),
            )

    # ---- import / export / examples ---------------------------------------------------------------
    def choose_import(self) -> None:
        path = self.ask.open_file(
            self,
            self.tr("Import memories"),
            self.tr("Memory files (*.json *.jsonl *.db *.sqlite *.md *.csv *.zip);;All files (*)"),
        )
        if path:
            self.importer.import_file(path)

    def dragEnterEvent(self, event) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            for path in paths:
                self.importer.import_file(path)

    def _imported(self, result) -> None:
        self.show_notice(
            self.tr("Imported: {added} new, {updated} updated").format(
                added=len(result.changes.added), updated=len(result.changes.updated)
            )
        )

    def export(self) -> None:
        path = self.ask.save_file(self, self.tr("Export memories"), self.tr("MemDesk JSON (*.json)"))
        if path:
            self.importer.export_to(path)

    def _examples_loaded(self) -> None:
        set_offer_pending(self.session.store.location)
        self.semantic_offer.offer()

    def _maintenance_finished(self, report) -> None:
        if self.review_dialog is not None and self.review_dialog.isVisible():
            self.review_dialog.refresh()
        try:
            count = proposal_count(self.session.store)  # the message names it (once per run, after it)
        except Exception:  # noqa: BLE001
            count = 0
        self.show_review_count(count)
        self.show_notice(
            self.tr("Maintenance done: %n merge proposals to review", "", count)
            if count
            else self.tr("Maintenance done")
        )

    # ---- status, title, undo ---------------------------------------------------------------------
    notice_ms = 8000  # a notice (imported, exported, maintenance done) goes away after this

    def show_notice(self, message: str) -> None:
        self.statusBar().showMessage(message, self.notice_ms)

    def show_error(self, message: str) -> None:
        self.last_error = message
        self.statusBar().showMessage(message, 15000)
        self.ask.inform(self, self.tr("MemDesk"), message)

    def _on_changes(self, changes) -> None:
        if changes.personas:
            self.refresh_personas()
        self._update_counts()

    def _update_counts(self) -> None:
        counts = self.browser.counts()
        text = self.tr("%n memories", "", counts["active"]) + " · " + self.tr("%n in the trash", "", counts["trash"])
        if counts["found"] is not None:  # every match, not only the rows fetched so far
            text = self.tr("%n found", "", counts["found"]) + " · " + text
        if not counts["loaded"]:
            text = self.tr("Loading…")
        self.counts_label.setText(text)
        self.counts_label.setVisible(bool(text))  # no empty divided-off place in the status bar

    def _update_undo(self, *_args) -> None:
        stack, busy = self.session.undo_stack, self.session.busy
        self.acts.undo.setEnabled(stack.canUndo() and not busy)
        self.acts.redo.setEnabled(stack.canRedo() and not busy)
        self.acts.undo.setText(
            self.tr("Undo {action}").format(action=stack.undoText()) if stack.canUndo() else self.tr("Undo")
        )
        self.acts.redo.setText(
            self.tr("Redo {action}").format(action=stack.redoText()) if stack.canRedo() else self.tr("Redo")
        )
        for action in (self.acts.undo, self.acts.redo):
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{action.text()} ({keys})")

    def _update_title(self, *_args) -> None:
        mark = "● " if self.editor.dirty else ""
        self.setWindowTitle(f"{mark}{self.tr('MemDesk')} — {self.session.store.display_name}")

    # ---- layout and closing ------------------------------------------------------------------------
    def save_layout(self) -> None:
        save_layout(self)

    def closeEvent(self, event) -> None:
        if not self.editor.maybe_leave(then=self.close):
            event.ignore()
            return
        self.save_layout()
        self.maintenance.stop()
        event.accept()
