"""Settings the window changes undoably: saved searches, the global memory switch."""

from __future__ import annotations

from functools import partial

from memdesk.core.domain.changes import Changes

from .base import SAVED_SEARCHES_KEY, Result, check_setting


# ---- saved searches (kept in the database, beside the memories they find) --------------------
def saved_searches(store) -> list[dict]:
    value = store.setting(SAVED_SEARCHES_KEY, [])
    if not isinstance(value, list):
        return []
    return [s for s in value if isinstance(s, dict) and s.get("name") and "query" in s]


def set_saved_searches(store, *, searches: list[dict], expect=...) -> Result:
    with store.write():
        if expect is not ...:
            check_setting(store, SAVED_SEARCHES_KEY, expect)
        before = store.setting(SAVED_SEARCHES_KEY, None)
        store.set_setting(SAVED_SEARCHES_KEY, list(searches))
        left = store.setting(SAVED_SEARCHES_KEY, None)
    return Result(
        Changes(),
        partial(set_saved_searches, searches=before if before is not None else [], expect=left),
        flags=frozenset({"saved_searches"}),
    )


# ---- assistants: the tool-call log and the memory switch ------------------------------------
GLOBAL_SWITCH_KEY = "global.auto_save_memory"


def set_global_memory_switch(store, *, on: bool, expect=...) -> Result:
    """The autoSaveMemory switch for global memories (personas keep theirs on the persona)."""
    with store.write():
        if expect is not ...:
            check_setting(store, GLOBAL_SWITCH_KEY, expect)
        before = bool(store.setting(GLOBAL_SWITCH_KEY, True))
        store.set_setting(GLOBAL_SWITCH_KEY, bool(on))
    # personas=True: the views that show the switches refresh from the one change channel.
    return Result(Changes(personas=True), partial(set_global_memory_switch, on=before, expect=bool(on)))
