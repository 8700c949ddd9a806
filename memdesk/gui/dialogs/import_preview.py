"""What an import would do, record by record, before anything is written.

The plan (memdesk.core.io.plan.plan_file) is computed on a worker; this
dialog shows it: new / updated / unchanged / in conflict / invalid with the
reason for each, and how to treat conflicts. Persona ids the database does
not know are listed once above the records, each with a choice: a new
persona with a name the user types, global, or an existing persona. A
changed choice emits ``mapping_changed`` (the importer plans again and calls
set_plan); accepting emits ``import_requested`` and the window applies the
plan for ``choices()`` on the db lane.
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
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QRadioButton,
    QTableView,
    QVBoxLayout,
)

from memdesk.core.domain.errors import ValidationError
from memdesk.core.io.personas import Choice, check_name
from memdesk.gui import labels
from memdesk.gui.reasons import reason_text

from .tables import read_only_table

STATUS_COLOURS = {
    "new": "#2e7d32",
    "updated": "#1565c0",
    "unchanged": "#757575",
    "conflict": "#e65100",
    "invalid": "#c62828",
}
STATUS_ROLE = Qt.ItemDataRole.UserRole + 1


class PlanModel(QAbstractTableModel):
    """One row per record of the file."""

    PERSONA = 4

    def __init__(self, plan, parent=None, persona_label=None):
        super().__init__(parent)
        self.items = list(plan.items)
        self.persona_label = persona_label or (lambda persona_id: persona_id or "")

    def set_items(self, items) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else 5

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return [self.tr("#"), self.tr("What happens"), self.tr("Memory"), self.tr("Why"), self.tr("Persona")][
                section
            ]
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
            if column == 2:  # the file's id for a record (seed-3) means nothing to a person
                return item.title or self.tr("Record {n} of the file (no title)").format(n=item.index)
            if column == self.PERSONA:
                return "" if item.status == "invalid" else self.persona_label(item.persona_id)
            return reason_text(item.code, item.params, item.reason)
        if role == Qt.ItemDataRole.ForegroundRole and column == 1:
            return QColor(STATUS_COLOURS.get(item.status, "#000000"))
        if role == Qt.ItemDataRole.ToolTipRole and column in (2, 3):
            tip = reason_text(item.code, item.params, item.reason) or item.title
            if item.memory_id:
                tip = "\n".join(filter(None, [tip, self.tr("Id in the file: {id}").format(id=item.memory_id)]))
            return tip or None
        if role == STATUS_ROLE:
            return item.status
        return None


class PersonaMapping(QGroupBox):
    """One row per persona id of the file that the database does not know: where its memories go."""

    changed = Signal()  # a choice changed: the plan must follow
    edited = Signal()  # a typed name changed (the plan stays; names, button and column follow)

    CREATE, GLOBAL, MAP = "create", "global", "map"

    def __init__(self, unknown, existing: dict[str, str], parent=None):
        super().__init__(self.tr("Personas in this file"), parent)
        self.setObjectName("personaMapping")
        self.existing = existing  # id -> name of the database's personas
        self.ids = [u.source_id for u in unknown]
        self.combos: list[QComboBox] = []
        self.names: list[QLineEdit] = []
        grid = QGridLayout(self)
        intro = QLabel(
            self.tr(
                "The database does not know these personas. Choose where each one's memories go; "
                "the choice is remembered for the next import."
            ),
            self,
        )
        intro.setWordWrap(True)
        grid.addWidget(intro, 0, 0, 1, 3)
        for row, u in enumerate(unknown, start=1):
            label = QLabel(
                self.tr("Persona {n} of the file ({id}…), %n records", "", u.records).format(n=row, id=u.source_id[:4]),
                self,
            )
            label.setObjectName(f"personaSource{row - 1}")
            label.setToolTip(self.tr("Its id in the file: {id}").format(id=u.source_id))
            combo = QComboBox(self)
            combo.setObjectName(f"personaChoice{row - 1}")
            combo.addItem(self.tr("New persona named"), self.CREATE)
            combo.addItem(self.tr("Global (every persona sees them)"), self.GLOBAL)
            for pid, name in sorted(existing.items(), key=lambda kv: kv[1]):
                combo.addItem(self.tr("Existing persona “{name}”").format(name=name), f"{self.MAP}:{pid}")
            name = QLineEdit(u.choice.name if u.choice.action == "create" else u.suggested_name, self)
            name.setObjectName(f"personaName{row - 1}")
            name.setPlaceholderText(self.tr("Name of the new persona"))
            if u.choice.action == "global":
                combo.setCurrentIndex(1)
            elif u.choice.action == "map":
                combo.setCurrentIndex(max(0, combo.findData(f"{self.MAP}:{u.local_id}")))
            name.setEnabled(combo.currentData() == self.CREATE)
            combo.currentIndexChanged.connect(lambda _i, n=name, c=combo: self._combo_changed(c, n))
            name.textChanged.connect(self.edited)
            grid.addWidget(label, row, 0)
            grid.addWidget(combo, row, 1)
            grid.addWidget(name, row, 2)
            self.combos.append(combo)
            self.names.append(name)
        self.problem = QLabel(self)
        self.problem.setObjectName("personaProblem")
        self.problem.setStyleSheet("color: #c62828")
        self.problem.setWordWrap(True)
        self.problem.hide()
        grid.addWidget(self.problem, len(unknown) + 1, 0, 1, 3)
        grid.setColumnStretch(2, 1)

    def _combo_changed(self, combo, name) -> None:
        name.setEnabled(combo.currentData() == self.CREATE)
        self.changed.emit()

    def choices(self) -> dict:
        out = {}
        for source_id, combo, name in zip(self.ids, self.combos, self.names):
            action, _, persona_id = combo.currentData().partition(":")
            out[source_id] = (
                Choice.create(name.text().strip())
                if action == self.CREATE
                else Choice.make_global()
                if action == self.GLOBAL
                else Choice.map_to(persona_id)
            )
        return out

    def check(self) -> str:
        """What is wrong with the typed names ("" when nothing)."""
        taken = set(self.existing.values())
        for source_id, choice in self.choices().items():
            if choice.action != "create":
                continue
            try:
                check_name(choice.name, taken)
            except ValidationError:
                if not choice.name:
                    number = self.ids.index(source_id) + 1
                    return self.tr("Type a name for the new persona from persona {n} of the file.").format(n=number)
                if choice.name in self.existing.values():
                    return self.tr("A persona named “{name}” exists already: choose it in the list instead.").format(
                        name=choice.name
                    )
                if choice.name in taken:
                    return self.tr("Two new personas cannot both be named “{name}”.").format(name=choice.name)
                return self.tr("“{name}” looks like an id: give the persona a name people can read.").format(
                    name=choice.name
                )
            taken.add(choice.name)
        return ""


class ImportPreviewDialog(QDialog):
    import_requested = Signal(object, str)  # the plan, on_conflict ("skip" | "theirs")
    mapping_changed = Signal(dict)  # source persona id -> Choice: plan again, then set_plan
    plan_updated = Signal()

    def __init__(self, plan, path, parent=None):
        super().__init__(parent)
        self.setObjectName("importPreview")
        self.plan = plan
        self.setWindowTitle(self.tr("Import preview — {file}").format(file=Path(path).name))
        intro = QLabel(
            self.tr("Nothing has been written yet. This is what importing “{file}” would do:").format(
                file=Path(path).name
            ),
            self,
        )
        intro.setWordWrap(True)
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("importSummary")

        created = {u.local_id for u in plan.unknown_personas if u.choice.action == "create"}
        existing = {pid: name for pid, name in plan.persona_names.items() if pid not in created}
        self.mapping = PersonaMapping(plan.unknown_personas, existing, self)
        self.mapping.setVisible(bool(plan.unknown_personas))
        self.mapping.changed.connect(lambda: self.mapping_changed.emit(self.mapping.choices()))
        self.mapping.edited.connect(self._names_edited)
        self.busy = False

        self._build_table(plan)

        self.skip_conflicts = QRadioButton(self.tr("Conflicts: keep the memories here (skip those records)"), self)
        self.take_conflicts = QRadioButton(self.tr("Conflicts: take the file's version"), self)
        self.skip_conflicts.setChecked(True)
        self.skip_conflicts.toggled.connect(self._update_button)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setObjectName("importButton")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)

        top = QHBoxLayout()
        top.addWidget(self.summary_label, 1)
        top.addWidget(self.filter)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.mapping)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.skip_conflicts)
        layout.addWidget(self.take_conflicts)
        layout.addWidget(self.buttons)
        self._show_plan(plan)
        self.resize(860, 560 if plan.unknown_personas else 480)

    def _build_table(self, plan) -> None:
        """The plan's records, one a row, with the filter by what happens to them."""
        self.model = PlanModel(plan, self, self.persona_label)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(STATUS_ROLE)
        self.filter = QComboBox(self)
        self.filter.addItem(self.tr("All records"), "")
        self.filter.currentIndexChanged.connect(self._filter)
        self.table = QTableView(self)
        self.table.setObjectName("importTable")
        self.table.setModel(self.proxy)
        read_only_table(self.table, single=False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PlanModel.PERSONA, QHeaderView.ResizeMode.ResizeToContents)

    def persona_label(self, persona_id) -> str:
        """The persona column: a name, "(new)" for one the import creates, or Global."""
        if not persona_id:
            return self.tr("Global")
        for u, name in zip(self.plan.unknown_personas, self.mapping.names):
            if u.local_id == persona_id and u.choice.action == "create":
                return self.tr("{name} (new)").format(name=name.text().strip())
        return self.plan.persona_names.get(persona_id, persona_id)

    def choices(self) -> dict:
        return self.mapping.choices()

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self._update_button()

    def show_problem(self, text: str) -> None:
        self.mapping.problem.setText(text)
        self.mapping.problem.setVisible(bool(text))

    def set_plan(self, plan) -> None:
        """The plan for the current persona choices (from the importer)."""
        self.busy = False
        self._show_plan(plan)
        self.plan_updated.emit()

    def _show_plan(self, plan) -> None:
        self.plan = plan
        summary = plan.summary()
        names = labels.plan_statuses()
        self.summary_label.setText(
            "   ".join(
                f'<span style="color:{STATUS_COLOURS[s]}"><b>{names[s]}</b> {n}</span>' for s, n in summary.items()
            )
        )
        current = self.filter.currentData()
        self.filter.blockSignals(True)
        while self.filter.count() > 1:
            self.filter.removeItem(1)
        for status, count in summary.items():
            if count:
                self.filter.addItem(f"{names[status]} ({count})", status)
        self.filter.setCurrentIndex(max(0, self.filter.findData(current)))
        self.filter.blockSignals(False)
        self.model.set_items(plan.items)
        self._filter()
        has_conflicts = bool(summary["conflict"])
        self.skip_conflicts.setVisible(has_conflicts)
        self.take_conflicts.setVisible(has_conflicts)
        self._update_button()

    def _names_edited(self) -> None:
        self.model.dataChanged.emit(
            self.model.index(0, PlanModel.PERSONA),
            self.model.index(max(0, self.model.rowCount() - 1), PlanModel.PERSONA),
        )
        self._update_button()

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
        problem = self.mapping.check()
        self.show_problem(problem)
        if self.busy:
            self.import_button.setText(self.tr("Updating the preview…"))
        else:
            self.import_button.setText(self.tr("Import %n memories", "", n) if n else self.tr("Nothing to import"))
        self.import_button.setEnabled(bool(n) and not problem and not self.busy)

    def _accept(self) -> None:
        if not self.import_button.isEnabled():
            return
        self.accept()
        self.import_requested.emit(self.plan, self.on_conflict)
