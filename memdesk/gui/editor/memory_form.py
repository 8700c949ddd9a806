"""The editor's fields: one widget per field of a memory, their labels and choices, and the
form's values as a plain dict (gui/editor/form.py compares and merges those).

The content comes first: the title in a large font and the content taking the height
there is; group, tags, type, scope, importance and persona in one compact block under
it; the expiry only for short-term memories (or one that has a date). The dedup key
is internal: the editor puts it under 详细信息 (details.py), with the facts.

``edited`` fires on any change the user makes, never while the form is being filled or its
choices refreshed, so the editor's dirty marker only follows the user's hand.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.domain.records import SCOPES, TYPES
from memdesk.gui import labels

from .fields import ExpiryEdit, ImportanceEdit, TagsEdit, TermHighlighter
from .form import FIELDS


class MemoryForm(QWidget):
    edited = Signal()

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.persona_names: dict[str, str] = {}
        self._loading = False
        self._names_stale = True
        self._build_fields()
        self.form_labels = {name: QLabel(self) for name in FIELDS}
        self._lay_out()
        for signal in (
            self.title.textChanged,
            self.content.textChanged,
            self.group.currentTextChanged,
            self.tags.textChanged,
            self.type.currentIndexChanged,
            self.scope.currentIndexChanged,
            self.importance.valueChanged,
            self.expiry.changed,
            self.persona.currentIndexChanged,
            self.dedup.textChanged,
        ):
            signal.connect(self._on_edit)
        self.scope.currentIndexChanged.connect(self._show_expiry)

    def _lay_out(self) -> None:
        """Title, content, then the compact block (Tab follows this order)."""
        block = QGridLayout()
        block.setContentsMargins(0, 0, 0, 0)
        places = {
            "group": (0, 0),
            "tags": (0, 2),
            "type": (1, 0),
            "scope": (1, 2),
            "importance": (2, 0),
            "persona_id": (2, 2),
            "expires_at": (3, 0),
        }
        for name, (row, column) in places.items():
            block.addWidget(self.form_labels[name], row, column)
            block.addWidget(self.widgets[name], row, column + 1, 1, 3 if name == "expires_at" else 1)
        block.setColumnStretch(1, 1)
        block.setColumnStretch(3, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.content, 1)
        layout.addLayout(block)
        self.form_labels["title"].hide()  # the placeholders name these two
        self.form_labels["content"].hide()

    def _show_expiry(self, *_args) -> None:
        shown = self.scope.currentData() == "short_term" or self.expiry.value() is not None
        self.expiry.setVisible(shown)
        self.form_labels["expires_at"].setVisible(shown)

    def _build_fields(self) -> None:
        self.title = QLineEdit(self)
        self.title.setObjectName("titleField")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.title.setFont(font)
        self.content = QPlainTextEdit(self)
        self.content.setObjectName("contentField")
        self.content.setTabChangesFocus(True)
        font = self.content.font()
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.content.setFont(font)
        self.content.setMinimumHeight(self.content.fontMetrics().lineSpacing() * 5)
        self.highlighter = TermHighlighter(self.content.document())
        self.group = QComboBox(self)
        self.group.setObjectName("groupField")
        self.group.setEditable(True)
        self.group.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.group.completer().setFilterMode(Qt.MatchFlag.MatchContains)
        self.group.completer().setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.tags = TagsEdit(self)
        self.tags.setObjectName("tagsField")
        self.type = QComboBox(self)
        self.scope = QComboBox(self)
        self.importance = ImportanceEdit(self)
        self.importance.setObjectName("importanceField")
        self.expiry = ExpiryEdit(self)
        self.persona = QComboBox(self)
        self.persona.setObjectName("personaField")
        self.dedup = QLineEdit(self)
        self.widgets = {
            "title": self.title,
            "content": self.content,
            "group": self.group,
            "tags": self.tags,
            "type": self.type,
            "scope": self.scope,
            "importance": self.importance,
            "persona_id": self.persona,
            "expires_at": self.expiry,
            "dedup_key": self.dedup,
        }

    def _on_edit(self, *_args) -> None:
        if not self._loading:
            self.edited.emit()

    def retranslate(self) -> None:
        names = labels.fields()
        for name, label in self.form_labels.items():
            label.setText(names[name] if name != "expires_at" else self.tr("Expires"))
        self.title.setPlaceholderText(self.tr("Title (optional; the start of the content is shown otherwise)"))
        self.content.setPlaceholderText(self.tr("What the assistant should remember"))
        self.tags.setPlaceholderText(self.tr("Comma-separated, e.g. habit, health"))
        self.group.lineEdit().setPlaceholderText(self.tr("e.g. work/project A  ('/' nests groups)"))
        self.dedup.setPlaceholderText(self.tr("Optional; one memory per key and persona"))
        self.expiry.check.setText(self.tr("Expires on"))
        self.importance.set_estimate(self.importance.estimate)
        self._fill_choices()

    # ---- choices --------------------------------------------------------------------------------
    def _fill_choices(self) -> None:
        self._loading = True
        for combo, table, keys in ((self.type, labels.types(), TYPES), (self.scope, labels.scopes(), SCOPES)):
            current = combo.currentData()
            combo.clear()
            for key in keys:
                combo.addItem(table[key], key)
            if current is not None:
                combo.setCurrentIndex(max(0, combo.findData(current)))
        self._loading = False
        self.refresh_personas()

    def refresh_personas(self) -> None:
        personas = self.session.store.personas()
        self.persona_names = {p.id: p.name for p in personas}
        was_loading, self._loading = self._loading, True
        current = self.persona.currentData()
        self.persona.clear()
        self.persona.addItem(self.tr("Global (every persona)"), None)
        for p in personas:
            self.persona.addItem(p.name, p.id)
        self.persona.setCurrentIndex(max(0, self.persona.findData(current)))
        self._loading = was_loading

    def names_changed(self) -> None:
        """Groups or tags may have changed: read them again before the next fill."""
        self._names_stale = True

    def _refresh_names(self) -> None:
        if not self._names_stale:
            return
        store = self.session.store
        text = self.group.currentText()
        was_loading, self._loading = self._loading, True
        self.group.clear()
        self.group.addItems(store.group_names())
        self.group.setCurrentText(text)
        self._loading = was_loading
        self.tags.set_names(store.tag_names())
        self._names_stale = False

    # ---- values ---------------------------------------------------------------------------------
    def values(self) -> dict:
        return {
            "title": self.title.text(),
            "content": self.content.toPlainText(),
            "group": self.group.currentText(),
            "tags": self.tags.text(),
            "type": self.type.currentData(),
            "scope": self.scope.currentData(),
            "importance": self.importance.importance(),
            "expires_at": self.expiry.value(),
            "persona_id": self.persona.currentData(),
            "dedup_key": self.dedup.text(),
        }

    def fill(self, values: dict) -> dict:
        """Show ``values``; returns what the widgets show (the baseline the editor compares with)."""
        self._loading = True
        self._refresh_names()
        self.title.setText(values["title"])
        self.content.setPlainText(values["content"])
        self.group.setCurrentText(values["group"])
        self.tags.setText(values["tags"])
        self.type.setCurrentIndex(max(0, self.type.findData(values["type"])))
        self.scope.setCurrentIndex(max(0, self.scope.findData(values["scope"])))
        if "estimated_importance" in values:  # a form read back from the widgets keeps the shown estimate
            self.importance.set_estimate(values["estimated_importance"])
        self.importance.set_importance(values["importance"])
        self.expiry.set_value(values["expires_at"])
        index = self.persona.findData(values["persona_id"])
        if index < 0:
            self.refresh_personas()
            index = self.persona.findData(values["persona_id"])
        self.persona.setCurrentIndex(max(0, index))
        self.dedup.setText(values["dedup_key"] or "")
        self._show_expiry()
        self._loading = False
        return self.values()
