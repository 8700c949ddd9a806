"""详细信息: what the store keeps about a memory besides its words, folded away by default.

The dedup key (editable), times, use, heat and tier, source, version and the
supersede chain matter to a person tidying the store, not to one reading or
writing a memory: they sit under one header that opens with a click, and the
window remembers whether it was left open.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from memdesk.gui import labels, prefs

from .history import local_time

NAMES = ("created", "updated", "last_access", "access_count", "heat", "tier", "source", "version")
OPEN_KEY = "editor/details_open"


class DetailsBox(QWidget):
    def __init__(self, dedup_label: QLabel, dedup: QWidget, chain: QWidget, parent=None):
        super().__init__(parent)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("detailsToggle")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setAutoRaise(True)
        self.body = QFrame(self)
        self.body.setObjectName("detailsBody")
        self.body.setFrameShape(QFrame.Shape.StyledPanel)
        grid = QGridLayout(self.body)
        grid.addWidget(dedup_label, 0, 0)
        grid.addWidget(dedup, 0, 1, 1, 3)
        self.labels, self.values = {}, {}
        for i, name in enumerate(NAMES):
            self.labels[name] = QLabel(self.body)
            value = QLabel(self.body)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[name] = value
            grid.addWidget(self.labels[name], 1 + i // 2, (i % 2) * 2)
            grid.addWidget(value, 1 + i // 2, (i % 2) * 2 + 1)
        grid.addWidget(chain, 1 + len(NAMES) // 2, 0, 1, 4)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)
        opened = prefs.settings().value(OPEN_KEY, False, type=bool)
        self.toggle.setChecked(opened)
        self._show_body(opened)
        self.toggle.toggled.connect(self._toggled)
        self.retranslate()

    def _show_body(self, opened: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if opened else Qt.ArrowType.RightArrow)
        self.body.setVisible(opened)

    def _toggled(self, opened: bool) -> None:
        self._show_body(opened)
        prefs.settings().setValue(OPEN_KEY, opened)

    @property
    def is_open(self) -> bool:
        return self.toggle.isChecked()

    def retranslate(self) -> None:
        self.toggle.setText(self.tr("Details"))
        self.toggle.setToolTip(self.tr("Dedup key, times, use, heat, tier, source, version and supersede chain"))
        text = {
            "created": self.tr("Created"),
            "updated": self.tr("Updated"),
            "last_access": self.tr("Last access"),
            "access_count": self.tr("Accesses"),
            "heat": self.tr("Heat"),
            "tier": self.tr("Tier"),
            "source": self.tr("Source"),
            "version": self.tr("Version"),
        }
        for name, label in self.labels.items():
            label.setText(text[name] + ":")

    def show_record(self, record) -> None:
        values = {name: "—" for name in NAMES}
        if record is not None:
            values.update(
                created=local_time(record.created_at),
                updated=local_time(record.updated_at),
                last_access=local_time(record.last_access_at),
                access_count=str(record.access_count),
                heat=f"{record.heat:.0f}",
                tier=labels.label("tier", record.tier),
                source=labels.source(record.source),
                version=str(record.version),
            )
        for name, text in values.items():
            self.values[name].setText(text)
