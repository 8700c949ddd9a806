"""Tools → Context preview: the memory brief an assistant would receive.

Built by the same brief_for the assistant server uses, with record_access
off (looking is not reading). A message ranks memories with the window's
search index once it is built; until then they are ranked by importance,
heat and recency.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
)

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.tools.service import MemoryTools, brief_for
from memdesk.gui import icons
from memdesk.gui.reasons import error_text

DEBOUNCE_MS = 200
GLOBAL_KEY = "__global__"


class ContextPreviewDialog(QDialog):
    def __init__(self, session, engine_of=lambda: None, parent=None):
        """``engine_of()`` -> the window's SearchEngine, or None while it is being built."""
        super().__init__(parent)
        self.setObjectName("contextPreviewDialog")
        self.session, self.engine_of = session, engine_of
        self.setWindowTitle(self.tr("Context preview"))
        self.persona = QComboBox(self)
        self.persona.setObjectName("previewPersona")
        self.message = QLineEdit(self)
        self.message.setObjectName("previewMessage")
        self.message.setPlaceholderText(self.tr("The user's message (optional): memories are ranked against it"))
        self.notice = QLabel(self)
        self.notice.setWordWrap(True)
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("previewText")
        self.text.setReadOnly(True)
        self.text.setFont(QFont("monospace"))
        self.tokens = QLabel(self)
        self.tokens.setObjectName("previewTokens")
        # The brief is the assistant's input, in the form the model reads: shown as it is, and said so.
        self.caption = QLabel(
            self.tr("What the assistant receives, word for word (its format is the same in every language):"), self
        )
        self.caption.setWordWrap(True)
        form = QFormLayout()
        form.addRow(self.tr("Persona"), self.persona)
        form.addRow(self.tr("Message"), self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.notice)
        layout.addWidget(self.caption)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.tokens)
        layout.addWidget(buttons)

        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.update_preview)
        self.message.textChanged.connect(lambda _text: self.timer.start())
        self.persona.currentIndexChanged.connect(lambda _i: self.update_preview())
        session.changes_applied.connect(self._on_changes)
        self.refresh_personas()
        self.update_preview()
        self.resize(640, 460)

    def refresh_personas(self) -> None:
        current = self.persona.currentData() or GLOBAL_KEY
        self.persona.blockSignals(True)
        self.persona.clear()
        self.persona.addItem(icons.icon("globe"), self.tr("Global"), GLOBAL_KEY)
        for persona in self.session.store.personas():
            self.persona.addItem(icons.colour_dot(persona.colour), persona.name, persona.id)
        self.persona.setCurrentIndex(max(0, self.persona.findData(current)))
        self.persona.blockSignals(False)

    def set_persona(self, persona_id: str | None) -> None:
        self.persona.setCurrentIndex(max(0, self.persona.findData(persona_id or GLOBAL_KEY)))

    def _on_changes(self, changes) -> None:
        if changes.personas:
            self.refresh_personas()
        if self.isVisible():
            self.update_preview()

    def _search(self, query, *, persona, limit, scope=None, type=None):
        """The window's index, as the assistant server's search uses its own (same engine, same order)."""
        engine = self.engine_of()
        if engine is None:
            return []  # still building: the brief falls back to importance, heat and recency
        text = " ".join([query] + [f"{k}:{v}" for k, v in (("scope", scope), ("type", type)) if v])
        result = engine.search(text, persona=persona or "", limit=limit, lenient=True, record_access=False)
        return [(hit.record or self.session.store.get(hit.id), hit.score) for hit in result.hits]

    def update_preview(self) -> None:
        self.timer.stop()
        key = self.persona.currentData()
        store = self.session.store
        name = None if key in (None, GLOBAL_KEY) else key  # resolve_persona takes an id as well as a name
        message = self.message.text().strip()
        try:
            tools = MemoryTools(store, persona=name, client="gui", search=self._search)
            brief = brief_for(tools, message=message or None, record_access=False)
        except MemDeskError as exc:
            self.text.setPlainText("")
            self.notice.setText(error_text(exc))
            self.tokens.setText("")
            return
        self.brief = brief
        if not brief.enabled:
            self.notice.setText(
                self.tr(
                    "Memory is switched off for this persona (autoSaveMemory): the assistant "
                    "receives no memories and is offered no memory tools."
                )
            )
        elif not brief.text:
            self.notice.setText(self.tr("No memories to send: the assistant receives an empty brief."))
        elif message and self.engine_of() is None:
            self.notice.setText(
                self.tr(
                    "The search index is still being built: memories are ranked by "
                    "importance, heat and recency, not by the message."
                )
            )
        else:
            self.notice.setText("")
        self.text.setPlainText(brief.text)
        counted = (
            self.tr("estimated: one per Chinese character, one per 4 letters of other words")
            if brief.counted_with == "estimate"
            else brief.counted_with
        )
        self.tokens.setText(
            self.tr("{n} tokens ({how}) · {long} long-term, {short} short-term memories").format(
                n=brief.tokens, how=counted, long=len(brief.long_term), short=len(brief.short_term)
            )
        )
