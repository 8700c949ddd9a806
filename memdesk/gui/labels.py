"""User-facing names for the store's enum values (types, scopes, tiers...).

Built on each call, so they follow a language switch; every string is a
literal so pyside6-lupdate finds it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def types() -> dict[str, str]:
    return {
        "fact": translate("Labels", "Fact"),
        "preference": translate("Labels", "Preference"),
        "project": translate("Labels", "Project"),
        "task": translate("Labels", "Task"),
        "note": translate("Labels", "Note"),
    }


def scopes() -> dict[str, str]:
    return {"long_term": translate("Labels", "Long-term"), "short_term": translate("Labels", "Short-term")}


def tiers() -> dict[str, str]:
    return {
        "hot": translate("Labels", "Hot"),
        "warm": translate("Labels", "Warm"),
        "cold": translate("Labels", "Cold"),
        "archive": translate("Labels", "Archive"),
    }


def states() -> dict[str, str]:
    return {
        "active": translate("Labels", "Active"),
        "deleted": translate("Labels", "In the trash"),
        "expired": translate("Labels", "Expired"),
        "superseded": translate("Labels", "Superseded"),
    }


def plan_statuses() -> dict[str, str]:
    return {
        "new": translate("Labels", "New"),
        "updated": translate("Labels", "Updated"),
        "unchanged": translate("Labels", "Unchanged"),
        "conflict": translate("Labels", "Conflict"),
        "invalid": translate("Labels", "Invalid"),
    }


def reasons() -> dict[str, str]:
    return {
        "edit": translate("Labels", "Edited"),
        "import": translate("Labels", "Imported"),
        "ai": translate("Labels", "Changed by an assistant"),
        "merge": translate("Labels", "Merged"),
        "supersede": translate("Labels", "Replaced"),
        "restore": translate("Labels", "Earlier values put back"),
    }


def fields() -> dict[str, str]:
    return {
        "title": translate("Labels", "Title"),
        "content": translate("Labels", "Content"),
        "summary": translate("Labels", "Summary"),
        "tags": translate("Labels", "Tags"),
        "group": translate("Labels", "Group"),
        "type": translate("Labels", "Type"),
        "scope": translate("Labels", "Scope"),
        "importance": translate("Labels", "Importance"),
        "persona_id": translate("Labels", "Persona"),
        "expires_at": translate("Labels", "Expires"),
        "dedup_key": translate("Labels", "Dedup key"),
        "superseded_by": translate("Labels", "Superseded by"),
        "source": translate("Labels", "Source"),
    }


def source(value: str) -> str:
    if value == "manual":
        return translate("Labels", "Entered by hand")
    if value == "ai":
        return translate("Labels", "Saved by an assistant")
    if value == "import:examples":  # the examples offered at first start, not a file the user knows
        return translate("Labels", "Loaded from the examples")
    if value.startswith("import:"):
        return translate("Labels", "Imported from {name}").format(name=value.split(":", 1)[1])
    if value == "import":
        return translate("Labels", "Imported")
    return value


def label(kind: str, value: str) -> str:
    table = {"type": types, "scope": scopes, "tier": tiers, "state": states}.get(kind)
    return table().get(value, value) if table else value
