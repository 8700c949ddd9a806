"""The offer, on an empty database, to load a few example memories (in Chinese).

Nothing is written unless the user says yes; "No, thanks" is remembered for that database.
``loaded`` fires once the examples are in (the semantic-search offer waits for them).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from memdesk.gui import prefs


class ExamplesBanner(QFrame):
    loaded = Signal()

    def __init__(self, store, importer, parent=None):
        super().__init__(parent)
        self.store, self.importer = store, importer
        self.loading = False
        self.setObjectName("examplesBanner")
        self.setStyleSheet("QFrame#examplesBanner { background:#e8f1fd; border:1px solid #9cc0ef; border-radius:4px; }")
        text = QLabel(
            self.tr(
                "This database is empty. Load a few example memories (in Chinese) to see how "
                "MemDesk works? Nothing is written unless you say yes."
            ),
            self,
        )
        text.setWordWrap(True)
        self.yes_button = QPushButton(self.tr("Load examples"), self)
        self.no_button = QPushButton(self.tr("No, thanks"), self)
        row = QHBoxLayout(self)
        row.addWidget(text, 1)
        row.addWidget(self.yes_button)
        row.addWidget(self.no_button)
        self.hide()
        self.yes_button.clicked.connect(self.load)
        self.no_button.clicked.connect(self.decline)
        importer.imported.connect(self._imported)

    def offer(self) -> None:
        """Shown while the database is empty, unless the user said no to it before."""
        empty = self.store.count(state="all") == 0 and not self.store.personas()
        self.setVisible(empty and not prefs.examples_declined(self.store.location))

    def load(self) -> None:
        self.hide()
        self.loading = True
        self.importer.load_examples()

    def decline(self) -> None:
        self.hide()
        prefs.set_examples_declined(self.store.location)

    def _imported(self, _result) -> None:
        if self.loading:
            self.loading = False
            self.loaded.emit()
