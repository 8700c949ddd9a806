"""The Settings dialog's Model tab: the installed models, install and remove, the download with
its hub. A view of the window's ModelController, which runs the jobs and outlives the dialog.

Said for the user: one sentence on what semantic search does for them, whether it is on, and a
download button; the model's technical details sit in tooltips, the hub or mirror (and
HF_ENDPOINT) under a folded 高级, and the progress bar shows only while a download runs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .controller import DEFAULT_MODEL, ModelController
from .hub import MIRROR_EXAMPLE, environment_hub, hub_choice
from .wording import describe_model, model_name_and_size

NAME_ROLE = Qt.ItemDataRole.UserRole


class ModelManager(QWidget):
    """The Settings dialog's Model tab."""

    def __init__(self, controller: ModelController, ask, parent=None):
        super().__init__(parent)
        self.setObjectName("modelManager")
        self.controller, self.ask = controller, ask
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Semantic search finds memories by what they mean, not only by their words: "
                "searching “something to drink” also finds “no coffee after 3 pm”. "
                "It runs on this computer; nothing is sent anywhere."
            ),
            self,
        )
        intro.setObjectName("modelIntro")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self._build_installed(layout)
        layout.addWidget(self._build_download())
        self.status = QLabel(controller.last_message, self)
        self.status.setObjectName("modelStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        self._connect()
        self._hub_changed()
        self.refresh()

    def _build_installed(self, layout: QVBoxLayout) -> None:
        """The active model, the installed list and its buttons."""
        form = QFormLayout()
        self.active_label = QLabel(self)
        self.active_label.setObjectName("activeModel")
        self.active_label.setWordWrap(True)
        form.addRow(self.tr("Semantic search"), self.active_label)
        layout.addLayout(form)
        self.models = QListWidget(self)
        self.models.setObjectName("modelList")
        layout.addWidget(self.models, 1)
        row = QHBoxLayout()
        self.use_button = QPushButton(self.tr("Use"), self)
        self.use_button.setObjectName("useModel")
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setObjectName("removeModel")
        self.folder_button = QPushButton(self.tr("Install from a folder…"), self)
        self.folder_button.setObjectName("installFolder")
        self.zip_button = QPushButton(self.tr("Install from a .zip…"), self)
        self.zip_button.setObjectName("installZip")
        for button in (self.use_button, self.remove_button, self.folder_button, self.zip_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)

    def _build_download(self) -> QGroupBox:
        """The download box: download and cancel, progress while it runs, the hub under 高级."""
        box = QGroupBox(self.tr("Download {name} (about 95 MB)").format(name=DEFAULT_MODEL), self)
        column = QVBoxLayout(box)
        self.progress = QProgressBar(box)
        self.progress.setObjectName("downloadProgress")
        self.progress.setFormat("%p%")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.hide()  # an idle 0 % bar reads as something stuck
        self.download_button = QPushButton(self.tr("Download"), box)
        self.download_button.setObjectName("downloadModel")
        self.cancel_button = QPushButton(self.tr("Cancel"), box)
        self.cancel_button.setObjectName("cancelDownload")
        dl_row = QHBoxLayout()
        dl_row.addWidget(self.progress, 1)
        dl_row.addStretch(0)
        dl_row.addWidget(self.download_button)
        dl_row.addWidget(self.cancel_button)
        column.addLayout(dl_row)
        note = QLabel(
            self.tr("If the download does not start (often so in mainland China), choose a mirror under Advanced."),
            box,
        )
        note.setWordWrap(True)
        column.addWidget(note)
        self.advanced_toggle = QToolButton(box)
        self.advanced_toggle.setObjectName("advancedToggle")
        self.advanced_toggle.setText(self.tr("Advanced"))
        self.advanced_toggle.setCheckable(True)
        self.advanced_toggle.setAutoRaise(True)
        self.advanced_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced = self._build_hub(box)
        self.advanced_toggle.toggled.connect(self._show_advanced)
        column.addWidget(self.advanced_toggle)
        column.addWidget(self.advanced)
        # Open when a mirror or HF_ENDPOINT is in use: the user sees where downloads come from.
        self.advanced_toggle.setChecked(self.hub.currentData() != "hf")
        self._show_advanced(self.advanced_toggle.isChecked())
        return box

    def _build_hub(self, box) -> QWidget:
        """Where the model is downloaded from: Hugging Face, $HF_ENDPOINT or a mirror the user types."""
        advanced = QFrame(box)
        advanced.setObjectName("advancedHub")
        grid = QFormLayout(advanced)
        grid.setContentsMargins(16, 0, 0, 0)
        self.hub = QComboBox(advanced)
        self.hub.setObjectName("hubChoice")
        self.hub.addItem(self.tr("Hugging Face (huggingface.co)"), "hf")
        env = environment_hub()
        if env:
            self.hub.addItem(self.tr("From {variable}: {url}").format(variable=env[0], url=env[1]), "env")
        self.hub.addItem(self.tr("A mirror:"), "mirror")
        self.hub_url = QLineEdit(advanced)
        self.hub_url.setObjectName("hubUrl")
        self.hub_url.setPlaceholderText(MIRROR_EXAMPLE)
        kind, url = hub_choice()
        self.hub.setCurrentIndex(max(0, self.hub.findData(kind)))
        self.hub_url.setText(url)
        hub_row = QHBoxLayout()
        hub_row.addWidget(self.hub)
        hub_row.addWidget(self.hub_url, 1)
        grid.addRow(self.tr("From"), hub_row)
        hint = QLabel(
            self.tr(
                "In mainland China huggingface.co is often unreachable: pick a mirror such as {mirror}, "
                "or set HF_ENDPOINT before starting MemDesk. A stopped download resumes where it "
                "stopped."
            ).format(mirror=MIRROR_EXAMPLE),
            advanced,
        )
        hint.setWordWrap(True)
        grid.addRow(hint)
        return advanced

    def _show_advanced(self, shown: bool) -> None:
        self.advanced_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.advanced.setVisible(shown)

    def _connect(self) -> None:
        controller = self.controller
        self.use_button.clicked.connect(self._use)
        self.remove_button.clicked.connect(self._remove)
        self.folder_button.clicked.connect(self._install_folder)
        self.zip_button.clicked.connect(self._install_zip)
        self.download_button.clicked.connect(self._download)
        self.cancel_button.clicked.connect(controller.cancel_download)
        self.hub.currentIndexChanged.connect(self._hub_changed)
        self.models.currentItemChanged.connect(self._update_buttons)
        # The controller outlives this tab: only bound methods of this tab's own objects, which Qt
        # disconnects when the closed dialog is deleted (a lambda would stay connected and fail).
        controller.models_changed.connect(self.refresh)
        controller.download_progress.connect(self._progress)
        controller.download_state.connect(self._update_buttons)
        controller.busy_changed.connect(self._update_buttons)
        controller.message.connect(self.status.setText)

    def refresh(self) -> None:
        from memdesk.core.embed import list_models

        current = self.selected_name()
        self.models.clear()
        active = None
        for info in list_models():
            text = model_name_and_size(info) + ("  ✓" if info.active else "")
            item = QListWidgetItem(text)
            item.setToolTip(describe_model(info))
            item.setData(NAME_ROLE, info.name)
            self.models.addItem(item)
            if info.active:
                active = info
            if info.name == current:
                self.models.setCurrentItem(item)
        if not self.models.count():  # an empty white box reads as broken: say why it is empty
            empty = QListWidgetItem(
                self.tr("No model installed yet. Download one below, or install one you have from a folder or a .zip.")
            )
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.models.addItem(empty)
        self.active_label.setText(
            self.tr("On, with {model}").format(model=model_name_and_size(active))
            if active
            else self.tr("Off: search finds words only. Download {name} below, or install a model you have.").format(
                name=DEFAULT_MODEL
            )
        )
        self.active_label.setToolTip(describe_model(active) if active else "")
        self._update_buttons()

    def selected_name(self) -> str | None:
        item = self.models.currentItem()
        return item.data(NAME_ROLE) if item is not None else None

    def _update_buttons(self, *_signal_args) -> None:
        c = self.controller
        busy = c.job_task is not None
        self.use_button.setEnabled(self.selected_name() is not None and not busy)
        self.remove_button.setEnabled(self.selected_name() is not None and not busy)
        self.folder_button.setEnabled(not busy)
        self.zip_button.setEnabled(not busy)
        self.download_button.setEnabled(not c.downloading)
        self.cancel_button.setEnabled(c.downloading)
        self.progress.setVisible(c.downloading or 0 < self.progress.value() < self.progress.maximum())
        self.hub.setEnabled(not c.downloading)
        self.hub_url.setEnabled(not c.downloading and self.hub.currentData() == "mirror")

    def _hub_changed(self, *_args) -> None:
        self.hub_url.setEnabled(self.hub.currentData() == "mirror" and not self.controller.downloading)

    def _progress(self, done: int, total: int) -> None:
        scale = 1024  # a QProgressBar holds int32: count KiB
        self.progress.setRange(0, max(1, total // scale))
        self.progress.setValue(done // scale)

    def _download(self) -> None:
        self.controller.download(self.hub.currentData(), self.hub_url.text().strip())
        self._update_buttons()

    def _use(self) -> None:
        name = self.selected_name()
        if name:
            self.controller.use(name)

    def _remove(self) -> None:
        name = self.selected_name()
        if name and self.ask.confirm(
            self,
            self.tr("Remove model"),
            self.tr("Delete the model {name} from this computer?").format(name=name),
            yes=self.tr("Remove"),
        ):
            self.controller.remove(name)

    def _install_folder(self) -> None:
        path = self.ask.open_folder(self, self.tr("Install a model from a folder"))
        if path:
            self.controller.install(path)

    def _install_zip(self) -> None:
        path = self.ask.open_file(self, self.tr("Install a model from a .zip"), self.tr("Zip archives (*.zip)"))
        if path:
            self.controller.install(path)
