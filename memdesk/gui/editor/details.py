"""The read-only facts about a memory: times, use, heat and tier, source, version."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel

from .. import labels
from .history import local_time

NAMES = ("created", "updated", "last_access", "access_count", "heat", "tier", "source", "version")


class DetailsBox(QGroupBox):
    def __init__(self, parent=None):
        super().__init__(parent)
        grid = QGridLayout(self)
        self.labels, self.values = {}, {}
        for i, name in enumerate(NAMES):
            self.labels[name] = QLabel(self)
            value = QLabel(self)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[name] = value
            grid.addWidget(self.labels[name], i // 2, (i % 2) * 2)
            grid.addWidget(value, i // 2, (i % 2) * 2 + 1)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(self.tr("Details"))
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
        self.setVisible(record is not None)
