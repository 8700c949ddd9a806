"""GUI test fixtures: isolated QSettings, a scripted Asker, the real window on a real SQLite file."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QInputMethodEvent
from PySide6.QtWidgets import QApplication

from memdesk.gui.dialogs.ask import Asker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def isolated_qsettings(tmp_path_factory):
    """Window layout and language go to a fresh folder, never the user's settings."""
    folder = tmp_path_factory.mktemp("qsettings")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    settings = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk")
    settings.setValue("ui/language", "en")
    settings.sync()
    yield folder


class ScriptedAsker(Asker):
    """Answers the window's questions from lists the test fills; records what was asked."""

    def __init__(self):
        self.choices: list[str] = []
        self.texts: list[str | None] = []
        self.colours: list[str | None] = []
        self.files: list[str | None] = []
        self.asked: list[str] = []
        self.informed: list[str] = []
        self.warned: list[str] = []  # questions asked with the warning sign
        self.urls: list[str | None] = []  # File → Open server database
        self.passwords: list[tuple[str, bool] | None] = []  # (password, remember) per server prompt
        self.password_prompts: list[tuple[str, str, bool]] = []  # (where, problem, can_remember)

    def choose(self, parent, title, text, options, *, default=None, cancel=None, detail="", warning=False):
        self.asked.append(text)
        if warning:
            self.warned.append(text)
        assert self.choices, f"unexpected question: {text}"
        answer = self.choices.pop(0)
        assert answer in [key for key, _ in options], (answer, options)
        return answer

    def text(self, parent, title, label, default="", *, suggestions=()):
        self.asked.append(label)
        assert self.texts, f"unexpected question: {label}"
        return self.texts.pop(0)

    def colour(self, parent, initial=""):
        self.asked.append("colour")
        return self.colours.pop(0)

    def open_file(self, parent, title, filters):
        self.asked.append(title)
        return self.files.pop(0)

    def open_folder(self, parent, title):
        self.asked.append(title)
        return self.files.pop(0)

    def save_file(self, parent, title, filters):
        self.asked.append(title)
        return self.files.pop(0)

    def server_url(self, parent):
        self.asked.append("server url")
        return self.urls.pop(0)

    def password(self, parent, where, problem, *, can_remember, why_not=""):
        self.password_prompts.append((where, problem, can_remember))
        assert self.passwords, f"unexpected password question for {where}"
        return self.passwords.pop(0)

    def inform(self, parent, title, text):
        self.informed.append(text)


@pytest.fixture
def asker():
    return ScriptedAsker()


@pytest.fixture
def launch(qtbot, asker):
    """launch(db_path) -> the real MainWindow on that file, its tree loaded."""
    from memdesk.gui.main import App, application

    application()
    apps = []

    def stop(app):
        session = app.session
        if app.window is not None:
            app.window.editor._dirty = False  # no save prompt when the test is over
            app.window.close()
        app.shutdown()  # waits for its threads: the models' shared proxy must not be rebound under them
        assert not session.unexpected_errors, [getattr(e, "__traceback_text__", e) for e in session.unexpected_errors]

    def start(path, *, wait_index=False):
        while apps:  # one window at a time, as the app runs
            stop(apps.pop())
        app = App(ask=asker, maintenance_delay_ms=10**9)
        assert app.open(path, create=True)  # a test's new file, as `memdesk --db PATH --create` makes it
        apps.append(app)
        window = app.window
        window.app_controller = app
        # Writes run on the db lane: wait for them (and undo steps) to land, as a user would see them.
        window.settle = lambda: qtbot.waitUntil(
            lambda: not window.session.writing and not window.session.busy, timeout=20000
        )
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(lambda: not window.browser.tree.building)
        if wait_index:
            qtbot.waitUntil(lambda: window.browser.backend.engine_ready, timeout=20000)
        return window

    yield start
    while apps:
        stop(apps.pop())


@pytest.fixture
def cluster(pg_server):
    """The throwaway PostgreSQL server itself, for a test that changes pg_hba.conf or restarts it."""
    if pg_server.cluster is None:
        pytest.skip("needs the throwaway cluster (the test changes pg_hba.conf or restarts the server)")
    return pg_server.cluster


@pytest.fixture
def other_writer():
    """Change a memory from another process, as an assistant or the CLI would."""

    def write(path, memory_id, purge=False, **fields):
        code = (
            "import json, sys\n"
            "from memdesk.core.store import Store\n"
            "store = Store.open(sys.argv[1])\n"
            "if sys.argv[4] == 'purge':\n"
            "    store.delete([sys.argv[2]]); store.purge([sys.argv[2]])\n"
            "else:\n"
            "    store.update(sys.argv[2], expected_version=None, reason='ai', **json.loads(sys.argv[3]))\n"
            "store.close()\n"
        )
        subprocess.run(
            [sys.executable, "-c", code, str(path), memory_id, json.dumps(fields), "purge" if purge else "update"],
            check=True,
            cwd=str(ROOT),
            timeout=60,
        )

    return write


def _drop(widget, pos, data) -> None:
    """A drag entering, moving over and dropping on ``widget`` at ``pos``, as a mouse drag does."""
    args = (
        Qt.DropAction.MoveAction | Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # PySide marks the QPoint constructors
        events = [QDragEnterEvent(QPoint(pos), *args), QDragMoveEvent(QPoint(pos), *args)]
    events.append(QDropEvent(QPointF(pos), *args))
    for event in events:
        event.ignore()  # Qt hands drag events over unaccepted; the receiver accepts them
        QApplication.sendEvent(widget, event)


@pytest.fixture
def drop():
    return _drop


@pytest.fixture
def open_preview(qtbot, drop):
    """open_preview(window, path) -> the import preview of that file, dropped on the window."""
    from PySide6.QtCore import QMimeData, QUrl

    def open_(window, path):
        data = QMimeData()
        data.setUrls([QUrl.fromLocalFile(str(path))])
        with qtbot.waitSignal(window.importer.preview_opened, timeout=10000) as blocker:
            drop(window, window.rect().center(), data)
        return blocker.args[0]

    return open_


@pytest.fixture
def type_text():
    return _type_text


def _type_text(widget, text: str) -> None:
    """Type text as an input method would (Chinese never goes through keyClicks)."""
    widget.window().activateWindow()
    widget.setFocus()
    focused = QApplication.focusWidget()
    # The focused widget, when focus could land (an inactive window keeps its own focus).
    target = focused if focused is widget or (focused is not None and widget.isAncestorOf(focused)) else widget
    event = QInputMethodEvent()
    event.setCommitString(text)
    QApplication.sendEvent(target, event)
