"""What the user can do to selected memories (menus, context menus, keys, drops).

Each action is one operation through the session, so it is undoable and its
Changes reach every view. Beyond BULK_SYNC_MAX memories the write runs on
the task manager's db lane instead of the UI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject

from memdesk.core import ops as operations
from memdesk.core.views.listing import memory_ids
from memdesk.gui import labels

BULK_SYNC_MAX = 50


class MemoryActions(QObject):
    def __init__(self, session, ask, parent_widget, title_of: Callable[[str], str]):
        super().__init__(parent_widget)
        self.session, self.ask = session, ask
        self.widget = parent_widget
        self.title_of = title_of

    def _label(self, single: str, many: str, ids) -> str:
        """``single`` names the one memory's title; ``many`` is already counted (tr with %n)."""
        if len(ids) == 1:
            title = self.title_of(ids[0]) or ""
            return single.format(title=title[:24] + ("…" if len(title) > 24 else ""))
        return many

    def _run(self, op, label: str, ids, **kwargs) -> None:
        self.session.perform(op, label=label, background=len(ids) > BULK_SYNC_MAX, **kwargs)

    # ---- trash ----------------------------------------------------------------------------------
    def delete(self, ids: list[str]) -> None:
        if ids:
            self._run(
                partial(operations.delete_memories, ids=ids),
                self._label(self.tr("Delete “{title}”"), self.tr("Delete %n memories", "", len(ids)), ids),
                ids,
            )

    def restore(self, ids: list[str]) -> None:
        if ids:
            self._run(
                partial(operations.restore_memories, ids=ids),
                self._label(self.tr("Restore “{title}”"), self.tr("Restore %n memories", "", len(ids)), ids),
                ids,
            )

    def purge(self, ids: list[str]) -> None:
        if not ids:
            return
        if self.ask.confirm(
            self.widget,
            self.tr("Delete for good"),
            self.tr("Delete %n memories from the trash for good?", "", len(ids)),
            yes=self.tr("Delete for good"),
            warning=True,
            detail=self.tr("Undo can still bring them back while the window is open."),
        ):
            self._run(
                partial(operations.purge_memories, ids=ids),
                self._label(
                    self.tr("Delete “{title}” for good"), self.tr("Delete %n memories for good", "", len(ids)), ids
                ),
                ids,
            )

    def empty_trash(self) -> None:
        ids = memory_ids(self.session.store, state="deleted")
        if not ids:
            return
        if self.ask.confirm(
            self.widget,
            self.tr("Empty trash"),
            self.tr("Delete all %n memories in the trash for good?", "", len(ids)),
            yes=self.tr("Empty trash"),
            warning=True,
            detail=self.tr("Undo can still bring them back while the window is open."),
        ):
            self._run(partial(operations.purge_memories, ids=ids), self.tr("Empty trash"), ids)

    # ---- classify ---------------------------------------------------------------------------------
    def move_to_group(self, ids: list[str], group: str) -> None:
        if ids:
            label = self.tr("Move %n memories to “{group}”", "", len(ids)).format(group=group or self.tr("(no group)"))
            self._run(partial(operations.set_fields, ids=ids, group=group), label, ids)

    def ask_group(self, ids: list[str]) -> None:
        group = self.ask.text(
            self.widget,
            self.tr("Move to group"),
            self.tr("Group ('/' nests groups):"),
            suggestions=self.session.store.group_names(),
        )
        if group is not None:
            self.move_to_group(ids, group.strip())

    def rename_group(self, path: str) -> None:
        new = self.ask.text(
            self.widget, self.tr("Rename group"), self.tr("New name for “{group}”:").format(group=path), path
        )
        if new is None or not new.strip() or new.strip() == path:
            return
        new = "/".join(p.strip() for p in new.split("/") if p.strip())
        ids = memory_ids(self.session.store, group=path, state="all")
        op = partial(_rename_group, old=path, new=new, ids=ids)
        self._run(op, self.tr("Rename group “{old}” to “{new}”").format(old=path, new=new), ids)

    def add_tag(self, ids: list[str], tag: str) -> None:
        if ids and tag.strip():
            self._run(
                partial(operations.edit_tags, ids=ids, add=[tag.strip()]),
                self.tr("Tag %n memories “{tag}”", "", len(ids)).format(tag=tag.strip()),
                ids,
            )

    def ask_tag(self, ids: list[str]) -> None:
        tag = self.ask.text(
            self.widget, self.tr("Add tag"), self.tr("Tag:"), suggestions=self.session.store.tag_names()
        )
        if tag:
            self.add_tag(ids, tag)

    def remove_tag(self, ids: list[str], tag: str) -> None:
        if ids:
            self._run(
                partial(operations.edit_tags, ids=ids, remove=[tag]),
                self.tr("Remove tag “{tag}” from %n memories", "", len(ids)).format(tag=tag),
                ids,
            )

    def set_type(self, ids: list[str], memory_type: str) -> None:
        if ids:
            self._run(
                partial(operations.set_fields, ids=ids, type=memory_type),
                self.tr("Set type of %n memories to {type}", "", len(ids)).format(
                    type=labels.label("type", memory_type)
                ),
                ids,
            )

    def set_importance(self, ids: list[str], importance: int) -> None:
        if ids:
            self._run(
                partial(operations.set_fields, ids=ids, importance=importance),
                self.tr("Set importance of %n memories to {value}", "", len(ids)).format(value=importance),
                ids,
            )

    def set_persona(self, ids: list[str], persona_id: str | None, name: str) -> None:
        if ids:
            self._run(
                partial(operations.set_fields, ids=ids, persona_id=persona_id),
                self.tr("Move %n memories to {persona}", "", len(ids)).format(persona=name),
                ids,
            )

    # ---- drops ------------------------------------------------------------------------------------
    def drop(self, kind: str, key, ids: list[str], persona_name: str = "") -> None:
        """Memories dropped on a tree node."""
        if kind == "group":
            self.move_to_group(ids, key or "")
        elif kind == "tag":
            self.add_tag(ids, key)
        elif kind == "type":
            self.set_type(ids, key)
        elif kind == "persona":
            self.set_persona(ids, key or None, persona_name)
        elif kind == "state" and key == "deleted":
            self.delete(ids)


def _rename_group(store, *, old: str, new: str, ids: list[str]) -> operations.Result:
    """Every memory in the group or below it gets the new prefix."""
    groups = {i: r.group for i, r in store.get_many(ids).items()}
    edits = {i: {"group": new + g[len(old) :]} for i, g in groups.items() if g == old or g.startswith(old + "/")}
    return operations.update_memories(store, edits=edits)
