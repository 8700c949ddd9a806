"""Semantic search from the window: the embedding model's download, install, switch and removal.

``ModelController`` belongs to the main window and outlives the Settings
dialog, so a download goes on (and shows in the status bar) after the dialog
is closed. Every job runs on the task manager's work lane; the models folder
is only changed by the core (install_model / download_model / use_model),
which never touches active.json before a model is fully in place, so a
failure leaves the previously active model active. After a switch the search
engine is reopened with the new model and the embedding job runs; until it
finishes, search is keyword-only for the memories without a vector, and the
window says so.

``ModelManager`` is the Settings dialog's Model tab, a view of the controller.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from . import prefs

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

DEFAULT_MODEL = "bge-small-zh-v1.5"
HF_URL = "https://huggingface.co"
MIRROR_EXAMPLE = "https://hf-mirror.com"
HUB_KEY, HUB_URL_KEY = "models/hub", "models/hub_url"  # "hf" | "env" | "mirror", the mirror's URL
NAME_ROLE = Qt.ItemDataRole.UserRole


def environment_hub() -> tuple[str, str] | None:
    """(variable, URL) of the hub the environment names ($MEMDESK_HUB_URL, else $HF_ENDPOINT)."""
    for variable in ("MEMDESK_HUB_URL", "HF_ENDPOINT"):
        value = (os.environ.get(variable) or "").strip()
        if value:
            return variable, value.rstrip("/")
    return None


def describe_error(exc: BaseException) -> str:
    """What went wrong, in the window's language (the core's details only for an unforeseen failure)."""
    from ..core.errors import CancelledError, ModelError

    if isinstance(exc, CancelledError):
        return translate("ModelManager", "Paused. Download again to resume where it stopped.")
    kind = getattr(exc, "kind", "") if isinstance(exc, ModelError) else ""
    heads = {
        "network": translate(
            "ModelManager",
            "Cannot reach the model hub. Check the network, or choose a mirror "
            "(for example {mirror}). What was downloaded is kept: try again to "
            "resume.",
        ).format(mirror=MIRROR_EXAMPLE),
        "server": translate(
            "ModelManager", "The model hub refused the request: check the address of the hub or mirror."
        ),
        "checksum": translate(
            "ModelManager",
            "The downloaded file does not match its checksum; it was deleted "
            "and nothing was installed. Try again, or use another mirror.",
        ),
        "disk": translate(
            "ModelManager",
            "Not enough free disk space for the model. Free some space and try again; what was downloaded is kept.",
        ),
        "not_model": translate(
            "ModelManager", "This is not a model: a model is a folder or .zip holding model.onnx and tokenizer.json."
        ),
        "exists": translate("ModelManager", "A model of that name is already installed; remove it first."),
        "broken": translate("ModelManager", "The model does not work (it fails on a test sentence)."),
    }
    keep = translate("ModelManager", "The active model was not changed.")
    if kind in heads:
        # The core's own words are for the command line (`memdesk model install DIR` …): the head says it all.
        return f"{heads[kind]} {keep}"
    head = translate("ModelManager", "The model could not be set up.")
    return f"{head} {keep}\n\n" + translate("ModelManager", "Details: {details}").format(details=exc)


def describe_model(info) -> str:
    cfg = info.config
    if cfg is None:
        return translate("ModelManager", "{name}: damaged ({problem})").format(name=info.name, problem=info.problem)
    precision = "int8" if cfg.quantization else "fp32"
    return translate("ModelManager", "{name} · {dim} dimensions · {pooling} pooling · {size} MB · {precision}").format(
        name=info.name, dim=cfg.dimension, pooling=cfg.pooling, size=f"{info.size_bytes / 1e6:.1f}", precision=precision
    )


class ModelController(QObject):
    """Runs the model jobs for the window; the Model tab and the first-start offer drive it."""

    models_changed = Signal()  # installed list or active model changed
    download_progress = Signal(int, int)  # bytes done, total
    download_state = Signal(str)  # "running" | "paused" | "failed" | "done"
    busy_changed = Signal(bool)  # an install, switch or removal is running
    message = Signal(str)  # the last outcome, for the tab's status line
    failed = Signal(str)  # a failure's message (also shown in a message box)
    search_state = Signal(str)  # what the status bar says about semantic search ("" = nothing to say)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.session = window.session
        self.download_task = None
        self.job_task = None
        self.embedding = False
        self.last_message = ""
        window.browser.embedded.connect(self._embedded)

    # ---- the hub ------------------------------------------------------------------------------
    @staticmethod
    def hub_choice() -> tuple[str, str]:
        """("hf" | "env" | "mirror", mirror URL) as last chosen; the environment's hub by default."""
        s = prefs.settings()
        default = "env" if environment_hub() else "hf"
        kind = s.value(HUB_KEY, default)
        if kind not in ("hf", "env", "mirror") or (kind == "env" and not environment_hub()):
            kind = default
        return kind, str(s.value(HUB_URL_KEY, "") or "")

    @staticmethod
    def set_hub_choice(kind: str, url: str) -> None:
        s = prefs.settings()
        s.setValue(HUB_KEY, kind)
        s.setValue(HUB_URL_KEY, url)

    @staticmethod
    def hub_for(kind: str, url: str) -> str:
        from ..core.embed.download import check_hub

        if kind == "env":
            env = environment_hub()
            return check_hub(env[1]) if env else HF_URL
        if kind == "mirror":
            return check_hub(url)
        return HF_URL

    # ---- jobs -----------------------------------------------------------------------------------
    @property
    def downloading(self) -> bool:
        return self.download_task is not None

    def download(self, kind: str | None = None, url: str | None = None) -> None:
        """Download the default model from the chosen hub (resuming an earlier, paused one)."""
        from ..core.embed import download_model
        from ..core.errors import MemDeskError

        if self.download_task is not None:
            return
        if kind is None:
            kind, url = self.hub_choice()
        try:
            hub = self.hub_for(kind, url or "")
        except MemDeskError as exc:
            self._fail(exc)
            return
        self.set_hub_choice(kind, url or "")

        def job(cancel, progress):
            return download_model(DEFAULT_MODEL, hub=hub, make_active=True, progress=progress, cancel=cancel)

        task = self.session.taskman.run(
            job,
            label=self.tr("Downloading the model {name}").format(name=DEFAULT_MODEL),
            lane="work",
            on_done=self._downloaded,
            on_failed=self._download_failed,
        )
        task.progressed.connect(self.download_progress)
        task.finished.connect(self._download_over)
        self.download_task = task
        self._say(self.tr("Downloading {name} from {hub}…").format(name=DEFAULT_MODEL, hub=hub))
        self.download_state.emit("running")

    def cancel_download(self) -> None:
        if self.download_task is not None:
            self.download_task.cancel()

    def _download_over(self) -> None:
        self.download_task = None

    def _downloaded(self, info) -> None:
        self.download_task = None
        self.download_state.emit("done")
        self._say(self.tr("Installed {model}.").format(model=describe_model(info)))
        self.models_changed.emit()
        self.reload_search()

    def _download_failed(self, exc) -> None:
        from ..core.errors import CancelledError

        self.download_task = None
        self.download_state.emit("paused" if isinstance(exc, CancelledError) else "failed")
        if isinstance(exc, CancelledError):
            self._say(describe_error(exc))
        else:
            self._fail(exc)
        self.models_changed.emit()

    def install(self, path: str) -> None:
        from ..core.embed import install_model

        self._job(
            lambda cancel, progress: install_model(path, make_active=True),
            self.tr("Installing a model"),
            self._installed,
        )

    def _installed(self, info) -> None:
        self._say(self.tr("Installed {model}.").format(model=describe_model(info)))
        self.models_changed.emit()
        self.reload_search()

    def use(self, name: str) -> None:
        """Make ``name`` active once it has embedded a test sentence here."""
        from ..core.embed import load_embedder, model_info, use_model
        from ..core.errors import ModelError

        def job(cancel, progress):
            info = model_info(name)
            try:
                embedder = load_embedder(info.folder)
                embedder.embed(["记忆台 MemDesk"], query=True)
                embedder.unload()
            except Exception as exc:  # noqa: BLE001 - onnxruntime's own errors: the model is broken
                raise ModelError(f"model {name!r} cannot be used: {str(exc)[:300]}", "broken") from exc
            return use_model(name)

        self._job(job, self.tr("Switching the model"), self._switched)

    def _switched(self, info) -> None:
        self._say(self.tr("{name} is now the active model.").format(name=info.name))
        self.models_changed.emit()
        self.reload_search()

    def remove(self, name: str) -> None:
        from ..core.embed import remove_model

        self._job(
            lambda cancel, progress: remove_model(name),
            self.tr("Removing a model"),
            lambda was_active: self._removed(name, was_active),
        )

    def _removed(self, name: str, was_active: bool) -> None:
        self._say(self.tr("Removed {name}.").format(name=name))
        self.models_changed.emit()
        if was_active:
            self.reload_search()

    def _job(self, fn, label: str, on_done) -> None:
        if self.job_task is not None:
            return

        def done(result):
            self.job_task = None
            self.busy_changed.emit(False)
            on_done(result)

        def failed(exc):
            self.job_task = None
            self.busy_changed.emit(False)
            self._fail(exc)

        self.job_task = self.session.taskman.run(
            fn, label=label, lane="work", on_done=done, on_failed=failed, cancellable=False
        )
        self.busy_changed.emit(True)

    def _say(self, text: str) -> None:
        self.last_message = text
        self.message.emit(text)

    def _fail(self, exc) -> None:
        text = describe_error(exc)
        self._say(text)
        self.failed.emit(text)
        self.window.ask.inform(self.window, self.tr("Embedding model"), text)

    # ---- the search engine follows the active model --------------------------------------------
    def reload_search(self) -> None:
        """Reopen the search engine with the active model, then embed what has no vector yet.

        Runs on the search lane, so searches queue behind it and keep working
        (keyword-only for memories without a vector) while the embedding job runs.
        """
        browser = self.window.browser
        backend = browser.backend

        def reopen(cancel, progress):
            backend.engine = None  # the search lane is the only one that opens it after start-up
            backend.open_engine()
            return backend.stale_vectors()

        def reopened(stale: int) -> None:
            self.embedding = stale > 0
            self._search_state()
            browser.build_index()  # warm-up, then the embedding job for the stale memories

        self.session.taskman.run(
            reopen, label=self.tr("Loading the model"), lane="search", on_done=reopened, on_failed=self.session.report
        )

    def _embedded(self) -> None:
        self.embedding = False
        self._search_state()
        self.models_changed.emit()

    @property
    def search_state_text(self) -> str:
        return (
            self.tr("Search is keyword-only until the memories are embedded with the new model…")
            if self.embedding
            else ""
        )

    def _search_state(self) -> None:
        self.search_state.emit(self.search_state_text)


