"""The memory tree as a QAbstractItemModel over tree_nodes.Node objects.

The model is the notifier of Tree.update(), so a few changed memories move
rows with insert/remove signals instead of a reset; a whole new tree (built
on a worker) is swapped in with beginResetModel/endResetModel.
"""

from __future__ import annotations

import json

from PySide6.QtCore import (
    QAbstractItemModel,
    QMimeData,
    QModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFont

from memdesk.core.views import queries
from memdesk.gui import icons, labels

from .tree_nodes import CONTAINER_KINDS, Node, Tree

MIME_IDS = "application/x-memdesk-memory-ids"
KIND_ROLE = Qt.ItemDataRole.UserRole + 1
KEY_ROLE = Qt.ItemDataRole.UserRole + 2
DROP_KINDS = frozenset({"group", "tag", "type", "persona", "state"})


def ids_from_mime(data: QMimeData) -> list[str]:
    if not data.hasFormat(MIME_IDS):
        return []
    try:
        ids = json.loads(bytes(data.data(MIME_IDS)).decode("utf-8"))
    except ValueError:
        return []
    return [i for i in ids if isinstance(i, str)]


def mime_for_ids(ids: list[str]) -> QMimeData:
    data = QMimeData()
    data.setData(MIME_IDS, json.dumps(list(dict.fromkeys(ids))).encode("utf-8"))
    data.setText("\n".join(ids))
    return data


class TreeModel(QAbstractItemModel):
    # kind, key, memory ids: the window turns a drop into an operation
    drop_requested = Signal(str, object, list)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tree = Tree.empty()
        self._bold = QFont()
        self._bold.setBold(True)

    # ---- swapping and updating ----------------------------------------------------------
    def set_tree(self, tree: Tree) -> None:
        self.beginResetModel()
        old, self.tree = self.tree, tree
        self.endResetModel()
        if old is not tree:
            old.dispose()  # no index points into it now

    def apply_briefs(self, fresh: dict) -> None:
        self.tree.update(fresh, self)

    def set_personas(self, personas) -> None:
        self.tree.set_personas(personas, self)

    def set_saved(self, saved) -> None:
        self.tree.set_saved(saved, self)

    # Tree.update's notifier interface
    def begin_insert(self, node, first, last):
        self.beginInsertRows(self.index_of(node), first, last)

    def end_insert(self):
        self.endInsertRows()

    def begin_remove(self, node, first, last):
        self.beginRemoveRows(self.index_of(node), first, last)

    def end_remove(self):
        self.endRemoveRows()

    def changed(self, node):
        index = self.index_of(node)
        if index.isValid():
            self.dataChanged.emit(index, index)

    # ---- structure ---------------------------------------------------------------------------
    def node(self, index: QModelIndex) -> Node:
        return index.internalPointer() if index.isValid() else self.tree.root

    def index_of(self, node: Node | None) -> QModelIndex:
        if node is None or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def index(self, row, column, parent=QModelIndex()):
        node = self.node(parent)
        if column != 0 or row < 0 or row >= len(node.children):
            return QModelIndex()
        return self.createIndex(row, 0, node.children[row])

    def parent(self, index=QModelIndex()):
        if not index.isValid():
            return QModelIndex()
        up = index.internalPointer().parent
        if up is None or up.parent is None:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent=QModelIndex()):
        if parent.column() > 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent=QModelIndex()):
        return 1

    def hasChildren(self, parent=QModelIndex()):
        if parent.column() > 0:
            return False
        node = self.node(parent)
        return bool(node.children or node.pending)

    def canFetchMore(self, parent):
        return parent.column() <= 0 and bool(self.node(parent).pending)

    def fetchMore(self, parent):
        self.tree.fetch_more(self.node(parent), self)

    def leaf_index(self, memory_id: str) -> QModelIndex:
        """The index of a memory in its home container, fetching rows up to it."""
        return self.index_of(self.tree.materialise(memory_id, self))

    # ---- display -------------------------------------------------------------------------------
    def _section_label(self, name: str) -> str:
        return {
            "personas": self.tr("Personas"),
            "groups": self.tr("Groups"),
            "types": self.tr("Types"),
            "tags": self.tr("Tags"),
            "tiers": self.tr("Tiers"),
            "saved": self.tr("Saved searches"),
            "inactive": self.tr("Expired and superseded"),
            "trash": self.tr("Trash"),
        }.get(name, name)

    def label(self, node: Node) -> str:
        kind, key = node.kind, node.key
        if kind == "memory":
            brief = self.tree.briefs.get(key)
            return (brief.title if brief else "") or self.tr("(untitled)")
        if kind == "section":
            return self._section_label(key)
        if kind == "group":
            if key is None:
                return self.tr("Groups")
            return node.label or self.tr("(no group)")
        if kind == "state" and key == "deleted":
            return self.tr("Trash")
        if kind in ("type", "tier", "state"):
            return labels.label(kind, key)
        if kind == "persona":
            return node.label or self.tr("Global")
        return node.label

    def _is_global_mark(self, memory_id: str) -> bool:
        brief = self.tree.briefs.get(memory_id)
        return (
            brief is not None
            and brief.persona_id is None
            and self.tree.persona_filter not in (queries.ALL, queries.GLOBAL)
        )

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        node: Node = index.internalPointer()
        if role == Qt.ItemDataRole.DisplayRole:
            text = self.label(node)
            if node.kind in CONTAINER_KINDS:
                return f"{text} ({node.count:,})"
            return text
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icon(node)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(node)
        if role == Qt.ItemDataRole.FontRole and node.parent is self.tree.root:
            return self._bold
        if role == KIND_ROLE:
            return node.kind
        if role == KEY_ROLE:
            return node.key
        return None

    def _icon(self, node: Node):
        kind = node.kind
        if kind == "memory":
            return icons.icon("memory-global" if self._is_global_mark(node.key) else "memory")
        if kind == "persona":
            return icons.icon("globe") if not node.key else icons.colour_dot(self.tree.persona_colour(node.key))
        name = {"group": "folder", "type": "type", "tag": "tag", "tier": "tier", "saved": "saved-search"}.get(kind)
        if kind == "state":
            name = "trash" if node.key == "deleted" else "inactive"
        if kind == "section":
            name = {
                "personas": "persona",
                "types": "type",
                "tags": "tag",
                "tiers": "tier",
                "saved": "saved-search",
                "inactive": "inactive",
            }.get(node.key)
        return icons.icon(name) if name else None

    def _tooltip(self, node: Node):
        if node.kind == "memory":
            brief = self.tree.briefs.get(node.key)
            if brief is None:
                return None
            lines = [brief.title]
            if brief.group:
                lines.append(self.tr("Group: {group}").format(group=brief.group))
            if self._is_global_mark(node.key):
                lines.append(self.tr("Global memory: every persona sees it"))
            return "\n".join(lines)
        if node.kind == "group" and node.key:
            return node.key
        if node.kind == "saved":
            return self.tree.saved[node.key]["query"]
        return None

    # ---- drag and drop ---------------------------------------------------------------------------
    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        node: Node = index.internalPointer()
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if node.kind == "memory":
            flags |= Qt.ItemFlag.ItemIsDragEnabled
        elif self._drop_target(node):
            flags |= Qt.ItemFlag.ItemIsDropEnabled
        return flags

    @staticmethod
    def _drop_target(node: Node) -> bool:
        if node.kind not in DROP_KINDS:
            return False
        return not (node.kind == "state" and node.key != "deleted")

    def supportedDropActions(self):
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def supportedDragActions(self):
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def mimeTypes(self):
        return [MIME_IDS]

    def mimeData(self, indexes):
        ids = [self.node(i).key for i in indexes if i.isValid() and self.node(i).kind == "memory"]
        return mime_for_ids(ids)

    def canDropMimeData(self, data, action, row, column, parent):
        return data.hasFormat(MIME_IDS) and parent.isValid() and self._drop_target(self.node(parent))

    def dropMimeData(self, data, action, row, column, parent):
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        ids = ids_from_mime(data)
        if not ids:
            return False
        node = self.node(parent)
        kind, key = node.kind, node.key
        # After the drag has finished: the operation changes this model's rows.
        QTimer.singleShot(0, lambda: self.drop_requested.emit(kind, key, ids))
        return True
