"""Starting the window: QApplication, language, the database, the main window.

``App`` owns what outlives one window: the open Session (store, task
manager, undo stack). A language switch rebuilds only the window; opening
another database replaces the session too.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from memdesk.core.domain.errors import CancelledError, CorruptDatabaseError, MemDeskError
from memdesk.core.search.language import piece_cache

from . import i18n, icons, prefs
from .dialogs.ask import Asker
from .reasons import error_text

SELF_TEST_TIMEOUT_MS = 20_000
# Background threads run Python too; a shorter GIL switch interval than the 5 ms default
# lets the UI thread back in sooner while a worker is busy.
SWITCH_INTERVAL_S = 0.002
# Garbage collection passes hold the GIL, the UI thread's turn too; see App._new_window.
GC_THRESHOLDS = (10_000, 10, 10)
# Loading a table in pieces (piece_cache) on a worker: a pause that lets the UI thread wake
# and take the GIL between them (a zero sleep hands it back before that thread has woken).
PIECE_PAUSE_S = 0.001


def application(argv=None) -> QApplication:
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    gc.set_threshold(*GC_THRESHOLDS)
    piece_cache.UI_TURN_S = PIECE_PAUSE_S
    app = QApplication.instance()
    if app is None:
        app = QApplication(list(argv if argv is not None else sys.argv[:1]))
    app.setOrganizationName(prefs.ORG)
    app.setApplicationName(prefs.APP)
    app.setApplicationDisplayName("MemDesk")
    app.setDesktopFileName("memdesk")
    app.setWindowIcon(icons.app_icon())
    return app


class App(QObject):
    """The open database and its window."""

    def __init__(self, *, ask: Asker | None = None, maintenance_delay_ms: int = 120_000, passwords=None):
        super().__init__()
        from .app.credentials import Passwords

        self.ask = ask or Asker()
        self.passwords = passwords or Passwords()  # typed server passwords: this process's memory only
        self.maintenance_delay_ms = maintenance_delay_ms
        self.session = None
        self.window = None
        self._replaced = False  # a window was closed for another: no more freezing (_new_window)
        self.language = i18n.install()

    def open(self, db=None, *, create: bool = False) -> bool:
        """Open a database (None: $MEMDESK_DB or the default, as the CLI does) and show its window.
        A file that does not exist is made only with ``create`` or when the user agrees."""
        from memdesk.core.storage.db import default_db_path

        from .app.session import Session

        if not create and not self._may_create(db):
            return False
        try:
            store = self.passwords.open(db or default_db_path(), self.ask, self.window)  # asks for a server's password
        except CancelledError:
            return False  # the user closed the password box: nothing to say
        except CorruptDatabaseError as exc:
            store = self._offer_backup(db, exc)
            if store is None:
                return False
        except MemDeskError as exc:
            if self.window is None and self.session is None:
                QMessageBox.critical(None, "MemDesk", error_text(exc))  # nothing else is on screen to say it
            else:
                self.ask.inform(self.window, "MemDesk", error_text(exc))
            return False
        if self.session is not None:
            self.session.close()
        self.session = Session(store)
        self._new_window()
        return True

    def _may_create(self, db) -> bool:
        """A --db (or MEMDESK_DB, or a recent file) that does not exist: ask before making a new,
        empty store there (a mistyped path must not look like the user's store emptied)."""
        from memdesk.core.domain.errors import NoStoreError
        from memdesk.core.storage.location import require_store

        try:
            require_store(db)
            return True
        except NoStoreError as exc:
            choice = self.ask.choose(
                self.window,
                "MemDesk",
                QApplication.translate("App", "There is no database at {path}.").format(path=exc.path),
                [
                    ("create", QApplication.translate("App", "Create a new, empty database there")),
                    ("cancel", QApplication.translate("App", "Cancel")),
                ],
                default="cancel",
                cancel="cancel",
                detail=QApplication.translate(
                    "App", "If you meant an existing database, check the path: nothing has been created."
                ),
            )
            return choice == "create"

    def _offer_backup(self, db, error):
        """A damaged file: say so plainly and offer the newest backup (the file is kept aside)."""
        from memdesk.core.domain.errors import StoreInUseError
        from memdesk.core.storage.backup import list_backups, restore_backup
        from memdesk.core.storage.db import default_db_path
        from memdesk.core.storage.location import is_url
        from memdesk.core.store import Store

        path = Path(db).expanduser() if db and not is_url(db) else default_db_path()
        backups = [] if is_url(path) else list_backups(path)  # a PostgreSQL store has no file copies
        if not backups:
            self.ask.inform(
                self.window,
                "MemDesk",
                QApplication.translate("App", "{error}\n\nThere is no backup of this file.").format(
                    error=error_text(error)
                ),
            )
            return None
        newest = backups[0]
        choice = self.ask.choose(
            self.window,
            "MemDesk",
            QApplication.translate("App", "The database cannot be opened."),
            [
                (
                    "restore",
                    QApplication.translate("App", "Open the newest backup ({when})").format(
                        when=newest.made_at.astimezone().strftime("%Y-%m-%d %H:%M")
                    ),
                ),
                ("cancel", QApplication.translate("App", "Cancel")),
            ],
            default="restore",
            cancel="cancel",
            detail=QApplication.translate("App", "{error}\n\nThe damaged file is kept beside the backups.").format(
                error=error_text(error)
            ),
        )
        if choice != "restore":
            return None
        try:
            restore_backup(path, newest.path)  # refused while anyone has the file open (core/storage/sole_access.py)
            return Store.open(path)
        except StoreInUseError as exc:
            holders = ", ".join(exc.holders) or QApplication.translate("App", "another program")
            self.ask.inform(
                self.window,
                "MemDesk",
                QApplication.translate(
                    "App", "The backup was not restored: {path} is open in {holders}. Close it there and try again."
                ).format(path=exc.path, holders=holders),
            )
            return None
        except MemDeskError as exc:
            self.ask.inform(self.window, "MemDesk", error_text(exc))
            return None

    def _new_window(self) -> None:
        from .window.connection import ConnectionLabel
        from .window.main_window import MainWindow

        window = MainWindow(self.session, ask=self.ask, maintenance_delay_ms=self.maintenance_delay_ms)
        window.connection_label = ConnectionLabel(self.session, window)
        window.database_requested.connect(self.switch_database)
        window.language_requested.connect(self.switch_language)
        self.window = window
        window.show()
        # With CPython's default thresholds a window opening 100k memories ran 2-3 full passes
        # while its workers built the tree and loaded the index, each walking every object of
        # ~650 modules for 40-60 ms. What exists now (modules, the window) lives as long as the
        # process: frozen, no pass walks it again, and with a larger first threshold none runs
        # before the first full-quality search. A/B, 14 interleaved starts each at 100k
        # (bench/cold_start.py's window child): longest UI gap <= 50 ms in 10 starts against 6,
        # median 46 against 51 ms. Only the first window: _close_window lets it all go again, so
        # a replaced window's objects are collected as usual.
        if not self._replaced:
            gc.freeze()

    def _close_window(self) -> bool:
        """Close the window to rebuild it; the app must not quit with its last window."""
        window = self.window
        if window is None:
            return True
        app = QApplication.instance()
        quits = app.quitOnLastWindowClosed()
        app.setQuitOnLastWindowClosed(False)
        try:
            if not window.close():  # asks about unsaved edits; False = the user stayed
                return False
        finally:
            QTimer.singleShot(0, lambda: app.setQuitOnLastWindowClosed(quits))
        window.deleteLater()
        self.window = None
        self._replaced = True
        gc.unfreeze()
        return True

    def switch_language(self, language: str) -> None:
        if not self._close_window():
            return
        self.language = i18n.install(language or None)
        self._new_window()

    def switch_database(self, path: str, new: bool = False) -> None:
        if new and Path(path).exists():
            self.ask.inform(
                self.window,
                "MemDesk",
                QApplication.translate("App", "{path} already exists; choose “Open database” to use it.").format(
                    path=path
                ),
            )
            return
        if not self._close_window():
            return
        if not self.open(path, create=new):
            self._new_window()  # the previous database is still open

    def shutdown(self) -> None:
        if self.window is not None:
            self.window.save_layout()
        if self.session is not None:
            self.session.close()
            self.session = None
        gc.unfreeze()  # what the window froze may be collected again (a process that goes on: tests)


def _self_test(app_controller: App, qt_app: QApplication) -> None:
    """`memdesk --self-test`: the window opens, loads its tree, then quits (0 = fine)."""
    window = app_controller.window

    def done():
        ok = window.browser.tree.model.rowCount() > 0 and not app_controller.session.unexpected_errors
        qt_app.exit(0 if ok else 1)

    window.browser.tree.loaded.connect(lambda: QTimer.singleShot(200, done))
    QTimer.singleShot(SELF_TEST_TIMEOUT_MS, lambda: qt_app.exit(1))


def main(*, db=None, self_test: bool = False, create: bool = False) -> int:
    qt_app = application()
    controller = App()
    if not controller.open(db, create=create):
        return 1
    if self_test:
        _self_test(controller, qt_app)
    qt_app.aboutToQuit.connect(controller.shutdown)
    return qt_app.exec()
