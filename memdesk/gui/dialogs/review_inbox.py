"""Tools → Review duplicates: the consolidation proposals and the user's answer to each.

A table over plain rows (ProposalRow) built from memdesk.core.maintenance.proposals;
selecting one shows its memories side by side (read-only), each after the first
with what differs from the first marked (difflib, by character: deletions struck
through in red, insertions in green), and an editable merged text. Merge / Keep
both / Dismiss run as operations so merges go out on the
session's one change channel. Nothing is merged without a click; merging a
stale proposal (a member was edited since) asks first. A second tab shows the
last maintenance report.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import ops as operations
from memdesk.core.domain.errors import MemDeskError
from memdesk.core.maintenance import last_reports, proposals
from memdesk.gui.editor.history import diff_html
from memdesk.gui.reasons import error_text

from .maintenance_report import report_html
from .tables import RowTableModel, read_only_table


@dataclass(frozen=True)
class ProposalRow:
    id: str
    memory_ids: tuple
    count: int
    score: float
    kind: str  # "exact" | "near"
    stale: bool
    preview: str  # the suggested text, on one line
    suggested_content: str
    suggested_title: str
    suggested_tags: tuple


def _one_line(text: str, width: int = 60) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def load_rows(store) -> list[ProposalRow]:
    return [
        ProposalRow(
            p.id,
            tuple(p.memory_ids),
            len(p.memory_ids),
            float(p.score),
            p.kind,
            bool(p.stale),
            _one_line(p.suggested_content),
            p.suggested_content,
            p.suggested_title,
            tuple(p.suggested_tags or ()),
        )
        for p in proposals(store)
    ]


def proposal_count(store) -> int:
    return len(proposals(store))


class ProposalModel(RowTableModel):
    MEMORIES, SIMILARITY, KIND, STALE, TEXT = range(5)
    rows: list[ProposalRow]

    def header_texts(self) -> list[str]:
        return [
            self.tr("Memories"),
            self.tr("Similarity"),
            self.tr("Kind"),
            self.tr("Changed since"),
            self.tr("Suggested text"),
        ]

    def row_data(self, row: ProposalRow, column: int, role):
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                self.MEMORIES: str(row.count),
                self.SIMILARITY: f"{row.score:.0%}",
                self.KIND: self.tr("same text") if row.kind == "exact" else self.tr("similar"),
                self.STALE: self.tr("edited since") if row.stale else self.tr("no"),
                self.TEXT: row.preview,
            }.get(column)
        if role == Qt.ItemDataRole.ToolTipRole and row.stale:
            return self.tr("A memory was edited after this was proposed; look again before merging.")
        if role == Qt.ItemDataRole.ForegroundRole and row.stale:
            return QColor("#b06000")
        return None


def _when(value) -> str:
    if value is None:
        return ""
    at = value if value.tzinfo else value.replace(tzinfo=UTC)
    return at.astimezone().strftime("%Y-%m-%d %H:%M")


class ReviewInboxDialog(QDialog):
    inbox_changed = Signal(int)  # open proposals now

    def __init__(self, session, ask, parent=None):
        super().__init__(parent)
        self.setObjectName("reviewInboxDialog")
        self.session, self.ask = session, ask
        self.setWindowTitle(self.tr("Review duplicates"))
        self.model = ProposalModel(self)
        self.view = QTableView(self)
        self.view.setObjectName("proposalTable")
        self.view.setModel(self.model)
        read_only_table(self.view)
        self.view.horizontalHeader().setSectionResizeMode(ProposalModel.TEXT, QHeaderView.ResizeMode.Stretch)

        # the memories side by side, read-only
        self.sides = QWidget(self)
        self.sides_layout = QHBoxLayout(self.sides)
        self.sides_layout.setContentsMargins(0, 0, 0, 0)
        self.member_views: list[QGroupBox] = []
        merged_box = self._build_merged()
        row = self._build_buttons()
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.view)
        split.addWidget(self.sides)
        split.addWidget(merged_box)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 1)  # the list is short; the memories being compared get the room
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 2)
        split.setSizes([110, 280, 180])
        self.view.setMinimumHeight(80)
        self.sides.setMinimumHeight(160)
        inbox = QWidget(self)
        inbox_layout = QVBoxLayout(inbox)
        inbox_layout.addWidget(split, 1)
        inbox_layout.addLayout(row)

        self.report_view = QTextBrowser(self)
        self.report_view.setObjectName("lastReport")
        self.tabs = QTabWidget(self)
        self.tabs.addTab(inbox, self.tr("Proposals"))
        self.tabs.addTab(self.report_view, self.tr("Last maintenance run"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)

        self.view.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())
        session.changes_applied.connect(self._on_changes)
        session.external_change.connect(self._on_changes)
        self.refresh()
        self.resize(900, 640)

    def _build_merged(self) -> QGroupBox:
        """The merged memory, editable before it is saved."""
        self.merged_title = QLineEdit(self)
        self.merged_title.setObjectName("mergedTitle")
        self.merged_text = QPlainTextEdit(self)
        self.merged_text.setObjectName("mergedText")
        self.stale_label = QLabel(self)
        self.stale_label.setStyleSheet("color: #b06000")
        self.merged_text.setMinimumHeight(60)
        merged_box = QGroupBox(self.tr("Merged memory"), self)
        form = QFormLayout(merged_box)
        form.addRow(self.tr("Title:"), self.merged_title)
        form.addRow(self.tr("Content:"), self.merged_text)
        form.addRow(self.stale_label)
        return merged_box

    def _build_buttons(self) -> QHBoxLayout:
        """The count, Refresh, and the three answers to a proposal."""
        self.merge_button = QPushButton(self.tr("Merge"), self)
        self.merge_button.setObjectName("mergeProposal")
        self.merge_button.setToolTip(
            self.tr("Save the merged text as one memory; the originals are superseded by it and keep their history.")
        )
        self.keep_button = QPushButton(self.tr("Keep both"), self)
        self.keep_button.setObjectName("keepBothProposal")
        self.keep_button.setToolTip(self.tr("These are different memories: never propose them again."))
        self.dismiss_button = QPushButton(self.tr("Dismiss"), self)
        self.dismiss_button.setObjectName("dismissProposal")
        self.dismiss_button.setToolTip(self.tr("Not now: a later run may propose them again."))
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.summary = QLabel(self)
        self.merge_button.clicked.connect(self.merge_selected)
        self.keep_button.clicked.connect(self.keep_selected)
        self.dismiss_button.clicked.connect(self.dismiss_selected)
        self.refresh_button.clicked.connect(self.refresh)
        row = QHBoxLayout()
        row.addWidget(self.summary, 1)
        row.addWidget(self.refresh_button)
        row.addWidget(self.dismiss_button)
        row.addWidget(self.keep_button)
        row.addWidget(self.merge_button)
        return row

    # ---- loading --------------------------------------------------------------------------------
    def refresh(self) -> None:
        selected = self.selected_id()
        self.model.set_rows(load_rows(self.session.store))
        if not (selected and self.select(selected)) and self.model.rows:
            self.view.selectRow(0)
        self._show_selected()
        count = len(self.model.rows)
        self.summary.setText(self.tr("%n proposals to review", "", count))
        self.report_view.setHtml(report_html(next(iter(last_reports(self.session.store, 1)), None)))
        self.inbox_changed.emit(count)

    def _on_changes(self, *_args) -> None:
        if self.isVisible():
            self.refresh()

    def selected_row(self) -> ProposalRow | None:
        rows = self.view.selectionModel().selectedRows() if self.view.selectionModel() else []
        return self.model.rows[rows[0].row()] if rows else None

    def selected_id(self) -> str | None:
        row = self.selected_row()
        return row.id if row else None

    def select(self, proposal_id: str) -> bool:
        for number, row in enumerate(self.model.rows):
            if row.id == proposal_id:
                self.view.selectRow(number)
                return True
        return False

    def _show_selected(self) -> None:
        for box in self.member_views:
            self.sides_layout.removeWidget(box)
            box.hide()  # deleteLater waits for the event loop: hidden now, so two selections never overlap
            box.deleteLater()
        self.member_views = []
        row = self.selected_row()
        for button in (self.merge_button, self.keep_button, self.dismiss_button):
            button.setEnabled(row is not None)
        self.merged_text.setEnabled(row is not None)
        self.merged_title.setEnabled(row is not None)
        if row is None:
            self.merged_text.clear()
            self.merged_title.clear()
            self.stale_label.clear()
            return
        store = self.session.store
        records = store.get_many(list(row.memory_ids))
        personas = {p.id: p.name for p in store.personas()}
        first = None
        for memory_id in row.memory_ids:
            record = records.get(memory_id)
            if record is None:
                continue
            box = QGroupBox(record.display_title or memory_id[:8], self.sides)
            box.setObjectName("memberBox")
            column = QVBoxLayout(box)
            # What tells two copies apart comes first: whose, how tagged, when last changed.
            meta = QLabel(
                self.tr("Persona: {persona} · Tags: {tags} · Updated: {when}").format(
                    persona=personas.get(record.persona_id, self.tr("Global")),
                    tags=self.tr(", ").join(record.tags) or "—",
                    when=_when(record.updated_at),
                ),
                box,
            )
            meta.setObjectName("memberMeta")
            meta.setWordWrap(True)
            meta.setStyleSheet("color: #555")
            column.addWidget(meta)
            column.addWidget(self._member_text(record, first, box), 1)
            first = first or record
            self.sides_layout.addWidget(box)
            self.member_views.append(box)
        self.merged_title.setText(row.suggested_title)
        self.merged_text.setPlainText(row.suggested_content)
        self.stale_label.setText(
            self.tr("A memory was edited after this was proposed; look again before merging.") if row.stale else ""
        )

    # ---- answers --------------------------------------------------------------------------------
    def _member_text(self, record, first, box) -> QWidget:
        """The first memory as it is; the others with what differs from the first marked."""
        if first is None or first.content == record.content:
            content = QPlainTextEdit(record.content, box)
            content.setReadOnly(True)
            content.setObjectName("memberContent")
            return content
        diff = QTextBrowser(box)
        diff.setObjectName("memberDiff")
        diff.setHtml(
            '<p style="color:#555">{}</p>{}'.format(
                html.escape(
                    self.tr("Compared with “{title}”: struck through = only there, green = only here").format(
                        title=first.display_title
                    )
                ),
                diff_html(first.content, record.content),
            )
        )
        return diff

    def _failed(self, title: str):
        def failed(exc) -> bool:
            if not isinstance(exc, MemDeskError):
                return False  # a bug: the session reports it
            self.ask.inform(self, title, error_text(exc))
            self.refresh()
            return True

        return failed

    def merge_selected(self) -> None:
        row = self.selected_row()
        if row is None:
            return
        content = self.merged_text.toPlainText().strip()
        if not content:
            self.ask.inform(self, self.tr("Merge"), self.tr("The merged memory needs some text."))
            return
        if row.stale and not self.ask.confirm(
            self,
            self.tr("Merge"),
            self.tr("A memory was edited after this was proposed. Merge anyway?"),
            yes=self.tr("Merge"),
        ):
            return
        op = partial(
            operations.merge_proposal,
            proposal_id=row.id,
            content=content,
            title=self.merged_title.text().strip(),
            tags=list(row.suggested_tags),
        )
        if row.stale:  # the user has looked again: propose afresh from the current versions
            op = partial(
                operations.merge_stale_proposal,
                proposal_id=row.id,
                ids=list(row.memory_ids),
                content=content,
                title=self.merged_title.text().strip(),
                tags=list(row.suggested_tags),
            )
        self.session.perform(
            op,
            label=self.tr("Merge %n memories", "", row.count),
            on_done=lambda _result: self.refresh(),
            on_error=self._failed(self.tr("Merge")),
        )

    def keep_selected(self) -> None:
        row = self.selected_row()
        if row is not None:
            self.session.perform(
                partial(operations.keep_both_proposal, proposal_id=row.id),
                label=self.tr("Keep both"),
                on_done=lambda _result: self.refresh(),
                on_error=self._failed(self.tr("Keep both")),
            )

    def dismiss_selected(self) -> None:
        row = self.selected_row()
        if row is not None:
            self.session.perform(
                partial(operations.dismiss_proposal, proposal_id=row.id),
                label=self.tr("Dismiss"),
                on_done=lambda _result: self.refresh(),
                on_error=self._failed(self.tr("Dismiss")),
            )
