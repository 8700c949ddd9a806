"""The main window's actions, menus and context menus (kept out of main_window.py)."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from memdesk.core.domain.records import TYPES
from memdesk.gui import icons, labels

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def _action(window, text: str, slot, shortcut=None, icon: str | None = None, name: str = "") -> QAction:
    action = QAction(text, window)
    if shortcut is not None:
        shortcuts = shortcut if isinstance(shortcut, list) else [shortcut]
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
    if icon:
        action.setIcon(icons.icon(icon))
    if name:
        action.setObjectName(name)
    action.triggered.connect(lambda _checked=False: slot())
    return action


def build_actions(w) -> SimpleNamespace:
    a = SimpleNamespace()
    a.new = _action(w, translate("MainWindow", "New memory"), w.new_memory, "Ctrl+N", icon="new", name="actionNew")
    a.save = _action(w, translate("MainWindow", "Save"), w.editor.save, "Ctrl+S", name="actionSave")
    a.revert = _action(w, translate("MainWindow", "Revert"), w.editor.revert, name="actionRevert")
    a.import_ = _action(w, translate("MainWindow", "Import…"), w.choose_import, "Ctrl+I", name="actionImport")
    a.export = _action(w, translate("MainWindow", "Export…"), w.export, name="actionExport")
    a.open_db = _action(w, translate("MainWindow", "Open database…"), lambda: w.pick_database(new=False))
    a.open_server = _action(w, translate("MainWindow", "Open server database…"), w.pick_server)
    a.new_db = _action(w, translate("MainWindow", "New database…"), lambda: w.pick_database(new=True))
    a.settings = _action(w, translate("MainWindow", "Settings…"), w.open_settings, "Ctrl+,", name="actionSettings")
    a.quit = _action(w, translate("MainWindow", "Quit"), w.close, "Ctrl+Q")
    a.undo = _action(w, translate("MainWindow", "Undo"), w.session.undo, ["Ctrl+Z"], icon="undo", name="actionUndo")
    a.redo = _action(
        w, translate("MainWindow", "Redo"), w.session.redo, ["Ctrl+Shift+Z", "Ctrl+Y"], icon="redo", name="actionRedo"
    )
    # Del acts on the list, not on text being edited: bound to the browser pane only.
    a.delete = _action(
        w, translate("MainWindow", "Delete"), w.delete_selected, "Del", icon="trash", name="actionDelete"
    )
    a.delete.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    w.browser.addAction(a.delete)
    a.restore = _action(w, translate("MainWindow", "Restore from trash"), w.restore_selected, name="actionRestore")
    a.empty_trash = _action(w, translate("MainWindow", "Empty trash…"), w.actions_.empty_trash, name="actionEmptyTrash")
    a.find = _action(w, translate("MainWindow", "Find"), w.search_bar.focus, "Ctrl+F", name="actionFind")
    a.next = _action(
        w, translate("MainWindow", "Next result"), lambda: w.browser.step(1), ["F3", "Ctrl+G"], name="actionNext"
    )
    a.previous = _action(
        w,
        translate("MainWindow", "Previous result"),
        lambda: w.browser.step(-1),
        ["Shift+F3", "Ctrl+Shift+G"],
        name="actionPrevious",
    )
    a.clear_search = _action(w, translate("MainWindow", "Show the tree"), w.search_bar.clear, name="actionClearSearch")
    a.reload = _action(w, translate("MainWindow", "Reload"), w.reload, "F5")
    a.personas = _action(
        w, translate("MainWindow", "Manage personas…"), w.open_personas, icon="persona", name="actionPersonas"
    )
    a.maintenance = _action(
        w, translate("MainWindow", "Run maintenance now"), w.maintenance.run, name="actionRunMaintenance"
    )
    a.review = _action(w, translate("MainWindow", "Review duplicates…"), w.open_review_inbox, name="actionReviewInbox")
    a.tool_log = _action(w, translate("MainWindow", "Assistant activity…"), w.open_tool_log, name="actionToolLog")
    a.context_preview = _action(
        w, translate("MainWindow", "Context preview…"), w.open_context_preview, name="actionContextPreview"
    )
    a.statistics = _action(w, translate("MainWindow", "Statistics…"), w.open_statistics, name="actionStatistics")
    a.syntax = _action(w, translate("MainWindow", "Search syntax"), w.show_syntax)
    a.about = _action(w, translate("MainWindow", "About MemDesk"), w.show_about)
    for action in (a.new, a.save, a.undo, a.redo, a.find, a.next, a.previous, a.reload, a.import_, a.settings, a.quit):
        w.addAction(action)  # shortcuts work even with the menu bar hidden
    return a


def build_menus(w, a) -> None:
    bar = w.menuBar()
    file_menu = bar.addMenu(translate("MainWindow", "&File"))
    for item in (
        a.new,
        a.save,
        a.revert,
        None,
        a.import_,
        a.export,
        None,
        a.open_db,
        a.open_server,
        a.new_db,
        None,
        a.settings,
        None,
        a.quit,
    ):
        file_menu.addSeparator() if item is None else file_menu.addAction(item)
    edit_menu = bar.addMenu(translate("MainWindow", "&Edit"))
    for item in (
        a.undo,
        a.redo,
        None,
        a.delete,
        a.restore,
        a.empty_trash,
        None,
        a.find,
        a.next,
        a.previous,
        a.clear_search,
    ):
        edit_menu.addSeparator() if item is None else edit_menu.addAction(item)
    persona_menu = bar.addMenu(translate("MainWindow", "&Personas"))
    persona_menu.addAction(a.personas)
    tools_menu = bar.addMenu(translate("MainWindow", "&Tools"))
    tools_menu.addAction(a.reload)
    tools_menu.addAction(a.maintenance)
    tools_menu.addAction(a.review)
    tools_menu.addAction(a.statistics)
    tools_menu.addSeparator()
    tools_menu.addAction(a.tool_log)
    tools_menu.addAction(a.context_preview)
    help_menu = bar.addMenu(translate("MainWindow", "&Help"))
    help_menu.addAction(a.syntax)
    help_menu.addAction(a.about)


def context_menu(w, nodes, ids: list[str]) -> QMenu:
    """The tree's or the results' context menu for what is selected."""
    menu = QMenu(w)
    actions = w.actions_
    trash_ids = [i for i in ids if w.state_of(i) == "deleted"]
    live_ids = [i for i in ids if i not in trash_ids]
    if live_ids:
        menu.addAction(translate("MainWindow", "Move to group…"), lambda: actions.ask_group(live_ids))
        menu.addAction(translate("MainWindow", "Add tag…"), lambda: actions.ask_tag(live_ids))
        tags = sorted({t for i in live_ids for t in w.tags_of(i)})
        if tags:
            remove = menu.addMenu(translate("MainWindow", "Remove tag"))
            for tag in tags:
                remove.addAction(tag, lambda t=tag: actions.remove_tag(live_ids, t))
        type_menu = menu.addMenu(translate("MainWindow", "Set type"))
        names = labels.types()
        for key in TYPES:
            type_menu.addAction(names[key], lambda k=key: actions.set_type(live_ids, k))
        importance = menu.addMenu(translate("MainWindow", "Set importance"))
        for value in range(10, 0, -1):
            importance.addAction(str(value), lambda v=value: actions.set_importance(live_ids, v))
        persona_menu = menu.addMenu(translate("MainWindow", "Move to persona"))
        everyone = translate("MainWindow", "Global")
        persona_menu.addAction(icons.icon("globe"), everyone, lambda: actions.set_persona(live_ids, None, everyone))
        for persona in w.session.store.personas():
            persona_menu.addAction(
                icons.colour_dot(persona.colour),
                persona.name,
                lambda p=persona: actions.set_persona(live_ids, p.id, p.name),
            )
        menu.addSeparator()
        menu.addAction(icons.icon("trash"), translate("MainWindow", "Delete"), lambda: actions.delete(live_ids))
    if trash_ids:
        menu.addAction(translate("MainWindow", "Restore"), lambda: actions.restore(trash_ids))
        menu.addAction(translate("MainWindow", "Delete for good…"), lambda: actions.purge(trash_ids))
    for node in nodes:
        if node.kind == "state" and node.key == "deleted":
            menu.addAction(translate("MainWindow", "Empty trash…"), actions.empty_trash)
        elif node.kind == "group" and node.key:
            menu.addAction(translate("MainWindow", "Rename group…"), lambda k=node.key: actions.rename_group(k))
        elif node.kind == "saved":
            menu.addAction(translate("MainWindow", "Remove saved search"), lambda k=node.key: w.remove_saved_search(k))
        elif node.kind == "persona" and node.key:
            menu.addAction(translate("MainWindow", "Manage personas…"), w.open_personas)
    return menu
