"""The one-line offer to turn on semantic search, shown once the examples are loaded.

Keyword search cannot bridge "coffee" and 咖啡; only a model can. The offer
appears after the first-start examples land, while no model is active, and
stays offered on later starts until the user takes it (download or install)
or says "don't ask again". "Not now" only hides it for this run.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from memdesk.gui import prefs

PENDING_KEY = "semantic_offer/pending"  # databases whose examples were loaded while no model was active
DECLINED_KEY = "semantic_offer/declined"  # "don't ask again", or a model was set up: never again, anywhere


def offer_pending(db_path) -> bool:
    s = prefs.settings()
    return not s.value(DECLINED_KEY, False, type=bool) and str(db_path) in s.value(PENDING_KEY, [], type=list)


def set_offer_pending(db_path) -> None:
    s = prefs.settings()
    pending = list(s.value(PENDING_KEY, [], type=list))
    if str(db_path) not in pending:
        s.setValue(PENDING_KEY, pending + [str(db_path)])


def close_offer() -> None:
    prefs.settings().setValue(DECLINED_KEY, True)


def model_active() -> bool:
    from memdesk.core.embed.registry import active_name

    return active_name() is not None


class SemanticOffer(QFrame):
    """The banner; the window connects ``set_up_requested`` to the Settings › Model tab."""

    set_up_requested = Signal()

    def __init__(self, models, db_path, parent=None):
        super().__init__(parent)
        self.models, self.db_path = models, db_path
        self.setObjectName("semanticOffer")
        self.setStyleSheet("QFrame#semanticOffer { background:#eef7ee; border:1px solid #a6d3a6; border-radius:4px; }")
        self.text = QLabel(
            self.tr(
                "Turn on semantic search, so that “coffee” also finds 咖啡 and similar "
                "wordings find each other? It needs the bge-small-zh model (about 95 MB), "
                "kept on this computer."
            ),
            self,
        )
        self.text.setWordWrap(True)
        self.download_button = QPushButton(self.tr("Download the model"), self)
        self.set_up_button = QPushButton(self.tr("Install or choose a mirror…"), self)
        self.later_button = QPushButton(self.tr("Not now"), self)
        self.never_button = QPushButton(self.tr("Don't ask again"), self)
        row = QHBoxLayout(self)
        row.addWidget(self.text, 1)
        for button in (self.download_button, self.set_up_button, self.later_button, self.never_button):
            row.addWidget(button)
        self.download_button.clicked.connect(self.download)
        self.set_up_button.clicked.connect(self.set_up)
        self.later_button.clicked.connect(self.hide)
        self.never_button.clicked.connect(self.decline)
        models.models_changed.connect(self._models_changed)
        self.hide()

    def offer(self) -> None:
        """Show the offer if it is still open and no model is active."""
        if offer_pending(self.db_path) and not model_active():
            self.show()
        elif self.isVisible():
            self.hide()

    def download(self) -> None:
        close_offer()
        self.hide()
        self.models.download()  # progress and failures show in the status bar and the Model tab

    def set_up(self) -> None:
        self.hide()  # stays pending: the user may close Settings without installing anything
        self.set_up_requested.emit()

    def decline(self) -> None:
        close_offer()
        self.hide()

    def _models_changed(self) -> None:
        if model_active():
            close_offer()
            self.hide()
