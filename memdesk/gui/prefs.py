"""Per-user window preferences in QSettings (INI format, so tests can point
QSettings.setPath at a temporary folder). Per-database settings live in the
store's own settings table instead."""

from __future__ import annotations

from PySide6.QtCore import QSettings

ORG = APP = "MemDesk"


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORG, APP)


def language() -> str:
    """'zh_CN', 'en', or '' for the system's language."""
    value = settings().value("ui/language", "")
    return value if value in ("zh_CN", "en") else ""


def set_language(value: str) -> None:
    settings().setValue("ui/language", value)


def examples_declined(db_path) -> bool:
    return str(db_path) in settings().value("examples/declined", [], type=list)


def set_examples_declined(db_path) -> None:
    s = settings()
    declined = list(s.value("examples/declined", [], type=list))
    if str(db_path) not in declined:
        s.setValue("examples/declined", declined + [str(db_path)])


def table_hidden_columns(default: frozenset[str]) -> set[str]:
    """The memory table's columns the user hid (its header's context menu)."""
    s = settings()
    if not s.contains("table/hidden"):
        return set(default)
    return {str(name) for name in s.value("table/hidden", [], type=list)}


def set_table_hidden_columns(names) -> None:
    # An empty list is written as a marker, so "none hidden" is not read back as "never chosen".
    settings().setValue("table/hidden", sorted(names) or [""])


def table_sort() -> tuple[str, bool]:
    """(column name, descending) the memory table was last sorted by."""
    s = settings()
    return str(s.value("table/sort", "title")), s.value("table/descending", False, type=bool)


def set_table_sort(name: str, descending: bool) -> None:
    s = settings()
    s.setValue("table/sort", name)
    s.setValue("table/descending", descending)
