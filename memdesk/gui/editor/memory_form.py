"""The editor's fields: one widget per field of a memory, their labels and choices, and the
form's values as a plain dict (gui/editor/form.py compares and merges those).

``edited`` fires on any change the user makes, never while the form is being filled or its
choices refreshed, so the editor's dirty marker only follows the user's hand.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QCompleter, QFormLayout, QLabel, QLineEdit, QPlainTextEdit, QSpinBox, QWidget

from ...core.records import SCOPES, TYPES
from .. import labels
from .fields import ExpiryEdit, TagsEdit, TermHighlighter
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
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form_labels = {name: QLabel(self) for name in FIELDS}
        for name, widget in self.widgets.items():  # the form's order: persona before expiry
            layout.addRow(self.form_labels[name], widget)
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

    def _build_fields(self) -> None:
        self.title = QLineEdit(self)
        self.title.setObjectName("titleField")
        self.content = QPlainTextEdit(self)
        self.content.setObjectName("contentField")
        self.content.setTabChangesFocus(True)
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
        self.importance = QSpinBox(self)
        self.importance.setRange(1, 10)
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
        self.title.setPlaceholderText(self.tr("Optional; the start of the content is shown otherwise"))
        self.content.setPlaceholderText(self.tr("What the assistant should remember"))
        self.tags.setPlaceholderText(self.tr("Comma-separated, e.g. habit, health"))
        self.group.lineEdit().setPlaceholderText(self.tr("e.g. work/project A  ('/' nests groups)"))
        self.dedup.setPlaceholderText(self.tr("Optional; one memory per key and persona"))
        self.expiry.check.setText(self.tr("Expires on"))
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
            "importance": self.importance.value(),
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
        self.importance.setValue(values["importance"])
        self.expiry.set_value(values["expires_at"])
        index = self.persona.findData(values["persona_id"])
        if index < 0:
            self.refresh_personas()
            index = self.persona.findData(values["persona_id"])
        self.persona.setCurrentIndex(max(0, index))
        self.dedup.setText(values["dedup_key"] or "")
        self._loading = False
        return self.values()
