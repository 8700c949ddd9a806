"""The main window's dialogs: opening each (made once, kept), the review inbox's count, and the
database, settings, syntax and about boxes. A mixin of MainWindow, so that the window's actions,
menus and tests reach them as window methods and attributes.

Strings use translate("MainWindow", ...): PySide looks them up under the window's class name,
and lupdate files them under the context given here.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox

from memdesk import __version__
from memdesk.core.views import queries
from memdesk.gui.dialogs.context_preview import ContextPreviewDialog
from memdesk.gui.dialogs.personas import PersonasDialog
from memdesk.gui.dialogs.review_inbox import ReviewInboxDialog, proposal_count
from memdesk.gui.dialogs.settings import SettingsDialog
from memdesk.gui.dialogs.tool_log import ToolLogDialog

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


class WindowDialogs:
    # ---- dialogs ---------------------------------------------------------------------------------
    def open_personas(self) -> None:
        if self.personas_dialog is None:
            self.personas_dialog = PersonasDialog(self.session, self.ask, self)
        self.personas_dialog.refresh()
        self.personas_dialog.open()

    def open_tool_log(self) -> None:
        if self.tool_log_dialog is None:
            self.tool_log_dialog = ToolLogDialog(self.session, self.ask, self)
        self.tool_log_dialog.refresh()
        self.tool_log_dialog.open()

    def open_review_inbox(self) -> None:
        if self.review_dialog is None:
            self.review_dialog = ReviewInboxDialog(self.session, self.ask, self)
            self.review_dialog.inbox_changed.connect(self.show_review_count)
        self.review_dialog.refresh()
        self.review_dialog.open()

    def update_review_count(self, *_args) -> None:
        """Tools → Review duplicates shows how many proposals wait.

        Counting reads every proposal with its member memories: a work-lane job,
        one at a time (a burst of changes asks once more at the end, not once each).
        """
        if self._review_reading:
            self._review_again = True
            return
        self._review_reading, self._review_again = True, False
        store = self.session.store

        def count(cancel, progress):
            try:
                return proposal_count(store)
            except Exception:  # noqa: BLE001 - a closed database: the count is only a hint
                return None

        self.session.taskman.run(
            count,
            label="",
            lane="work",
            visible=False,
            cancellable=False,
            on_done=self._review_counted,
            on_failed=lambda _exc: self._review_counted(None),
        )

    def _review_counted(self, count) -> None:
        self._review_reading = False
        if count is not None:
            self.show_review_count(count)
        if self._review_again:
            self.update_review_count()

    def _show_waiting(self, waiting: bool) -> None:
        """Another process holds the write lock: our change is queued, the window goes on."""
        self.waiting_label.setText(
            translate(
                "MainWindow", "Waiting for another program to finish writing… your change is saved as soon as it does"
            )
        )
        self.waiting_label.setVisible(waiting)

    def show_review_count(self, count: int) -> None:
        self.review_count = count
        self.acts.review.setText(
            translate("MainWindow", "Review duplicates ({n})…").format(n=count)
            if count
            else translate("MainWindow", "Review duplicates…")
        )

    def open_context_preview(self) -> None:
        if self.context_preview_dialog is None:
            self.context_preview_dialog = ContextPreviewDialog(self.session, lambda: self.browser.backend.engine, self)
            self.context_preview_dialog.set_persona(self.current_persona_id())
        self.context_preview_dialog.update_preview()
        self.context_preview_dialog.open()

    def open_statistics(self) -> None:
        from memdesk.gui.dialogs.statistics import StatisticsDialog  # pyqtgraph loads only when asked for

        if self.statistics_dialog is None:
            self.statistics_dialog = StatisticsDialog(self.session, self)
            self.statistics_dialog.query_requested.connect(self.show_query)
        self.statistics_dialog.fit_to(self)  # the window may have been resized since
        self.statistics_dialog.refresh()
        self.statistics_dialog.open()

    def show_query(self, query: str) -> None:
        """List the memories a query names, over every persona (a bar of the statistics)."""
        self.set_persona(queries.ALL)
        self.search_bar.set_text(query)

    def open_settings(self, tab: str = "") -> None:
        dialog = SettingsDialog(self.session, self.ask, self.models, self, tab=tab)
        dialog.language_changed.connect(self.language_requested)
        dialog.database_requested.connect(self.database_requested)
        dialog.weights_changed.connect(self._weights_changed)
        dialog.maintenance_requested.connect(self.maintenance.run)
        dialog.finished.connect(dialog.deleteLater)
        self.settings_dialog = dialog
        dialog.open()

    def _weights_changed(self, weights: dict) -> None:
        from memdesk.gui.browser.search_backend import stored_weights

        self.browser.backend.set_weights(stored_weights(self.session.store))
        self.browser.search(self.browser.query)

    def pick_database(self, *, new: bool) -> None:
        filters = translate("MainWindow", "MemDesk database (*.db);;All files (*)")
        path = (
            self.ask.save_file(self, translate("MainWindow", "New database"), filters)
            if new
            else self.ask.open_file(self, translate("MainWindow", "Open database"), filters)
        )
        if path:
            self.database_requested.emit(path, new)

    def pick_server(self) -> None:
        url = self.ask.server_url(self)
        if url:
            self.database_requested.emit(url, False)

    def _note(self, title: str, text: str) -> QMessageBox:
        box = QMessageBox(QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not a blocking exec: the window keeps running behind it
        return box

    def show_syntax(self) -> None:
        from memdesk.gui.dialogs.syntax_help import SyntaxHelpDialog

        if self.syntax_dialog is None:
            self.syntax_dialog = SyntaxHelpDialog(self)
            self.syntax_dialog.example_chosen.connect(self.search_bar.set_text)
        self.syntax_dialog.show()  # not modal: the user tries examples with the page open
        self.syntax_dialog.raise_()

    def show_about(self) -> QMessageBox:
        return self._note(
            translate("MainWindow", "About MemDesk"),
            translate(
                "MainWindow",
                "MemDesk {version}\nSee, search, edit and tidy what your AI assistants remember.\nDatabase: {path}",
            ).format(version=__version__, path=self.session.store.location),
        )

    def reload(self) -> None:
        self.browser.tree.reload()
        self.browser.search(self.browser.query)
