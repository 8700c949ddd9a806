"""What the dialogs' read-only tables share: a model over a list of frozen rows (each with an
``id``), and the view's settings (whole rows selected, nothing edited in place)."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView


class RowTableModel(QAbstractTableModel):
    """Rows in ``rows``, column titles from ``header_texts()``; ``Qt.UserRole`` gives a row's id.
    A subclass says what a cell shows in ``row_data``."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list = []
        self.headers = self.header_texts()

    def header_texts(self) -> list[str]:
        raise NotImplementedError

    def row_data(self, row, column: int, role):
        raise NotImplementedError

    def set_rows(self, rows) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(self.headers)
        ):
            return self.headers[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.UserRole:
            return row.id
        return self.row_data(row, index.column(), role)


def read_only_table(view: QTableView, *, single: bool = True) -> QTableView:
    """Whole rows selected (one at a time if ``single``), nothing edited in place, no row numbers."""
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    if single:
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    return view
