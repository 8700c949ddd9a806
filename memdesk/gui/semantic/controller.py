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
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from .hub import hub_choice, hub_for, set_hub_choice
from .wording import describe_error, describe_model

DEFAULT_MODEL = "bge-small-zh-v1.5"


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

    # ---- jobs -----------------------------------------------------------------------------------
    @property
    def downloading(self) -> bool:
        return self.download_task is not None

    def download(self, kind: str | None = None, url: str | None = None) -> None:
        """Download the default model from the chosen hub (resuming an earlier, paused one)."""
        from memdesk.core.domain.errors import MemDeskError
        from memdesk.core.embed import download_model

        if self.download_task is not None:
            return
        if kind is None:
            kind, url = hub_choice()
        try:
            hub = hub_for(kind, url or "")
        except MemDeskError as exc:
            self._fail(exc)
            return
        set_hub_choice(kind, url or "")

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
        from memdesk.core.domain.errors import CancelledError

        self.download_task = None
        self.download_state.emit("paused" if isinstance(exc, CancelledError) else "failed")
        if isinstance(exc, CancelledError):
            self._say(describe_error(exc))
        else:
            self._fail(exc)
        self.models_changed.emit()

    def install(self, path: str) -> None:
        from memdesk.core.embed import install_model

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
        from memdesk.core.domain.errors import ModelError
        from memdesk.core.embed import load_embedder, model_info, use_model

        def job(cancel, progress):
            info = model_info(name)
            try:
                embedder = load_embedder(info.folder)
                embedder.embed(["记忆台 MemDesk"], query=True)
                embedder.unload()
            except Exception as exc:  # noqa: BLE001 - onnxruntime's own errors: the model is broken
                raise ModelError(kind="broken", code="model_fails_here", model=name, detail=str(exc)[:300]) from exc
            return use_model(name)

        self._job(job, self.tr("Switching the model"), self._switched)

    def _switched(self, info) -> None:
        self._say(self.tr("{name} is now the active model.").format(name=info.name))
        self.models_changed.emit()
        self.reload_search()

    def remove(self, name: str) -> None:
        from memdesk.core.embed import remove_model

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
