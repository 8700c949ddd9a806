"""Small questions to the user, behind one object the window is given.

Every yes/no, pick-one, enter-a-name, colour or file question goes through
an Asker, so tests can answer them with a scripted Asker instead of driving
a blocking QMessageBox.exec().
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QColorDialog, QFileDialog, QInputDialog, QMessageBox

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


class Asker:
    def choose(self, parent, title: str, text: str, options: list[tuple[str, str]], **how) -> str | None:
        """One of the option keys (or ``cancel``'s key / None when dismissed); ``how`` is
        question_box's default, cancel, detail and warning."""
        box, buttons = self.question_box(parent, title, text, options, **how)
        box.exec()
        return buttons.get(box.clickedButton(), how.get("cancel"))

    @staticmethod
    def question_box(
        parent,
        title: str,
        text: str,
        options: list[tuple[str, str]],
        *,
        default: str | None = None,
        cancel: str | None = None,
        detail: str = "",
        warning: bool = False,
    ) -> tuple[QMessageBox, dict]:
        """The message box choose() runs, not yet shown: (box, {button: key})."""
        box = QMessageBox(parent)
        box.setWindowTitle(title)
        box.setText(text)
        # A question that cannot be taken back says so with the warning sign, not just in words.
        box.setIcon(QMessageBox.Icon.Warning if warning else QMessageBox.Icon.Question)
        if detail:
            box.setInformativeText(detail)
        # Wide enough that a Chinese sentence is not broken after two or three characters.
        box.setStyleSheet("QLabel#qt_msgbox_label, QLabel#qt_msgbox_informativelabel { min-width: 22em; }")
        buttons = {}
        for key, label in options:
            role = QMessageBox.ButtonRole.RejectRole if key == cancel else QMessageBox.ButtonRole.AcceptRole
            buttons[box.addButton(label, role)] = key
            if key == default:
                box.setDefaultButton(list(buttons)[-1])
        return box, buttons

    def confirm(self, parent, title: str, text: str, *, yes: str, detail: str = "", warning: bool = False) -> bool:
        return (
            self.choose(
                parent,
                title,
                text,
                [("yes", yes), ("no", translate("Asker", "Cancel"))],
                default="no",
                cancel="no",
                detail=detail,
                warning=warning,
            )
            == "yes"
        )

    def text(self, parent, title: str, label: str, default: str = "", *, suggestions=()) -> str | None:
        if suggestions:
            items = list(dict.fromkeys([default, *suggestions]))
            value, ok = QInputDialog.getItem(parent, title, label, items, 0, True)
        else:
            value, ok = QInputDialog.getText(parent, title, label, text=default)
        return value if ok else None

    def colour(self, parent, initial: str = "") -> str | None:
        colour = QColorDialog.getColor(QColor(initial or "#3a7bd5"), parent, translate("Asker", "Persona colour"))
        return colour.name() if colour.isValid() else None

    def open_file(self, parent, title: str, filters: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(parent, title, "", filters)
        return path or None

    def open_folder(self, parent, title: str) -> str | None:
        path = QFileDialog.getExistingDirectory(parent, title)
        return path or None

    def save_file(self, parent, title: str, filters: str) -> str | None:
        path, _ = QFileDialog.getSaveFileName(parent, title, "", filters)
        return path or None

    def server_url(self, parent) -> str | None:
        """A postgresql:// URL for File → Open server database, or None."""
        from .server import ServerDialog

        dialog = ServerDialog(parent)
        return dialog.value() if dialog.exec() == ServerDialog.DialogCode.Accepted else None

    def password(self, parent, where: str, problem: str, *, can_remember: bool, why_not: str = ""):
        """(password, remember) for the server at ``where`` (redacted), or None."""
        from .server import PasswordDialog

        dialog = PasswordDialog(parent, where, problem, can_remember=can_remember, why_not=why_not)
        return dialog.value() if dialog.exec() == PasswordDialog.DialogCode.Accepted else None

    def inform(self, parent, title: str, text: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
        box.open()  # never blocks: the window stays usable behind it