class ModelManager(QWidget):
    """The Settings dialog's Model tab."""

    def __init__(self, controller: ModelController, ask, parent=None):
        super().__init__(parent)
        self.setObjectName("modelManager")
        self.controller, self.ask = controller, ask
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "The embedding model lets search find memories by meaning, not only by their "
                "words (咖啡 for “coffee”). It runs on this computer."
            ),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.active_label = QLabel(self)
        self.active_label.setObjectName("activeModel")
        self.active_label.setWordWrap(True)
        form.addRow(self.tr("Active model"), self.active_label)
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

        box = QGroupBox(self.tr("Download {name} (about 95 MB)").format(name=DEFAULT_MODEL), self)
        grid = QFormLayout(box)
        self.hub = QComboBox(box)
        self.hub.setObjectName("hubChoice")
        self.hub.addItem(self.tr("Hugging Face (huggingface.co)"), "hf")
        env = environment_hub()
        if env:
            self.hub.addItem(self.tr("From {variable}: {url}").format(variable=env[0], url=env[1]), "env")
        self.hub.addItem(self.tr("A mirror:"), "mirror")
        self.hub_url = QLineEdit(box)
        self.hub_url.setObjectName("hubUrl")
        self.hub_url.setPlaceholderText(MIRROR_EXAMPLE)
        kind, url = controller.hub_choice()
        self.hub.setCurrentIndex(max(0, self.hub.findData(kind)))
        self.hub_url.setText(url)
        hub_row = QHBoxLayout()
        hub_row.addWidget(self.hub)
        hub_row.addWidget(self.hub_url, 1)
        grid.addRow(self.tr("From"), hub_row)
        self.progress = QProgressBar(box)
        self.progress.setObjectName("downloadProgress")
        self.progress.setFormat("%p%")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.download_button = QPushButton(self.tr("Download"), box)
        self.download_button.setObjectName("downloadModel")
        self.cancel_button = QPushButton(self.tr("Cancel"), box)
        self.cancel_button.setObjectName("cancelDownload")
        dl_row = QHBoxLayout()
        dl_row.addWidget(self.progress, 1)
        dl_row.addWidget(self.download_button)
        dl_row.addWidget(self.cancel_button)
        grid.addRow(dl_row)
        hint = QLabel(
            self.tr(
                "In mainland China huggingface.co is often unreachable: pick a mirror such as {mirror}, "
                "or set HF_ENDPOINT before starting MemDesk. A stopped download resumes where it "
                "stopped."
            ).format(mirror=MIRROR_EXAMPLE),
            box,
        )
        hint.setWordWrap(True)
        grid.addRow(hint)
        layout.addWidget(box)
        self.status = QLabel(controller.last_message, self)
        self.status.setObjectName("modelStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)

        self.use_button.clicked.connect(self._use)
        self.remove_button.clicked.connect(self._remove)
        self.folder_button.clicked.connect(self._install_folder)
        self.zip_button.clicked.connect(self._install_zip)
        self.download_button.clicked.connect(self._download)
        self.cancel_button.clicked.connect(controller.cancel_download)
        self.hub.currentIndexChanged.connect(self._hub_changed)
        self.models.currentItemChanged.connect(lambda *_: self._update_buttons())
        controller.models_changed.connect(self.refresh)
        controller.download_progress.connect(self._progress)
        controller.download_state.connect(lambda _state: self._update_buttons())
        controller.busy_changed.connect(lambda _busy: self._update_buttons())
        controller.message.connect(self.status.setText)
        self._hub_changed()
        self.refresh()

    def refresh(self) -> None:
        from ..core.embed import list_models

        current = self.selected_name()
        self.models.clear()
        active = None
        for info in list_models():
            text = describe_model(info) + ("  ✓" if info.active else "")
            item = QListWidgetItem(text)
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
            describe_model(active)
            if active
            else self.tr("None: search uses keywords only. Download {name} below, or install a model you have.").format(
                name=DEFAULT_MODEL
            )
        )
        self._update_buttons()

    def selected_name(self) -> str | None:
        item = self.models.currentItem()
        return item.data(NAME_ROLE) if item is not None else None

    def _update_buttons(self) -> None:
        c = self.controller
        busy = c.job_task is not None
        self.use_button.setEnabled(self.selected_name() is not None and not busy)
        self.remove_button.setEnabled(self.selected_name() is not None and not busy)
        self.folder_button.setEnabled(not busy)
        self.zip_button.setEnabled(not busy)
        self.download_button.setEnabled(not c.downloading)
        self.cancel_button.setEnabled(c.downloading)
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
