"""Where the user left the main window: its size and place, toolbars, its splitters and the
table's columns (order, widths); saved on close, restored at the next start (a first start
gets 1180 × 760)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray

from memdesk.gui import prefs


def _splitters(window) -> tuple:
    # (not "window/splitter": that was the tree beside the editor, before the table came between)
    return (
        ("window/main_split", window.splitter),
        ("window/browser_split", window.browser.splitter),
        ("window/editor_split", window.editor.split),
        ("table/header", window.browser.table.view.horizontalHeader()),
    )


def restore_layout(window) -> None:
    s = prefs.settings()
    geometry = s.value("window/geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    else:
        window.resize(1180, 760)
    for key, widget in _splitters(window):
        state = s.value(key)
        if isinstance(state, QByteArray):
            widget.restoreState(state)
    state = s.value("window/state")
    if isinstance(state, QByteArray):
        window.restoreState(state)


def save_layout(window) -> None:
    s = prefs.settings()
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/state", window.saveState())
    for key, widget in _splitters(window):
        s.setValue(key, widget.saveState())
    s.sync()
