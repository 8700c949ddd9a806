"""Settings → Model: download through the loopback hub (progress, cancel, resume), HF_ENDPOINT,
failures that keep the old model active, and a switch that re-embeds in the background."""

from __future__ import annotations

import importlib.util
import threading
import zipfile
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("onnx")

from memdesk.core.embed import HUB_MODELS, active_name, install_model, list_models  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "embed_kit", Path(__file__).resolve().parents[1] / "core" / "embed" / "conftest.py"
)
kit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kit)

BGE = HUB_MODELS["bge-small-zh-v1.5"]
GATE_AFTER = 1_100_000  # bytes of model.onnx sent before the gated server waits


class _GatedWriter:
    """Passes the first ``after`` bytes, then waits for ``gate`` before the rest."""

    def __init__(self, raw, after, gate):
        self.raw, self.left, self.gate = raw, after, gate

    def write(self, data):
        if self.left is not None and len(data) > self.left:
            self.raw.write(data[: self.left])
            self.raw.flush()
            self.gate.wait(20)
            data, self.left = data[self.left :], None
        elif self.left is not None:
            self.left -= len(data)
        return self.raw.write(data)

    def __getattr__(self, name):
        return getattr(self.raw, name)


@pytest.fixture
def models_root(tmp_path, monkeypatch):
    root = tmp_path / "models"
    monkeypatch.setenv("MEMDESK_MODELS_DIR", str(root))
    return root


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """The embed tests' loopback hub serving a bge-shaped tiny model (5 MB: several 1 MB chunks)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    state = kit.FakeHub()
    folder = kit.make_folder(tmp_path / "bge-src", hidden=512)
    graph = onnx.load(str(folder / "model.onnx"))  # pad it with an unused weight: a download of several chunks
    graph.graph.initializer.append(numpy_helper.from_array(np.ones((1000, 1000), np.float32), "padding"))
    onnx.save(graph, str(folder / "model.onnx"))
    state.repos[BGE.repo] = {
        BGE.files["model.onnx"]: (folder / "model.onnx").read_bytes(),
        BGE.files["tokenizer.json"]: (folder / "tokenizer.json").read_bytes(),
    }
    state.lfs.add(BGE.files["model.onnx"])
    state.gate = None  # a threading.Event: hold model.onnx after GATE_AFTER bytes until set
    base = kit.handler_for(state)

    class Handler(base):
        def do_GET(self):
            if state.gate is not None and self.path.endswith("/onnx/model.onnx") and "Range" not in self.headers:
                self.wfile = _GatedWriter(self.wfile, GATE_AFTER, state.gate)
            return super().do_GET()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    monkeypatch.setenv("MEMDESK_HUB_URL", state.url)
    yield state
    if state.gate is not None:
        state.gate.set()
    server.shutdown()
    server.server_close()


def model_tab(window, qtbot):
    window.open_settings("model")
    dialog = window.settings_dialog
    qtbot.waitExposed(dialog)
    return dialog, dialog.model_manager


def onnx_requests(hub):
    return [r for r in hub.requests if r[0].endswith("/onnx/model.onnx")]


def install_old(tmp_path, name="old"):
    folder = kit.make_folder(tmp_path / "src" / name, seed=3)
    (folder / "memdesk-model.json").write_text(f'{{"name": "{name}", "dimension": 16, "pooling": "mean"}}')
    return install_model(folder, make_active=True)


def test_download_shows_progress_and_resumes_after_cancel(launch, db_path, qtbot, hub, models_root, asker):
    window = launch(db_path)
    dialog, tab = model_tab(window, qtbot)
    assert tab.hub.currentData() == "env" and hub.url in tab.hub.currentText()  # $MEMDESK_HUB_URL still works
    hub.gate = threading.Event()
    assert not tab.progress.isVisibleTo(tab)  # no idle 0 % bar
    qtbot.mouseClick(tab.download_button, __import__("PySide6.QtCore", fromlist=["Qt"]).Qt.MouseButton.LeftButton)
    assert not tab.download_button.isEnabled() and tab.cancel_button.isEnabled()
    assert tab.progress.isVisibleTo(tab)
    qtbot.waitUntil(lambda: tab.progress.value() > 0, timeout=10000)  # the first chunk arrived
    assert tab.progress.value() < tab.progress.maximum()
    assert any(t.label.startswith("Downloading") for t in window.session.taskman.tasks())  # on the task manager
    tab.cancel_button.click()
    hub.gate.set()
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=10000)
    assert "Paused" in tab.status.text() and list_models() == [] and active_name() is None
    assert not asker.informed  # a pause is not an error
    parts = list((models_root / ".downloads").rglob("model.onnx.part"))
    assert len(parts) == 1 and 0 < parts[0].stat().st_size < len(hub.repos[BGE.repo][BGE.files["model.onnx"]])
    kept = parts[0].stat().st_size

    hub.gate = None
    tab.download_button.click()
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=20000)
    assert active_name() == "bge-small-zh-v1.5", tab.status.text()
    first, second = onnx_requests(hub)
    assert first[1] is None and second[1] == f"bytes={kept}-"  # resumed, not started over
    assert tab.progress.value() == tab.progress.maximum() and not tab.progress.isVisibleTo(tab)
    assert tab.active_label.text().startswith("On, with bge-small-zh-v1.5 (")  # the details in its tooltip
    assert tab.active_label.toolTip().startswith("bge-small-zh-v1.5 · 512 dimensions · cls pooling")
    assert "fp32" in tab.active_label.toolTip()
    dialog.reject()


def test_hf_endpoint_is_the_default_hub(launch, db_path, qtbot, hub, models_root, monkeypatch):
    monkeypatch.delenv("MEMDESK_HUB_URL")
    monkeypatch.setenv("HF_ENDPOINT", hub.url + "/")
    window = launch(db_path)
    dialog, tab = model_tab(window, qtbot)
    assert tab.hub.currentData() == "env" and "HF_ENDPOINT" in tab.hub.currentText()
    tab.download_button.click()
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=20000)
    assert active_name() == "bge-small-zh-v1.5", tab.status.text()
    assert hub.requests and list_models()[0].config.source.startswith(hub.url)
    dialog.reject()


def test_a_typed_mirror_is_used_and_remembered(launch, db_path, qtbot, hub, models_root, monkeypatch, type_text):
    monkeypatch.delenv("MEMDESK_HUB_URL")
    window = launch(db_path)
    dialog, tab = model_tab(window, qtbot)
    assert tab.hub.currentData() == "hf" and tab.hub.findData("env") == -1
    tab.hub.setCurrentIndex(tab.hub.findData("mirror"))
    assert tab.hub_url.isEnabled()
    type_text(tab.hub_url, hub.url)
    tab.download_button.click()
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=20000)
    assert active_name() == "bge-small-zh-v1.5" and hub.requests
    dialog.reject()
    dialog, tab = model_tab(window, qtbot)
    assert tab.hub.currentData() == "mirror" and tab.hub_url.text() == hub.url
    dialog.reject()


def test_failures_leave_the_old_model_active(launch, db_path, qtbot, hub, models_root, asker, tmp_path):
    install_old(tmp_path)
    window = launch(db_path)
    dialog, tab = model_tab(window, qtbot)
    assert tab.active_label.toolTip().startswith("old · 16 dimensions")

    hub.wrong_sha256.add(BGE.files["model.onnx"])  # checksum mismatch
    tab.download_button.click()
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=20000)
    assert "does not match its checksum" in asker.informed[-1]
    assert "The active model was not changed." in asker.informed[-1]
    assert active_name() == "old" and [m.name for m in list_models()] == ["old"]

    tab.hub.setCurrentIndex(tab.hub.findData("mirror"))  # no network there
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        tab.hub_url.setText(f"http://127.0.0.1:{s.getsockname()[1]}")
    tab.download_button.click()
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=20000)
    assert "Cannot reach the model hub" in asker.informed[-1] and active_name() == "old"

    tab.hub_url.setText("hf-mirror")  # not an address
    tab.download_button.click()
    assert "refused" in asker.informed[-1] and not window.models.downloading

    junk = tmp_path / "notes.zip"
    with zipfile.ZipFile(junk, "w") as zf:
        zf.writestr("readme.txt", "not a model")
    asker.files.append(str(junk))
    tab.zip_button.click()
    qtbot.waitUntil(lambda: window.models.job_task is None, timeout=20000)
    assert "This is not a model" in asker.informed[-1] and active_name() == "old"
    assert tab.active_label.text().startswith("On, with old (")
    dialog.reject()


def test_chinese_messages(launch, db_path, qtbot, hub, models_root, asker, tmp_path, isolated_qsettings):
    from PySide6.QtCore import QSettings

    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", "zh_CN"
    )
    install_old(tmp_path)
    window = launch(db_path)
    dialog, tab = model_tab(window, qtbot)
    hub.wrong_sha256.add(BGE.files["model.onnx"])
    tab.download_button.click()
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=20000)
    assert "校验" in asker.informed[-1] and "当前模型未改变" in asker.informed[-1]
    assert tab.download_button.text() == "下载" and active_name() == "old"
    dialog.reject()


def test_switch_reembeds_in_the_background_and_search_keeps_working(
    launch, db_path, qtbot, models_root, tmp_path, store
):
    for i in range(40):
        store.add(content=f"我喜欢喝咖啡 {i}" if i % 2 else f"明天开会 {i}")
    install_old(tmp_path)
    folder = kit.make_folder(tmp_path / "src" / "new", seed=9)
    (folder / "memdesk-model.json").write_text('{"name": "new", "dimension": 16, "pooling": "cls"}')
    install_model(folder, make_active=False)
    window = launch(db_path, wait_index=True)
    qtbot.waitUntil(lambda: not window.session.taskman.lane_busy("work"), timeout=20000)
    old_engine = window.browser.backend.engine
    assert old_engine.embedder.model_id.startswith("old/")
    states = []
    window.models.search_state.connect(states.append)
    dialog, tab = model_tab(window, qtbot)
    tab.models.setCurrentRow([tab.models.item(i).data(256) for i in range(tab.models.count())].index("new"))
    with qtbot.waitSignal(window.browser.embedded, timeout=30000):
        tab.use_button.click()
    assert active_name() == "new"
    engine = window.browser.backend.engine
    assert engine is not old_engine and engine.embedder.model_id.startswith("new/")
    assert not store.stale_vector_ids(engine.embedder.model_id)
    assert states[0].startswith("Search is keyword-only") and states[-1] == ""
    assert not window.search_notice.isVisible()
    assert tab.active_label.toolTip().startswith("new · 16 dimensions · cls pooling")
    window.search_bar.set_text("咖啡")
    qtbot.waitUntil(lambda: window.browser.table.model.rowCount() > 0, timeout=10000)
    dialog.reject()


def test_at_start_the_memories_without_a_vector_are_found_and_embedded_off_the_ui_thread(
    launch, db_path, qtbot, models_root, tmp_path, store, monkeypatch
):
    # Finding them reads every memory's text (0.7 s at 100k memories); the window asked on
    # its UI thread once the index was built, and froze for ~1.8 s after every start with a model.
    from memdesk.core.search import SearchEngine
    from memdesk.core.store import Store

    for i in range(30):
        store.add(content=f"我喜欢喝咖啡 {i}" if i % 2 else f"明天开会 {i}")
    install_old(tmp_path)
    asked_on_ui_thread = []
    real = Store.stale_vector_ids

    def watched(self, model):
        asked_on_ui_thread.append(threading.current_thread() is threading.main_thread())
        return real(self, model)

    monkeypatch.setattr(Store, "stale_vector_ids", watched)
    reloads = []
    real_reload = SearchEngine.reload_vectors
    monkeypatch.setattr(SearchEngine, "reload_vectors", lambda self: reloads.append(1) or real_reload(self))
    window = launch(db_path)
    qtbot.waitUntil(lambda: window.browser.backend.engine is not None, timeout=20000)
    model_id = window.browser.backend.engine.embedder.model_id
    qtbot.waitUntil(lambda: not real(store, model_id), timeout=30000)
    qtbot.waitUntil(lambda: not window.session.taskman.lane_busy("work"), timeout=20000)
    assert asked_on_ui_thread == [False]  # once, by the embedding job (it was asked twice: +0.5 s at 100k)
    assert reloads == [1]
    assert window.browser.backend.embed() == 0 and reloads == [1]  # nothing stale: no re-read (~1 s at 100k)
    window.search_bar.set_text("咖啡")
    qtbot.waitUntil(lambda: window.browser.table.model.rowCount() > 0, timeout=10000)


@pytest.fixture
def fresh_offer():
    from memdesk.gui import prefs
    from memdesk.gui.semantic.offer import DECLINED_KEY, PENDING_KEY

    def clear():
        for key in (DECLINED_KEY, PENDING_KEY):
            prefs.settings().remove(key)

    clear()
    yield
    clear()


def load_examples(window, qtbot):
    with qtbot.waitSignal(window.importer.imported, timeout=20000):
        window.examples_banner.yes_button.click()


def test_first_start_offers_semantic_search_until_taken(launch, tmp_path, qtbot, hub, models_root, fresh_offer):
    path = tmp_path / "first.db"
    window = launch(path)
    assert not window.semantic_offer.isVisible()  # not before the examples
    load_examples(window, qtbot)
    assert window.semantic_offer.isVisible()
    window.semantic_offer.later_button.click()
    assert not window.semantic_offer.isVisible()
    again = launch(path)
    qtbot.waitUntil(lambda: again.semantic_offer.isVisible(), timeout=5000)  # "not now" is not "never"
    assert not launch(tmp_path / "other.db").semantic_offer.isVisible()  # offered where the examples are

    again.semantic_offer.download_button.click()
    assert not again.semantic_offer.isVisible()
    qtbot.waitUntil(lambda: not again.models.downloading, timeout=20000)
    assert active_name() == "bge-small-zh-v1.5"
    third = launch(path)
    qtbot.wait(200)
    assert not third.semantic_offer.isVisible()


def test_semantic_search_offer_dismissed_for_good(launch, tmp_path, qtbot, models_root, fresh_offer):
    path = tmp_path / "first.db"
    window = launch(path)
    load_examples(window, qtbot)
    assert window.semantic_offer.isVisible() and active_name() is None
    window.semantic_offer.never_button.click()
    assert not window.semantic_offer.isVisible()
    again = launch(path)
    qtbot.wait(200)
    assert not again.semantic_offer.isVisible() and active_name() is None


def test_semantic_search_offer_opens_the_model_tab(launch, tmp_path, qtbot, models_root, fresh_offer):
    path = tmp_path / "first.db"
    window = launch(path)
    load_examples(window, qtbot)
    window.semantic_offer.set_up_button.click()
    dialog = window.settings_dialog
    qtbot.waitExposed(dialog)
    assert dialog.tabs.currentWidget() is dialog.model_manager
    dialog.reject()


def test_download_after_settings_was_closed_and_opened_again(launch, db_path, qtbot, hub, models_root):
    """The closed dialog's tab must not still listen to the controller, which outlives it."""
    from PySide6.QtCore import QCoreApplication, QEvent

    window = launch(db_path)
    dialog, _tab = model_tab(window, qtbot)
    dialog.reject()
    with qtbot.waitSignal(dialog.destroyed, timeout=5000):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    dialog, tab = model_tab(window, qtbot)
    tab.download_button.click()  # the closed tab's slots would run here, on its deleted widgets
    qtbot.waitUntil(lambda: not window.models.downloading, timeout=20000)
    assert tab.progress.value() == tab.progress.maximum() and tab.download_button.isEnabled()
    dialog.reject()
