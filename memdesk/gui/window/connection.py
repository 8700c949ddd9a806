"""The status bar's "reconnecting…" for a PostgreSQL store whose server went away ("database
gone" when the database itself was dropped on the server: waiting will not bring it back).

The core notices (core/storage/reconnect.py: a read on a dropped connection waits and retries) and
tells the session (Session.connection_changed, queued onto the UI thread). While the server
is away the label stays; the window keeps working on what it shows, the editor keeps an
unsaved edit (a save that fails says so and leaves the text), and the change-feed poll
keeps trying: the first call that gets through again hides the label, and the feed brings
in whatever changed meanwhile.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel


class ConnectionLabel(QLabel):
    def __init__(self, session, window):
        super().__init__(window)
        self.setObjectName("connectionLabel")
        self.setContentsMargins(10, 0, 10, 0)
        self.setStyleSheet("color: #b26a00;")
        self.window_ = window
        self.hide()
        window.statusBar().insertPermanentWidget(0, self)
        self._gone = False  # the database itself was dropped: no "reconnecting…" will bring it back
        session.connection_changed.connect(self._changed)
        session.database_dropped.connect(self._dropped)
        if session.store.connection_lost:
            self._changed(False)

    def _dropped(self) -> None:
        self._gone = True
        self.setText(self.tr("Database gone"))
        self.setToolTip(self.tr("The database no longer exists on the server: nothing more can be saved to it."))
        self.show()

    def _changed(self, connected: bool) -> None:
        if not connected and self._gone:
            return
        if connected:
            self._gone = False
            if self.isVisible():
                self.window_.statusBar().showMessage(self.tr("Connected to the server again"), 5000)
            self.hide()
            return
        self.setText(self.tr("Reconnecting…"))
        self.setToolTip(
            self.tr("The connection to the database server was lost. MemDesk keeps trying; unsaved edits stay open.")
        )
        self.show()
