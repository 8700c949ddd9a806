"""Manage personas: add, rename, describe, colour, delete.

Every change is an undoable operation. Deleting asks what happens to the
persona's memories — they become global or go to the trash; there is no
default, as in the core.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import ops as operations
from memdesk.gui import icons


class PersonasDialog(QDialog):
    def __init__(self, session, ask, parent=None):
        super().__init__(parent)
        self.setObjectName("personasDialog")
        self.session, self.ask = session, ask
        self.setWindowTitle(self.tr("Personas"))
        self.list = QListWidget(self)
        self.list.setObjectName("personaList")
        self.add_button = QPushButton(self.tr("Add…"), self)
        self.delete_button = QPushButton(self.tr("Delete…"), self)
        self.global_switch = QCheckBox(self.tr("Assistants without a persona get memory"), self)
        self.global_switch.setObjectName("globalMemorySwitch")
        self.global_switch.setToolTip(
            self.tr("Off: assistants acting without a persona get no memory brief and no memory tools.")
        )
        self._build_form()  # after the list's column: Tab goes down the list side, then the form
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.delete_button)
        left.addLayout(row)
        left.addWidget(self.global_switch)
        body = QHBoxLayout()
        body.addLayout(left, 1)
        body.addWidget(self.form_box, 2)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(body)
        layout.addWidget(close)
        self._connect()
        session.changes_applied.connect(self._on_changes)
        self.refresh()
        self.resize(620, 360)

    def _build_form(self) -> None:
        """The chosen persona's fields, its memory switch and Apply."""
        self.name = QLineEdit(self)
        self.description = QPlainTextEdit(self)
        self.description.setMaximumHeight(90)
        self.colour_button = QPushButton(self.tr("Choose…"), self)
        self.auto_save = QCheckBox(self.tr("Its assistants get memory: brief and tools"), self)
        self.auto_save.setObjectName("personaMemorySwitch")
        self.auto_save.setToolTip(
            self.tr(
                "Off: assistants acting as this persona get no memory brief and no "
                "memory tools. Saved as soon as you click it."
            )
        )
        self.apply_button = QPushButton(self.tr("Apply"), self)
        self.form_box = QWidget(self)
        form = QFormLayout(self.form_box)
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Description"), self.description)
        form.addRow(self.tr("Colour"), self.colour_button)
        form.addRow("", self.auto_save)
        form.addRow("", self.apply_button)

    def _connect(self) -> None:
        self.add_button.clicked.connect(self.add)
        self.delete_button.clicked.connect(self.delete)
        self.apply_button.clicked.connect(self.apply)
        self.colour_button.clicked.connect(self.pick_colour)
        self.auto_save.clicked.connect(self.set_memory_switch)  # clicks only, not setChecked
        self.global_switch.clicked.connect(self.set_global_switch)
        self.list.currentItemChanged.connect(lambda *_: self._show_current())

    # ---- list ------------------------------------------------------------------------------------
    def refresh(self, select: str | None = None) -> None:
        select = select or self.current_id()
        self.personas = {p.id: p for p in self.session.store.personas()}
        self.list.blockSignals(True)
        self.list.clear()
        for persona in self.personas.values():
            count = self.session.store.count(persona=persona.id, merge_global=False)
            item = QListWidgetItem(
                icons.colour_dot(persona.colour), self.tr("{name} ({n})").format(name=persona.name, n=count)
            )
            item.setData(Qt.ItemDataRole.UserRole, persona.id)
            self.list.addItem(item)
            if persona.id == select:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        self.list.blockSignals(False)
        self.global_switch.setChecked(bool(self.session.store.setting(operations.GLOBAL_SWITCH_KEY, True)))
        self._show_current()

    def current_id(self) -> str | None:
        item = self.list.currentItem() if hasattr(self, "list") else None
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def select(self, persona_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == persona_id:
                self.list.setCurrentRow(row)

    def _show_current(self) -> None:
        persona = self.personas.get(self.current_id())
        self.form_box.setEnabled(persona is not None)
        self.delete_button.setEnabled(persona is not None)
        self.name.setText(persona.name if persona else "")
        self.description.setPlainText(persona.description if persona else "")
        self.auto_save.setChecked(persona.auto_save_memory if persona else True)
        self.colour_button.setIcon(icons.colour_dot(persona.colour if persona else ""))

    def _on_changes(self, changes) -> None:
        if changes.personas or changes.memory_ids:
            self.refresh()

    # ---- actions ----------------------------------------------------------------------------------
    def add(self) -> None:
        name = self.ask.text(self, self.tr("New persona"), self.tr("Name:"))
        if not name or not name.strip():
            return
        self.session.perform(
            partial(operations.create_persona, name=name.strip()),
            label=self.tr("Add persona “{name}”").format(name=name.strip()),
            on_done=lambda result: self.refresh(select=result.value),
        )

    def apply(self) -> None:
        persona = self.personas.get(self.current_id())
        if persona is None:
            return
        fields = {}
        if self.name.text().strip() != persona.name:
            fields["name"] = self.name.text().strip()
        if self.description.toPlainText().strip() != persona.description:
            fields["description"] = self.description.toPlainText().strip()
        if not fields:
            return
        label = (
            self.tr("Rename persona “{old}” to “{new}”").format(old=persona.name, new=fields["name"])
            if list(fields) == ["name"]
            else self.tr("Edit persona “{name}”").format(name=persona.name)
        )
        self.session.perform(partial(operations.update_persona, persona_id=persona.id, **fields), label=label)

    def set_memory_switch(self, on: bool) -> None:
        persona = self.personas.get(self.current_id())
        if persona is None or bool(on) == persona.auto_save_memory:
            return
        label = (self.tr("Turn memory on for “{name}”") if on else self.tr("Turn memory off for “{name}”")).format(
            name=persona.name
        )
        self.session.perform(
            partial(operations.update_persona, persona_id=persona.id, auto_save_memory=bool(on)), label=label
        )

    def set_global_switch(self, on: bool) -> None:
        label = self.tr("Turn global memory on") if on else self.tr("Turn global memory off")
        self.session.perform(partial(operations.set_global_memory_switch, on=bool(on)), label=label)

    def pick_colour(self) -> None:
        persona = self.personas.get(self.current_id())
        if persona is None:
            return
        colour = self.ask.colour(self, persona.colour)
        if colour and colour != persona.colour:
            self.session.perform(
                partial(operations.update_persona, persona_id=persona.id, colour=colour),
                label=self.tr("Colour persona “{name}”").format(name=persona.name),
            )

    def delete(self) -> None:
        persona = self.personas.get(self.current_id())
        if persona is None:
            return
        count = self.session.store.count(persona=persona.id, merge_global=False, state="all")
        choice = self.ask.choose(
            self,
            self.tr("Delete persona"),
            self.tr("Delete the persona “{name}”? It has %n memories. What should happen to them?", "", count).format(
                name=persona.name, n=count
            ),
            [
                ("global", self.tr("Keep them as global memories")),
                ("trash", self.tr("Move them to the trash")),
                ("cancel", self.tr("Cancel")),
            ],
            default="cancel",
            cancel="cancel",
        )
        if choice in ("global", "trash"):
            self.session.perform(
                partial(operations.delete_persona, persona_id=persona.id, memories=choice),
                label=self.tr("Delete persona “{name}”").format(name=persona.name),
                background=count > 200,
            )
