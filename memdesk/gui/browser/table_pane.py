"""The memory table with its header line: what the tree's chosen place holds, or a search's hits.

Its columns are chosen in the header's context menu and its sort by a click on a header;
both are remembered (gui/prefs.py). A search shows its hits in rank order until a header
is clicked, says how many memories match in all, and fetches the next page as the view
reaches its end. When the current memory leaves the rows (deleted, restored, purged,
moved), the row that took its place becomes current: the user keeps their place.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QMenu,
    QTableView,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from memdesk.gui import prefs

from .marked_text import MarkedDelegate
from .table_model import COLUMNS, DEFAULT_HIDDEN, ID_ROLE, UNSORTABLE, MemoryTableModel

WIDTHS = {
    "title": 180,
    "snippet": 220,
    "found": 110,
    "group": 90,
    "persona": 70,
    "type": 50,
    "importance": 56,
    "updated": 120,
}


class TablePane(QWidget):
    memory_selected = Signal(str)

    def __init__(self, store, parent=None):
        super().__init__(parent)
        self.model = MemoryTableModel(store, self)
        self.header = QLabel(self)
        self.header.setObjectName("tableHeader")
        self.header.setWordWrap(True)
        self.view = QTableView(self)
        self.view.setObjectName("memoryTable")
        self.view.setModel(self.model)
        self._marking = MarkedDelegate(self.view)  # title and content while searching (a Python paint per cell)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setWordWrap(False)
        self.view.setShowGrid(False)
        self.view.setAlternatingRowColors(True)
        self.view.setDragEnabled(True)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        rows = self.view.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # no row measured: 100k rows scroll as 20
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        columns = self.view.horizontalHeader()
        columns.setSectionsMovable(True)
        columns.setHighlightSections(False)
        columns.setStretchLastSection(True)
        columns.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        columns.customContextMenuRequested.connect(self._column_menu)
        for i, name in enumerate(COLUMNS):
            columns.resizeSection(i, WIDTHS.get(name, 90))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.view)
        self._quiet = 0
        self._label = ""  # the tree's place the rows are from
        self.may_move: Callable[[], bool] = lambda: True  # the window: not while the editor holds unsaved work
        self._hidden = prefs.table_hidden_columns(DEFAULT_HIDDEN)
        self._apply_hidden()
        name, descending = prefs.table_sort()
        self._set_indicator(name, descending)
        self.view.setSortingEnabled(True)
        columns.sortIndicatorChanged.connect(self._sorted_by_user)
        self.view.selectionModel().currentRowChanged.connect(self._on_current)

    # ---- columns and sorting -----------------------------------------------------------------
    def hidden_columns(self) -> set[str]:
        return set(self._hidden)

    def set_column_shown(self, name: str, shown: bool) -> None:
        if shown:
            self._hidden.discard(name)
        else:
            self._hidden.add(name)
        prefs.set_table_hidden_columns(self._hidden)
        self._apply_hidden()

    def _apply_hidden(self) -> None:
        searching = self.model.searching
        for i, name in enumerate(COLUMNS):
            hide = name in self._hidden or (name == "found" and not searching)
            self.view.setColumnHidden(i, hide)
            if name in ("title", "snippet"):
                self.view.setItemDelegateForColumn(i, self._marking if searching else None)

    def _column_menu(self, pos) -> None:
        menu = QMenu(self)
        for name in COLUMNS:
            if name == "title":
                continue  # a row needs something to name it
            action = menu.addAction(self.model.column_title(name))
            action.setCheckable(True)
            action.setChecked(name not in self._hidden)
            action.toggled.connect(lambda on, n=name: self.set_column_shown(n, on))
        self._menu = menu  # tests look at it
        menu.popup(self.view.horizontalHeader().viewport().mapToGlobal(pos))

    def _set_indicator(self, name: str, descending: bool) -> None:
        column = COLUMNS.index(name) if name in COLUMNS and name not in UNSORTABLE else 0
        order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        self.model.sort_column, self.model.descending = column, descending
        header = self.view.horizontalHeader()
        header.blockSignals(True)
        header.setSortIndicator(column, order)
        header.blockSignals(False)

    def _rank_order(self) -> None:
        """A search's own order, until a header is clicked: no indicator."""
        self.model.sort_column = -1
        header = self.view.horizontalHeader()
        header.blockSignals(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)

    def _sorted_by_user(self, column: int, order) -> None:
        name = COLUMNS[column] if 0 <= column < len(COLUMNS) else ""
        if name in UNSORTABLE:  # put the indicator back where the rows are sorted, and say why (as Anki does)
            why = self.model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
            QToolTip.showText(QCursor.pos(), why, self.view.horizontalHeader())
            back = self.model.sort_column
            if back >= 0:
                self._set_indicator(COLUMNS[back], self.model.descending)
            else:
                self._rank_order()
            return
        if name:
            prefs.set_table_sort(name, order == Qt.SortOrder.DescendingOrder)
            if self.model.fetch_all():  # a search's rows are sorted once every hit is in
                self._say()

    def sort_by(self, name: str, descending: bool = False) -> None:
        """As a click on the column's header does (tests and the tour use it)."""
        order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        self.view.horizontalHeader().setSortIndicator(COLUMNS.index(name), order)

    # ---- rows ---------------------------------------------------------------------------------
    def show_place(self, rows: np.ndarray, label: str) -> None:
        """Another place of the tree: its rows, sorted as remembered; the current memory stays
        current if it is there too."""
        current = self.current_id()
        if self.model.searching:
            self._set_indicator(*prefs.table_sort())
        self._quiet += 1
        try:
            self.model.show_rows(rows)
            self._apply_hidden()
            self.select_id(current)
        finally:
            self._quiet -= 1
        self._label = label
        self._say()

    def update_rows(self, rows: np.ndarray, label: str) -> None:
        """The same place after a change: the user keeps their place."""
        self._keeping_place(lambda: self.model.show_rows(rows))
        self._label = label
        self._say()

    def show_outcome(self, outcome, *, same_query: bool) -> None:
        if not same_query:
            self._rank_order()
            current = self.current_id()
            self._quiet += 1
            try:
                self.model.show_outcome(outcome)
                self.select_id(current)
            finally:
                self._quiet -= 1
        else:
            self._keeping_place(lambda: self.model.show_outcome(outcome))
            if self.model.sort_column >= 0:
                self.model.fetch_all()  # the same search again (after a change), still sorted: all of it
        self._apply_hidden()
        self._say()

    def add_page(self, outcome) -> None:
        self.model.add_page(outcome)
        self._say()

    def add_matches(self, table, rows) -> None:
        self._keeping_place(lambda: self.model.add_matches(table, rows))
        self._say()

    def _keeping_place(self, refill) -> None:
        current, at = self.current_id(), self.view.currentIndex().row()
        selected = self.selected_ids()
        self._quiet += 1
        try:
            refill()
            model, selection = self.model, self.view.selectionModel()
            left = current is not None and model.row_of(current) < 0
            if not left:
                self.select_id(current)
            flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
            for memory_id in selected:
                index = model.index_of(memory_id)
                if memory_id != current and index.isValid():
                    selection.select(index, flags)
        finally:
            self._quiet -= 1
        if left and model.rowCount():  # it left these rows: the one that took its place is current
            index = model.index(min(at, model.rowCount() - 1), 0)
            if self.may_move():
                self.view.setCurrentIndex(index)
            else:  # the editor holds unsaved work: the row is marked, the editor stays
                self._quiet += 1
                self.view.setCurrentIndex(index)
                self._quiet -= 1

    def _say(self) -> None:
        model = self.model
        outcome = model.outcome
        if outcome is None:
            text = self.tr("{place} · %n memories", "", model.rowCount()).format(place=self._label)
        elif outcome.error:
            text = self.tr("Cannot read the search: {error}").format(error=outcome.error)
        elif not model.rowCount():
            text = self.tr("Nothing found. Esc clears the search.")
        elif model.total > model.loaded:
            text = self.tr("%n found, {shown} shown (more as you scroll) · Esc clears the search", "", model.total)
            text = text.format(shown=model.loaded)
        else:
            text = self.tr("%n found · Esc clears the search", "", model.total)
        self.header.setText(text)

    # ---- selection ----------------------------------------------------------------------------
    def current_id(self) -> str | None:
        index = self.view.currentIndex()
        return index.data(ID_ROLE) if index.isValid() else None

    def selected_ids(self) -> list[str]:
        rows = sorted(i.row() for i in self.view.selectionModel().selectedRows())
        return [self.model.memory_id(r) for r in rows if r < self.model.rowCount()]

    def select_id(self, memory_id: str | None) -> bool:
        """Make a memory current without saying so (the editor already shows it)."""
        index = self.model.index_of(memory_id) if memory_id else None
        self._quiet += 1
        try:
            if index is None or not index.isValid():
                self.view.selectionModel().clear()
                return False
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            )
            self.view.scrollTo(index)
            return True
        finally:
            self._quiet -= 1

    def step(self, delta: int) -> str | None:
        """Move to the next (+1) or previous (-1) row; returns its id."""
        count = self.model.rowCount()
        if not count:
            return None
        row = self.view.currentIndex().row()
        row = 0 if row < 0 else max(0, min(count - 1, row + delta))
        self.view.setCurrentIndex(self.model.index(row, 0))
        return self.current_id()

    def _on_current(self, current, previous) -> None:
        if not self._quiet and current.isValid():
            self.memory_selected.emit(current.data(ID_ROLE))
