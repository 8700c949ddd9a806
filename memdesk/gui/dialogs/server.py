"""File → Open server database: a PostgreSQL URL; and the password field the server may ask for.

The URL box takes what `memdesk --db` and MEMDESK_DB take (postgresql://user@host:5432/db,
with ?sslmode=require and other libpq parameters). The password dialog is shown only when
the server wants one that libpq's own sources (PGPASSWORD, ~/.pgpass, a service file) did
not give; its "remember" box is disabled, with the reason as its tooltip, when there is no
usable system keyring (app/credentials.py).
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
)

from memdesk.core.storage.location import is_url

EXAMPLE = "postgresql://user@host:5432/memdesk?sslmode=require"


class ServerDialog(QDialog):
    def __init__(self, parent=None, url: str = ""):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Open server database"))
        self.url = QLineEdit(url, self)
        self.url.setObjectName("serverUrl")
        self.url.setPlaceholderText(EXAMPLE)
        self.url.setMinimumWidth(420)
        help_text = QLabel(
            self.tr(
                "A PostgreSQL database, as a URL. Add ?sslmode=require for a server on another machine. "
                "A password is taken from PGPASSWORD, ~/.pgpass or a service file; if the server still "
                "asks for one, MemDesk asks you."
            ),
            self,
        )
        help_text.setWordWrap(True)
        self.problem = QLabel(self)
        self.problem.setObjectName("serverProblem")
        self.problem.setStyleSheet("color: #b00020;")
        self.problem.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._check)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Server URL:"), self))
        layout.addWidget(self.url)
        layout.addWidget(help_text)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)

    def _check(self) -> None:
        if not is_url(self.url.text()):
            self.problem.setText(self.tr("Write it as postgresql://user@host:port/database"))
            self.problem.show()
            return
        self.accept()

    def value(self) -> str:
        return self.url.text().strip()


class PasswordDialog(QDialog):
    def __init__(self, parent, where: str, problem: str = "", *, can_remember: bool, why_not: str = ""):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Password"))
        text = QLabel(self.tr("The server asks for a password for {where}.").format(where=where), self)
        text.setWordWrap(True)
        self.problem = QLabel(problem, self)
        self.problem.setObjectName("passwordProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020;")
        self.problem.setVisible(bool(problem))
        self.password = QLineEdit(self)
        self.password.setObjectName("passwordField")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.remember = QCheckBox(self.tr("Remember it in the system keyring"), self)
        self.remember.setObjectName("rememberPassword")
        self.remember.setEnabled(can_remember)
        if not can_remember:
            self.remember.setToolTip(
                self.tr("No system keyring here ({reason}): the password is kept only while MemDesk runs.").format(
                    reason=why_not or self.tr("not available")
                )
            )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(self.tr("Password:"), self.password)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.problem)
        layout.addLayout(form)
        layout.addWidget(self.remember)
        layout.addWidget(buttons)

    def value(self) -> tuple[str, bool]:
        return self.password.text(), self.remember.isChecked()
