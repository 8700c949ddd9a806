"""Tools → Assistant activity: the recent tool calls and reverting one.

A table over plain rows (ToolCallRow) built from memdesk.core.tools.log; a
revert runs as an operation so its changes go out on the session's one
change channel. It is an undo step like any other (Ctrl+Z puts the call's effects back).

Said as a person would: the tool as an action (保存, 更新, 删除, 搜索…; its name in
the tooltip), the client by the name it gave itself in its handshake (old rows
with a known short name get that client's own spelling), memories by title
(their id in the tooltip), and one 已撤销 column that says only that.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC
from functools import partial

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
)

from memdesk.core import ops as operations
from memdesk.core.domain.errors import MemDeskError
from memdesk.core.io.common import bind
from memdesk.core.tools import log
from memdesk.gui.reasons import error_text, reason_text

from .tables import RowTableModel, read_only_table

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for

LIMIT = 200
# How clients that log a short machine name spell themselves (what the MCP handshake's title says).
CLIENT_NAMES = {
    "claude-desktop": "Claude Desktop",
    "claude-ai": "Claude Desktop",
    "claude-code": "Claude Code",
    "cherry-studio": "Cherry Studio",
    "cursor": "Cursor",
    "vscode": "VS Code",
    "windsurf": "Windsurf",
    "chatbox": "Chatbox",
}


def tool_actions() -> dict[str, str]:
    """Each assistant tool as the action it is."""
    return {
        "memory_save": translate("ToolCallModel", "Save"),
        "memory_upsert": translate("ToolCallModel", "Save or update"),
        "memory_delete": translate("ToolCallModel", "Delete"),
        "memory_forget": translate("ToolCallModel", "Forget"),
        "memory_search": translate("ToolCallModel", "Search"),
        "memory_query": translate("ToolCallModel", "Look up"),
        "memory_list": translate("ToolCallModel", "List"),
    }


def effect_words() -> dict[str, str]:
    return {
        "added": translate("ToolCallModel", "added"),
        "updated": translate("ToolCallModel", "updated"),
        "deleted": translate("ToolCallModel", "deleted"),
        "restored": translate("ToolCallModel", "restored"),
    }


def client_label(client: str) -> str:
    """The client as it calls itself; our own callers in words."""
    own = {
        "mcp": translate("ToolCallModel", "an MCP client"),
        "cli": translate("ToolCallModel", "command line"),
        "gui": translate("ToolCallModel", "this window"),
    }
    return own.get(client) or CLIENT_NAMES.get(client.lower(), client) or "—"


@dataclass(frozen=True)
class ToolCallRow:
    id: int
    when: str
    persona: str
    client: str
    tool: str
    ok: bool
    touched: str  # e.g. "added 「标题」; deleted 「…」"
    error: str
    reverted: bool
    revertible: bool
    reverted_when: str = ""
    ids: str = ""  # the memories' ids, for the tooltip


def _short_title(text: str, width: int = 24) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def load_rows(store, *, limit: int = LIMIT, global_name: str = "Global") -> list[ToolCallRow]:
    bind(store)  # log reads the models directly
    records = log.calls(limit=limit)
    personas = {p.id: p.name for p in store.personas()}
    ids = {e["id"] for r in records for e in r.effects}
    memories = store.get_many(ids) if ids else {}
    rows = []
    words = effect_words()
    for r in records:
        parts, ids = [], []
        for effect in r.effects:
            memory = memories.get(effect["id"])
            title = (
                _short_title(memory.display_title) if memory else translate("ToolCallModel", "a memory since purged")
            )
            parts.append(f"{words.get(effect['action'], effect['action'])}「{title}」")
            ids.append(effect["id"][:8])
        rows.append(
            ToolCallRow(
                r.id,
                _local(r.at),
                personas.get(r.persona_id, r.persona_id or global_name),
                client_label(r.client),
                r.tool,
                r.ok,
                translate("ToolCallModel", "; ").join(parts),
                (
                    reason_text(r.result.get("code", ""), r.result.get("params"), str(r.result.get("error", "")))
                    if isinstance(r.result, dict)
                    else ""
                ),
                r.reverted_at is not None,
                bool(r.effects) and r.reverted_at is None,
                _local(r.reverted_at) if r.reverted_at is not None else "",
                ", ".join(ids),
            )
        )
    return rows


def _local(at) -> str:
    at = at if at.tzinfo else at.replace(tzinfo=UTC)
    return at.astimezone().strftime("%Y-%m-%d %H:%M:%S")


class ToolCallModel(RowTableModel):
    TIME, PERSONA, CLIENT, TOOL, RESULT, TOUCHED, REVERTED = range(7)
    rows: list[ToolCallRow]

    def header_texts(self) -> list[str]:
        return [
            self.tr("Time"),
            self.tr("Persona"),
            self.tr("Client"),
            self.tr("Action"),
            self.tr("Result"),
            self.tr("What it did, or why it failed"),
            self.tr("Reverted"),
        ]

    def row_data(self, row: ToolCallRow, column: int, role):
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                self.TIME: row.when,
                self.PERSONA: row.persona,
                self.CLIENT: row.client,
                self.TOOL: self.action(row),
                self.RESULT: self.tr("ok") if row.ok else self.tr("failed"),
                self.TOUCHED: self.what(row),
                self.REVERTED: self.reverted(row),
            }.get(column)
        if role == Qt.ItemDataRole.ToolTipRole and column == self.TOUCHED:
            what = self.what(row)
            return f"{what}\n{self.tr('Ids: {ids}').format(ids=row.ids)}" if row.ids else what or None
        if role == Qt.ItemDataRole.ToolTipRole and column == self.TOOL:
            return row.tool  # what the assistant called, for whoever reads its configuration
        if role == Qt.ItemDataRole.ToolTipRole and column == self.REVERTED and row.reverted:
            return self.tr("Reverted at {when}").format(when=row.reverted_when)
        if role == Qt.ItemDataRole.ForegroundRole and (row.reverted or not row.ok):
            return QColor("#888888") if row.reverted else QColor("#b00020")
        return None

    def what(self, row: ToolCallRow) -> str:
        if not row.ok:
            return self.tr("Failed: {reason}").format(reason=row.error or self.tr("no reason was given"))
        return row.touched or self.tr("read only, changed nothing")

    @staticmethod
    def action(row: ToolCallRow) -> str:
        return tool_actions().get(row.tool, row.tool)

    def reverted(self, row: ToolCallRow) -> str:
        """One meaning only: blank unless the call was reverted (the tooltip says when)."""
        return self.tr("Reverted") if row.reverted else ""


class ToolLogDialog(QDialog):
    def __init__(self, session, ask, parent=None):
        super().__init__(parent)
        self.setObjectName("toolLogDialog")
        self.session, self.ask = session, ask
        self.setWindowTitle(self.tr("Assistant activity"))
        self.model = ToolCallModel(self)
        self.view = QTableView(self)
        self.view.setObjectName("toolCallTable")
        self.view.setModel(self.model)
        read_only_table(self.view)
        self.view.setWordWrap(False)  # a time on two lines reads as two calls
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)  # tool names and times whole
        header.setSectionResizeMode(ToolCallModel.TOUCHED, QHeaderView.ResizeMode.Stretch)
        self.detail = QLabel(self)
        self.detail.setObjectName("toolCallDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QLabel(self)
        self.revert_button = QPushButton(self.tr("Revert this call"), self)
        self.revert_button.setObjectName("revertToolCall")
        self.revert_button.setToolTip(
            self.tr("Undo what this assistant call did. Memories changed since are never overwritten.")
        )
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.summary, 1)
        row.addWidget(self.refresh_button)
        row.addWidget(self.revert_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.detail)
        layout.addLayout(row)
        layout.addWidget(buttons)

        self.revert_button.clicked.connect(self.revert_selected)
        self.refresh_button.clicked.connect(self.refresh)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        session.changes_applied.connect(self._on_changes)
        session.external_change.connect(self.refresh)  # assistants write from their own processes
        self.refresh()
        self.resize(960, 460)

    def refresh(self) -> None:
        selected = self.selected_id()
        self.model.set_rows(load_rows(self.session.store, global_name=self.tr("Global")))
        if selected is not None:
            self.select(selected)
        self.summary.setText(self.tr("%n recent calls", "", len(self.model.rows)))
        self._update_buttons()

    def _on_changes(self, _changes) -> None:
        if self.isVisible():
            self.refresh()

    def selected_id(self) -> int | None:
        rows = self.view.selectionModel().selectedRows() if self.view.selectionModel() else []
        return self.model.rows[rows[0].row()].id if rows else None

    def select(self, call_id: int) -> None:
        for number, row in enumerate(self.model.rows):
            if row.id == call_id:
                self.view.selectRow(number)
                return

    def _update_buttons(self) -> None:
        call_id = self.selected_id()
        row = next((r for r in self.model.rows if r.id == call_id), None)
        self.revert_button.setEnabled(row is not None and row.revertible)
        self.detail.setText(
            ""
            if row is None
            else self.tr("{tool} as {persona} ({client}), {when}: {what}").format(
                tool=self.model.action(row),
                persona=row.persona,
                client=row.client,
                when=row.when,
                what=self.model.what(row),
            )
        )
        self.detail.setStyleSheet("" if row is None or row.ok else "color: #b00020")

    def revert_selected(self) -> None:
        call_id = self.selected_id()
        if call_id is None:
            return

        def failed(exc) -> bool:
            if not isinstance(exc, MemDeskError):
                return False  # a bug: the session reports it
            self.ask.inform(
                self, self.tr("Revert"), self.tr("Could not revert this call: {error}").format(error=error_text(exc))
            )
            self.refresh()
            return True

        self.session.perform(
            partial(operations.revert_tool_call, call_id=call_id),
            label=self.tr("Revert assistant call {n}").format(n=call_id),
            on_done=lambda _result: self.refresh(),
            on_error=failed,
        )
