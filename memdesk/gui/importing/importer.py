"""Importing a file: plan it (in a child process), preview it, apply it.

Dropped files, File → Import and the first-start examples all come through
here, so examples are imported exactly like any other file. The window's
threads only wait for the child; it never holds the GIL for long.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QLocale, QObject, Signal
from PySide6.QtWidgets import QDialog

from memdesk.core import ops as operations
from memdesk.gui.dialogs.import_preview import ImportPreviewDialog
from memdesk.gui.reasons import error_text
from memdesk.gui.resources_path import resource

from .process import ImportProcess

EXAMPLES = ("examples", "examples_zh.json")


class Importer(QObject):
    imported = Signal(object)  # the operation's Result
    exported = Signal(int, str)  # how many memories, to which file
    preview_opened = Signal(object)  # the ImportPreviewDialog

    def __init__(self, session, window):
        super().__init__(window)
        self.session, self.window = session, window
        self.dialog: ImportPreviewDialog | None = None

    def import_file(self, path, *, preview: bool = True) -> None:
        path, db = str(path), str(self.session.store.connect_target())

        language = QLocale().name()  # names of new personas: "导入的角色 3f2a9c1e" under zh_CN

        def plan(cancel, progress):
            job = ImportProcess(db, path, language)
            return job, job.plan(cancel)

        self.session.taskman.run(
            plan,
            label=self.tr("Reading {file}").format(file=Path(path).name),
            lane="work",
            on_done=lambda result: self._planned(*result, path, preview),
            on_failed=self.session.report,
        )

    def _planned(self, job, plan, path: str, preview: bool) -> None:
        name = Path(path).name
        if not preview:
            self.apply(job, "skip", name)
            return
        dialog = ImportPreviewDialog(plan, path, self.window)
        dialog.import_requested.connect(lambda _plan, how: self.apply(job, how, name, dialog.choices()))
        dialog.mapping_changed.connect(lambda choices: self._replan(job, dialog, choices))
        dialog.finished.connect(lambda result: result == QDialog.DialogCode.Accepted or self._drop(job))
        dialog.finished.connect(dialog.deleteLater)
        self.dialog = dialog
        dialog.open()
        self.preview_opened.emit(dialog)

    def _replan(self, job, dialog, choices) -> None:
        """The user mapped a persona differently: the child plans again, the preview follows."""
        dialog.set_busy(True)

        def failed(error):
            dialog.set_busy(False)
            dialog.show_problem(error_text(error))

        self.session.taskman.run(
            lambda cancel, progress: job.replan(choices, cancel),
            label=self.tr("Reading {file}").format(file=job.file_path.name),
            lane="work",
            on_done=dialog.set_plan,
            on_failed=failed,
        )

    def _drop(self, job) -> None:
        self.session.taskman.run(lambda cancel, progress: job.close(), label="", lane="work", visible=False)

    def apply(self, job, on_conflict: str, name: str, choices: dict | None = None) -> None:
        def op(store):
            changes, undo, value = job.apply(on_conflict, choices)
            return operations.Result(changes, undo, value)

        label = (
            self.tr("Load the example memories")
            if name == EXAMPLES[-1]  # not the file's internal name
            else self.tr("Import {file}").format(file=name)
        )
        self.session.perform(op, label=label, background=True, on_done=self.imported.emit)

    def export_to(self, path) -> None:
        """Every memory with its history, as MemDesk JSON (what `memdesk export` writes)."""
        from memdesk.core.io import native

        store, path = self.session.store, str(path)

        def job(cancel, progress):
            data = native.export_data(store)
            Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
            return len(data["memories"])

        self.session.taskman.run(
            job,
            label=self.tr("Exporting"),
            lane="work",
            on_done=lambda n: self.exported.emit(n, path),
            on_failed=self.session.report,
        )

    def load_examples(self) -> None:
        self.import_file(resource(*EXAMPLES), preview=False)
