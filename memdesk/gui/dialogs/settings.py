"""Settings: database file, language, search weights, maintenance, model.

Language and the window layout are the user's (QSettings); weights, the
maintenance schedule and trash days belong to the database (its settings
table), so the CLI and the assistant tools see the same values.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memdesk.gui import prefs
from memdesk.gui.browser.search_backend import WEIGHTS_KEY

SCHEDULE_KEY = "maintenance.schedule"  # "off" | "start" | "daily" | "weekly"
TRASH_DAYS_KEY = "maintenance.trash_days"  # read by memdesk.core.maintenance
SCHEDULES = ("off", "start", "daily", "weekly")
WEIGHT_NAMES = ("fusion", "importance", "heat", "freshness")
DEFAULT_WEIGHTS = {"fusion": 0.4, "importance": 0.3, "heat": 0.2, "freshness": 0.1}


class SettingsDialog(QDialog):
    language_changed = Signal(str)
    database_requested = Signal(str, bool)  # path, create new
    weights_changed = Signal(dict)
    maintenance_requested = Signal()

    def __init__(self, session, ask, models, parent=None, *, tab: str = ""):
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.session, self.ask, self.models = session, ask, models  # models: the window's ModelController
        self.setWindowTitle(self.tr("Settings"))
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self._general_tab(), self.tr("General"))
        self.tabs.addTab(self._search_tab(), self.tr("Search"))
        self.tabs.addTab(self._maintenance_tab(), self.tr("Maintenance"))
        self.tabs.addTab(self._model_tab(), self.tr("Model"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.apply_and_close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)
        if tab == "model":
            self.tabs.setCurrentIndex(3)
        self.resize(640, 520)

    # ---- tabs -----------------------------------------------------------------------------------
    def _general_tab(self) -> QWidget:
        tab = QWidget(self)
        form = QFormLayout(tab)
        self.language = QComboBox(tab)
        self.language.addItem(self.tr("Same as the system"), "")
        self.language.addItem("简体中文", "zh_CN")
        self.language.addItem("English", "en")
        self.language.setCurrentIndex(max(0, self.language.findData(prefs.language())))
        form.addRow(self.tr("Language"), self.language)
        self.db_label = QLabel(self.session.store.location, tab)
        self.db_label.setWordWrap(True)
        open_button = QPushButton(self.tr("Open another…"), tab)
        new_button = QPushButton(self.tr("New…"), tab)
        open_button.clicked.connect(lambda: self._pick_database(new=False))
        new_button.clicked.connect(lambda: self._pick_database(new=True))
        row = QHBoxLayout()
        row.addWidget(open_button)
        row.addWidget(new_button)
        row.addStretch(1)
        form.addRow(self.tr("Database file"), self.db_label)
        form.addRow("", row)
        return tab

    def _search_tab(self) -> QWidget:
        tab = QWidget(self)
        form = QFormLayout(tab)
        form.addRow(QLabel(self.tr("How the final score of a search hit is made up (they need not sum to 1)."), tab))
        stored = self.session.store.setting(WEIGHTS_KEY, None) or {}
        names = {
            "fusion": self.tr("Relevance (words and meaning)"),
            "importance": self.tr("Importance"),
            "heat": self.tr("Heat (recent use)"),
            "freshness": self.tr("Freshness (recently changed)"),
        }
        self.weights = {}
        for name in WEIGHT_NAMES:
            box = QDoubleSpinBox(tab)
            box.setRange(0.0, 10.0)
            box.setSingleStep(0.05)
            box.setDecimals(2)
            value = stored.get(name, DEFAULT_WEIGHTS[name]) if isinstance(stored, dict) else DEFAULT_WEIGHTS[name]
            box.setValue(float(value))
            self.weights[name] = box
            form.addRow(names[name], box)
        reset = QPushButton(self.tr("Defaults"), tab)
        reset.clicked.connect(lambda: [b.setValue(DEFAULT_WEIGHTS[n]) for n, b in self.weights.items()])
        form.addRow("", reset)
        return tab

    def _maintenance_tab(self) -> QWidget:
        tab = QWidget(self)
        form = QFormLayout(tab)
        self.schedule = QComboBox(tab)
        for key, text in zip(
            SCHEDULES,
            (
                self.tr("Never on its own"),
                self.tr("Each time MemDesk starts"),
                self.tr("Once a day"),
                self.tr("Once a week"),
            ),
        ):
            self.schedule.addItem(text, key)
        self.schedule.setCurrentIndex(max(0, self.schedule.findData(self.session.store.setting(SCHEDULE_KEY, "daily"))))
        self.trash_days = QSpinBox(tab)
        self.trash_days.setRange(0, 3650)
        self.trash_days.setSuffix(self.tr(" days"))
        self.trash_days.setValue(int(self.session.store.setting(TRASH_DAYS_KEY, 30) or 30))
        run = QPushButton(self.tr("Run maintenance now"), tab)
        run.clicked.connect(self.maintenance_requested)
        self.last_run = QLabel(self._last_report_text(), tab)
        self.last_run.setWordWrap(True)
        form.addRow(self.tr("Run maintenance"), self.schedule)
        form.addRow(self.tr("Empty trash after"), self.trash_days)
        form.addRow("", run)
        form.addRow(self.tr("Last run"), self.last_run)
        return tab

    def _last_report_text(self) -> str:
        from memdesk.core.maintenance import last_reports

        from .maintenance_report import report_summary

        return report_summary(next(iter(last_reports(self.session.store, 1)), None))

    def _model_tab(self) -> QWidget:
        from memdesk.gui.semantic.model_tab import ModelManager

        self.model_manager = ModelManager(self.models, self.ask, self)
        return self.model_manager

    # ---- actions ----------------------------------------------------------------------------------
    def _pick_database(self, *, new: bool) -> None:
        filters = self.tr("MemDesk database (*.db);;All files (*)")
        path = (
            self.ask.save_file(self, self.tr("New database"), filters)
            if new
            else self.ask.open_file(self, self.tr("Open database"), filters)
        )
        if path:
            self.accept()
            self.database_requested.emit(path, new)

    def apply_and_close(self) -> None:
        store = self.session.store
        weights = {n: round(b.value(), 4) for n, b in self.weights.items()}
        if weights != (store.setting(WEIGHTS_KEY, None) or DEFAULT_WEIGHTS):
            store.set_setting(WEIGHTS_KEY, weights)
            self.weights_changed.emit(weights)
        if self.schedule.currentData() != store.setting(SCHEDULE_KEY, "daily"):
            store.set_setting(SCHEDULE_KEY, self.schedule.currentData())
        if self.trash_days.value() != store.setting(TRASH_DAYS_KEY, 30):
            store.set_setting(TRASH_DAYS_KEY, self.trash_days.value())
        language = self.language.currentData()
        changed_language = language != prefs.language()
        prefs.set_language(language)
        self.accept()
        if changed_language:
            self.language_changed.emit(language)
