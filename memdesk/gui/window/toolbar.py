"""The main window's toolbar: the persona selector, the main actions and the search bar; its
buttons lose their words before the search box would be pushed out of sight."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QToolBar

from memdesk.core.views import queries
from memdesk.gui import icons

ALL_KEY, GLOBAL_KEY = "__all__", "__global__"  # the combo's data for queries.ALL and queries.GLOBAL


class PersonaSelector(QComboBox):
    """All, Global, then each persona; ``persona_chosen`` gives queries.ALL, queries.GLOBAL or an id."""

    persona_chosen = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("personaSelector")
        self.setMinimumWidth(150)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.currentIndexChanged.connect(self._chosen)

    def refresh(self, personas) -> None:
        """List ``personas``, keeping the current choice (All when it is gone); emits nothing."""
        current = self.currentData() or ALL_KEY
        self.blockSignals(True)
        self.clear()
        self.addItem(self.tr("All"), ALL_KEY)
        self.addItem(icons.icon("globe"), self.tr("Global"), GLOBAL_KEY)
        for persona in personas:
            self.addItem(icons.colour_dot(persona.colour), persona.name, persona.id)
        self.setCurrentIndex(max(0, self.findData(current)))
        self.blockSignals(False)

    def current_filter(self):
        key = self.currentData()
        return {ALL_KEY: queries.ALL, GLOBAL_KEY: queries.GLOBAL}.get(key, key)

    def current_persona_id(self) -> str | None:
        key = self.currentData()
        return None if key in (ALL_KEY, GLOBAL_KEY) else key

    def set_persona(self, persona) -> None:
        """queries.ALL, queries.GLOBAL or a persona id; chosen again (and emitted) if already current."""
        key = {queries.ALL: ALL_KEY, queries.GLOBAL: GLOBAL_KEY}.get(persona, persona)
        index = self.findData(key)
        if index >= 0 and index != self.currentIndex():
            self.setCurrentIndex(index)
        elif index >= 0:
            self._chosen()

    def _chosen(self, *_args) -> None:
        self.persona_chosen.emit(self.current_filter())


class MainToolbar(QToolBar):
    def __init__(self, acts, search_bar, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Main"))
        self.acts = acts
        self.setObjectName("mainToolbar")
        self.setMovable(False)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.persona_label = QLabel(self.tr("Persona:"), self)
        self.persona_combo = PersonaSelector(self)
        self.addWidget(self.persona_label)
        self.addWidget(self.persona_combo)
        self.addAction(acts.personas)
        self.addSeparator()
        self.addAction(acts.new)
        self.addAction(acts.delete)
        self.addAction(acts.undo)
        self.addAction(acts.redo)
        self._undo_redo_icons_only()
        self.addSeparator()
        self.addWidget(search_bar)

    def _undo_redo_icons_only(self) -> None:
        for action in (self.acts.undo, self.acts.redo):  # their text names the action: too long for a button
            self.widgetForAction(action).setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)

    def fit(self, width: int) -> None:
        """Buttons lose their words before the search box is pushed into the » overflow menu
        (English words are long: at 900 px they took its place); their tooltips still name them."""
        worded = (self.acts.personas, self.acts.new, self.acts.delete)
        words = sum(self.fontMetrics().horizontalAdvance(a.text().replace("&", "")) + 8 for a in worded)
        icons_only = self.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
        needed = self.sizeHint().width() + (words if icons_only else 0)
        style = (
            Qt.ToolButtonStyle.ToolButtonIconOnly
            if width < needed + 24
            else Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        )
        if style != self.toolButtonStyle():
            self.setToolButtonStyle(style)
            self._undo_redo_icons_only()
