"""The memory editor: one memory's fields, details, history and supersede chain.

The form is compared with what was loaded (dirty marker); saving sends only
the changed fields, based on the loaded version. If the memory changed
elsewhere meanwhile the store refuses (ConflictError) and the conflict
dialog lets the user keep theirs, keep mine or merge — nothing is ever
overwritten silently.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import ops as operations
from memdesk.core.domain.errors import ConflictError, NotFoundError, ValidationError
from memdesk.core.feed.reader import is_external, is_reload
from memdesk.gui.reasons import error_text

from .banner import StateBanner
from .conflict_dialog import ConflictDialog
from .details import DetailsBox
from .explain import ExplainPanel
from .form import NEW_DEFAULTS, changed_fields, record_to_form, short_title
from .history import ChainPanel, HistoryPanel
from .memory_form import MemoryForm


class MemoryEditor(QWidget):
    dirty_changed = Signal(bool)
    memory_shown = Signal(object)  # id or None
    saved = Signal(str)
    open_requested = Signal(str)
    restore_requested = Signal(str)

    def __init__(self, session, ask, parent=None):
        super().__init__(parent)
        self.session, self.ask = session, ask
        self.record = None
        self.memory_id: str | None = None
        self.is_new = False
        self.conflict_dialog: ConflictDialog | None = None
        self._saving = False  # a save is queued or running on the db lane
        self._saving_values: dict | None = None  # the form as it was sent
        self._then = None  # what to do once the save lands (leave for another memory, close)
        self._loaded_form: dict = dict(NEW_DEFAULTS)
        self._dirty = False
        self._search = (None, "", ())  # the hit that opened this memory, kept across reloads
        self._build()
        self.retranslate()
        session.changes_applied.connect(self.on_changes)
        self.clear()

    # ---- layout ---------------------------------------------------------------------------------
    def _build(self) -> None:
        # Widgets are made in the order Tab visits them: heading, fields, buttons, details, tabs.
        self._build_heading()
        self.form = MemoryForm(self.session, self)
        self.form.edited.connect(self._update_dirty)
        form_pane = self._build_form_pane()
        self.tabs = self._build_tabs()
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.setObjectName("editorSplit")
        self.split.addWidget(form_pane)
        self.split.addWidget(self.tabs)
        self.split.setChildrenCollapsible(False)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 1)
        # History and Why found keep a few lines however large the content grows (until the user drags).
        self.tabs.setMinimumHeight(self.fontMetrics().lineSpacing() * 6)
        self.split.setSizes([600, 200])
        self.placeholder = QLabel(self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.split)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    def _build_heading(self) -> None:
        self.banner = StateBanner(self)
        self.banner.restore_clicked.connect(lambda: self.memory_id and self.restore_requested.emit(self.memory_id))
        self.heading = QLabel(self)
        self.heading.setObjectName("editorHeading")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.heading.setFont(font)

    def _build_form_pane(self) -> QWidget:
        """Heading, fields and details scroll; Save and Revert stay below them."""
        self.save_button = QPushButton(self)
        self.save_button.setObjectName("saveButton")
        self.revert_button = QPushButton(self)
        self.dirty_label = QLabel(self)
        self.dirty_label.setStyleSheet("color:#c0392b;")
        self.save_button.clicked.connect(lambda: self.save())
        self.revert_button.clicked.connect(self.revert)
        buttons = QHBoxLayout()
        buttons.addWidget(self.dirty_label)
        buttons.addStretch(1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.save_button)
        self.chain = ChainPanel(self)
        self.chain.open_requested.connect(self.open_requested)
        self.details_box = DetailsBox(self.form.form_labels["dedup_key"], self.form.dedup, self.chain, self)

        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.addWidget(self.heading)
        top_layout.addWidget(self.banner)
        top_layout.addWidget(self.form, 1)
        top_layout.addWidget(self.details_box)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(top)
        # Save and Revert stay under the form whatever scrolls: never out of sight on a small screen.
        form_pane = QWidget(self)
        form_pane.setObjectName("editorFormPane")
        pane_layout = QVBoxLayout(form_pane)
        pane_layout.setContentsMargins(0, 0, 0, 0)
        pane_layout.addWidget(scroll, 1)
        pane_layout.addLayout(buttons)
        buttons.setContentsMargins(6, 2, 6, 2)
        return form_pane

    def _build_tabs(self) -> QTabWidget:
        tabs = QTabWidget(self)
        self.history = HistoryPanel(tabs)
        self.explain = ExplainPanel(tabs)
        tabs.addTab(self.history, "")
        tabs.addTab(self.explain, "")
        self.history.revert_requested.connect(self._revert_to_revision)
        return tabs

    def retranslate(self) -> None:
        self.save_button.setText(self.tr("Save"))
        self.save_button.setToolTip(self.tr("Save (Ctrl+S)"))
        self.revert_button.setText(self.tr("Revert"))
        self.revert_button.setToolTip(self.tr("Drop unsaved edits"))
        self.tabs.setTabText(0, self.tr("History"))
        self.tabs.setTabText(1, self.tr("Why found"))
        self.details_box.retranslate()
        self.placeholder.setText(self.tr("Select a memory on the left, or press Ctrl+N to write a new one."))
        self.banner.retranslate()
        self.form.retranslate()

    # ---- showing --------------------------------------------------------------------------------
    def _fill(self, values: dict) -> None:
        self._loaded_form = self.form.fill(values)  # read back: what the widgets show is the baseline
        self._update_dirty()

    def load(self, memory_id: str, *, hit=None, query: str = "", terms=()) -> bool:
        try:
            record = self.session.store.get(memory_id)
        except NotFoundError:
            self.clear()
            return False
        self.record, self.memory_id, self.is_new = record, memory_id, False
        self._fill(record_to_form(record))
        self._show_details(record)
        self.history.set_revisions(self.session.store.revisions(memory_id), self.form.persona_names)
        self.chain.set_chain(self.session.store.supersede_chain(memory_id), memory_id)
        self.show_search(hit, query, terms)
        self.stack.setCurrentWidget(self.split)
        self.memory_shown.emit(memory_id)
        return True

    def show_search(self, hit, query: str, terms=()) -> None:
        """How the open memory scored in the current search (none: hit=None), and what to mark."""
        self._search = (hit, query, tuple(terms))
        self.explain.show_hit(hit, query)
        self.form.highlighter.set_terms(terms)

    def new_memory(self, *, persona_id=None, group: str = "") -> None:
        self.record, self.memory_id, self.is_new = None, None, True
        self._search = (None, "", ())
        self._fill(dict(NEW_DEFAULTS, persona_id=persona_id, group=group))
        self._show_details(None)
        self.history.set_revisions([], {})
        self.chain.set_chain([], None)
        self.explain.show_hit(None, "")
        self.form.highlighter.set_terms(())
        self.stack.setCurrentWidget(self.split)
        self.form.content.setFocus()
        self.memory_shown.emit(None)

    def clear(self) -> None:
        self.record, self.memory_id, self.is_new = None, None, False
        self._search = (None, "", ())
        self._fill(dict(NEW_DEFAULTS))
        self.stack.setCurrentWidget(self.placeholder)
        self.memory_shown.emit(None)

    def _show_details(self, record) -> None:
        self.heading.setText(self.tr("New memory") if record is None else "")
        self.heading.setVisible(record is None)  # a memory's title is the large field below
        self.details_box.show_record(record)
        self.banner.show_record(record)

    # ---- dirty state ----------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        return self._dirty

    def _update_dirty(self, *_args) -> None:
        dirty = bool(changed_fields(self._loaded_form, self.form.values())) or (
            self.is_new and bool(self.form.content.toPlainText().strip())
        )
        self.dirty_label.setText(self.tr("Saving…") if self._saving else self.tr("● Unsaved changes") if dirty else "")
        self.save_button.setEnabled((dirty or self.is_new) and not self._saving)
        self.revert_button.setEnabled(dirty)
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)

    def maybe_leave(self, then=None) -> bool:
        """Before showing something else: save, discard or stay. True = go ahead now.

        Saving runs on the db lane (another process may hold the lock for a while):
        then the answer is False and ``then()`` runs once the save has landed; if it
        fails the user stays here with the edit, and is told why.
        """
        if self._saving:
            self._then = then  # one save is on its way: leave when it lands
            return False
        if not self.dirty:
            return True
        choice = self.ask.choose(
            self,
            self.tr("Unsaved changes"),
            self.tr("This memory has unsaved changes."),
            [("save", self.tr("Save")), ("discard", self.tr("Discard")), ("cancel", self.tr("Keep editing"))],
            default="save",
            cancel="cancel",
        )
        if choice == "save":
            return self.save(then=then) is True
        if choice == "discard":
            self.revert()
            return True
        return False

    def revert(self) -> None:
        if self.is_new:
            self.clear()
        elif self.memory_id:
            self.load(self.memory_id)

    # ---- saving ---------------------------------------------------------------------------------
    def save(self, then=None):
        """Send the edit to the db lane. True when there was nothing to save; None when queued
        (``saved`` follows, or the failure is shown and the edit stays in the form)."""
        values = self.form.values()
        if not self.is_new and (self.memory_id is None or not self.dirty):
            if then is not None:
                then()
            return True
        if self._saving:
            return None  # one at a time; this one's values go with the next save
        if self.conflict_dialog is not None:  # the memory changed elsewhere: answer that first
            self.conflict_dialog.raise_()
            return False
        self.banner.setVisible(False)
        if self.is_new:
            fields = changed_fields(NEW_DEFAULTS, values)
            fields["content"] = values["content"]
            op = partial(operations.add_memory, fields=fields)
            label = self.tr("Add “{title}”").format(title=short_title(values))
            done = lambda r: self._saved(r.value)  # noqa: E731
        else:
            fields = changed_fields(self._loaded_form, values)
            if "importance" in fields and fields["importance"] is None:  # back to automatic
                del fields["importance"]
                fields["importance_set"] = False
            op = partial(
                operations.update_memories,
                edits={self.memory_id: fields},
                versions={self.memory_id: self.record.version},
            )
            label = self.tr("Edit “{title}”").format(title=short_title(values))
            memory_id = self.memory_id
            done = lambda r: self._saved(memory_id)  # noqa: E731
        self._start_saving(values, then)
        self.session.perform(op, label=label, on_error=self._save_failed, on_done=done)
        return None

    def _start_saving(self, values, then) -> None:
        self._saving, self._saving_values, self._then = True, values, then
        self.dirty_label.setText(self.tr("Saving…"))
        self.save_button.setEnabled(False)

    def _stop_saving(self):
        then, self._then = self._then, None
        self._saving, self._saving_values = False, None
        return then

    @property
    def saving(self) -> bool:
        return self._saving

    def _saved(self, memory_id: str) -> None:
        sent = self._saving_values
        then = self._stop_saving()
        typed = self.form.values()
        hit, query, terms = self._search if memory_id == self.memory_id else (None, "", ())
        self.load(memory_id, hit=hit, query=query, terms=terms)
        if sent is not None and changed_fields(sent, typed):  # typed on while it was saving: keep that
            baseline = self._loaded_form
            self._fill(typed)
            self._loaded_form = baseline
            self._update_dirty()
            then = None
        self.saved.emit(memory_id)
        if then is not None:
            then()

    def _save_failed(self, exc) -> bool:
        self._stop_saving()  # the edit is still in the form; leaving waits for the user
        self._update_dirty()
        if isinstance(exc, ConflictError):
            self._open_conflict(exc.current)
            return True
        if isinstance(exc, ValidationError):
            self.banner.warn(self.tr("Not saved — {problem}").format(problem=error_text(exc)))
            return True
        # Anything else (the lock never freed, the disk is full): say so; the edit stays here.
        self.banner.warn(
            self.tr("Not saved — {problem}. Your text is still here: save again to retry.").format(
                problem=error_text(exc).rstrip(".")
            )
        )
        return False

    def _open_conflict(self, theirs) -> None:
        dialog = ConflictDialog(
            mine=self.form.values(),
            base=self._loaded_form,
            theirs=record_to_form(theirs),
            theirs_record=theirs,
            persona_names=self.form.persona_names,
            parent=self,
        )
        dialog.resolved.connect(lambda choice, values, d=dialog: self._resolve(choice, values, d))
        dialog.finished.connect(lambda _code, d=dialog: self._conflict_closed(d))
        dialog.finished.connect(dialog.deleteLater)
        self.conflict_dialog = dialog
        dialog.open()

    def _conflict_closed(self, dialog) -> None:
        if self.conflict_dialog is dialog:  # closed without an answer: the edit stays in the form
            self.conflict_dialog = None

    def _resolve(self, choice: str, values: dict, dialog) -> None:
        if self.conflict_dialog is dialog:
            self.conflict_dialog = None
        theirs = dialog.theirs_record
        if choice == "theirs":
            self.load(theirs.id)
            return
        fields = dialog.fields_to_write(values)
        if not fields:
            self.load(theirs.id)
            return
        label = self.tr("Edit “{title}”").format(title=short_title(values))
        op = partial(operations.update_memories, edits={theirs.id: fields}, versions={theirs.id: theirs.version})
        self._start_saving(self.form.values(), None)
        self.session.perform(op, label=label, on_error=self._save_failed, on_done=lambda r: self._saved(theirs.id))

    def _revert_to_revision(self, revision_id: int) -> None:
        if self.memory_id is None or not self.maybe_leave(then=partial(self._revert_to_revision, revision_id)):
            return
        memory_id, version = self.memory_id, self.session.store.get(self.memory_id).version
        op = partial(
            operations.revert_to_revision, memory_id=memory_id, revision_id=revision_id, expected_version=version
        )
        self.session.perform(op, label=self.tr("Put back earlier values"), on_error=self._save_failed)

    # ---- staying current ----------------------------------------------------------------------
    def on_changes(self, changes) -> None:
        self.form.names_changed()
        if changes.personas:
            self.form.refresh_personas()
        if self.memory_id is None:
            return
        if is_reload(changes):  # another process wrote more than the feed kept: compare with the store
            try:
                current = self.session.store.get(self.memory_id)
            except NotFoundError:
                changes = type(changes)(purged=(self.memory_id,), note=changes.note)
            else:
                if current.version == self.record.version and current.deleted_at == self.record.deleted_at:
                    return
                changes = type(changes)(updated=(self.memory_id,), note=changes.note)
        if self.memory_id not in changes.memory_ids:
            return
        if self.memory_id in changes.purged and self.memory_id not in changes.added:
            if self.dirty:
                self.is_new, self.memory_id, self.record = True, None, None
                self.banner.warn(self.tr("This memory was removed. Save to add your text as a new memory."))
            else:
                self.clear()
            return
        if self.dirty and is_external(changes):
            self._external_conflict()
        elif self.dirty:
            self.banner.warn(self.tr("This memory was changed elsewhere. Saving will show both versions."))
        else:
            self._reload()

    def _external_conflict(self) -> None:
        """Another process changed the memory being edited: show both versions now (the conflict
        view), not at the next save. A dialog already open or a save on its way shows it anyway."""
        if self.conflict_dialog is not None or self._saving:
            return
        try:
            theirs = self.session.store.get(self.memory_id)
        except NotFoundError:
            return
        if theirs.version == self.record.version:
            return  # nothing a person would see (the reader filters touches; this is a last check)
        self.banner.warn(self.tr("This memory was changed elsewhere while you were editing it."))
        self._open_conflict(theirs)

    def _reload(self) -> None:
        hit, query, terms = self._search
        self.load(self.memory_id, hit=hit, query=query, terms=terms)
