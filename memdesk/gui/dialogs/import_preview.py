"""What an import would do, record by record, before anything is written.

The plan (memdesk.core.io.plan.plan_file) is computed on a worker; this
dialog shows it: new / updated / unchanged / in conflict / invalid with the
reason for each, and how to treat conflicts. Accepting emits
``import_requested``; the window runs apply_import on the db lane.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QRegularExpression,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QRadioButton,
    QTableView,
    QVBoxLayout,
)

from .. import labels

STATUS_COLOURS = {"new": "#2e7d32", "updated": "#1565c0", "unchanged": "#757575", "conflict": "#e65100",
                  "invalid": "#c62828"}
STATUS_ROLE = Qt.ItemDataRole.UserRole + 1


class PlanModel(QAbstractTableModel):
    """One row per record of the file."""

    def __init__(self, plan, parent=None):
        super().__init__(parent)
        self.items = list(plan.items)

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 4

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return [self.tr("#"), self.tr("What happens"), self.tr("Memory"), self.tr("Why")][section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        item = self.items[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return item.index
            if column == 1:
                return labels.plan_statuses().get(item.status, item.status)
            if column == 2:
                return item.title or item.memory_id or ""
            return item.reason
        if role == Qt.ItemDataRole.ForegroundRole and column == 1:
            return QColor(STATUS_COLOURS.get(item.status, "#000000"))
        if role == Qt.ItemDataRole.ToolTipRole and column in (2, 3):
            return item.reason or item.title
        if role == STATUS_ROLE:
            return item.status
        return None


class ImportPreviewDialog(QDialog):
    import_requested = Signal(object, str)  # the plan, on_conflict ("skip" | "theirs")

    def __init__(self, plan, path, parent=None):
        super().__init__(parent)
        self.setObjectName("importPreview")
        self.plan = plan
        self.setWindowTitle(self.tr("Import preview — {file}").format(file=Path(path).name))
        summary = plan.summary()
        names = labels.plan_statuses()
        intro = QLabel(self.tr("Nothing has been written yet. This is what importing “{file}” would do:").format(
            file=Path(path).name), self)
        intro.setWordWrap(True)
        chips = "   ".join(f'<span style="color:{STATUS_COLOURS[s]}"><b>{names[s]}</b> {n}</span>'
                           for s, n in summary.items())
        self.summary_label = QLabel(chips, self)
        self.summary_label.setObjectName("importSummary")

        self.model = PlanModel(plan, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(STATUS_ROLE)
        self.filter = QComboBox(self)
        self.filter.addItem(self.tr("All records"), "")
        for status, count in summary.items():
            if count:
                self.filter.addItem(f"{names[status]} ({count})", status)
        self.filter.currentIndexChanged.connect(self._filter)
        self.table = QTableView(self)
        self.table.setObjectName("importTable")
        self.table.setModel(self.proxy)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)

        self.skip_conflicts = QRadioButton(self.tr("Conflicts: keep the memories here (skip those records)"), self)
        self.take_conflicts = QRadioButton(self.tr("Conflicts: take the file's version"), self)
        self.skip_conflicts.setChecked(True)
        has_conflicts = bool(summary["conflict"])
        self.skip_conflicts.setVisible(has_conflicts)
        self.take_conflicts.setVisible(has_conflicts)
        self.skip_conflicts.toggled.connect(self._update_button)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setObjectName("importButton")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        self._update_button()

        top = QHBoxLayout()
        top.addWidget(self.summary_label, 1)
        top.addWidget(self.filter)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.skip_conflicts)
        layout.addWidget(self.take_conflicts)
        layout.addWidget(self.buttons)
        self.resize(760, 480)

    def _filter(self) -> None:
        status = self.filter.currentData()
        self.proxy.setFilterRegularExpression(QRegularExpression(f"^{status}$") if status else QRegularExpression())

    @property
    def on_conflict(self) -> str:
        return "theirs" if self.take_conflicts.isChecked() else "skip"

    def writes(self) -> int:
        summary = self.plan.summary()
        return summary["new"] + summary["updated"] + (summary["conflict"] if self.on_conflict == "theirs" else 0)

    def _update_button(self) -> None:
        n = self.writes()
        self.import_button.setText(self.tr("Import {n} memories").format(n=n) if n else self.tr("Nothing to import"))
        self.import_button.setEnabled(bool(n))

    def _accept(self) -> None:
        if not self.writes():
            return
        self.accept()
        self.import_requested.emit(self.plan, self.on_conflict)
