"""An import as one undoable step; the file-persona aliases it leaves behind."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from memdesk.core.domain.changes import Changes
from memdesk.core.io.personas import ALIASES_KEY
from memdesk.core.io.plan import ImportPlan, apply_import

from .base import RESTORABLE, Result, check_setting, fingerprints, persona_fingerprint, sequence
from .memories import remove_memories, update_memories
from .personas import delete_persona


# ---- import -------------------------------------------------------------------------------
def import_plan(store, *, plan: ImportPlan, on_conflict: str = "skip") -> Result:
    """Apply a previewed import; undo removes what it added and puts back what it changed."""
    statuses = {"updated"} | ({"conflict"} if on_conflict == "theirs" else set())
    touched = [item for item in plan.items if item.status in statuses and item.memory_id]
    before = store.get_many([item.memory_id for item in touched])
    existing = {p.id for p in store.personas()}
    created_personas = [pid for pid in plan.new_personas if pid not in existing]
    aliases_before = store.setting(ALIASES_KEY, None)
    changes = apply_import(store, plan, on_conflict=on_conflict)
    with store.write():  # what the import left, read before anyone else can write
        back = {}
        for item in touched:
            record = before.get(item.memory_id)
            if record is not None and item.memory_id in changes.updated:
                back[item.memory_id] = {k: getattr(record, k) for k in item.fields if k in RESTORABLE}
        steps: list[Callable[..., Result]] = []
        aliases_left = store.setting(ALIASES_KEY, None)
        if aliases_left != aliases_before:  # undo forgets the persona choices this import remembered
            steps.append(partial(set_import_aliases, value=aliases_before, expect=aliases_left))
        if back:
            steps.append(partial(update_memories, edits=back, reason="import", expect=fingerprints(store, back)))
        if changes.added:
            steps.append(partial(remove_memories, ids=list(changes.added), expect=fingerprints(store, changes.added)))
        # By the time these run, the steps above took the persona's memories away again.
        steps.extend(
            partial(delete_persona, persona_id=pid, memories="global", expect=(persona_fingerprint(store, pid), {}))
            for pid in created_personas
        )
    return Result(changes, partial(sequence, steps=steps), value=len(changes.added) + len(changes.updated))


def set_import_aliases(store, *, value, expect=...) -> Result:
    """Put the remembered persona choices of imports (source id -> persona) back to ``value``."""
    with store.write():
        if expect is not ...:
            check_setting(store, ALIASES_KEY, expect)
        before = store.setting(ALIASES_KEY, None)
        store.set_setting(ALIASES_KEY, value if value is not None else {})
        left = store.setting(ALIASES_KEY, None)
    return Result(Changes(), partial(set_import_aliases, value=before, expect=left))
