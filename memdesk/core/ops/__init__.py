"""Every change the window makes to the store, each returning its own inverse (the undo layer).

An operation is a small keyword-only function ``op(store, **args) -> Result``.
``Result.undo`` is another operation, already bound to its arguments, that
reverses this one and returns a Result whose ``undo`` redoes it; so an undo
command only ever alternates between two callables. Ids stay stable across
undo/redo (a purged memory comes back under its own id), so later commands
in the undo stack still find their memories.

How an undo/redo step knows the store is still as it left it: each inverse
carries ``expect``, the *fingerprint* of every memory (and persona, setting)
it will touch, taken right after the step ran: the fields a person can see
(EDITABLE, importance_set, superseded_by and whether it is in the trash), not
the version counter. Why not versions: undoing a later step puts the same
fields back but bumps the version again, so a version-based step deeper in the
stack would always look stale (the bug in issue 14); and carrying new versions
forward would have to rewrite every other command in the stack. A fingerprint
is the same after any exact undo/redo of later steps, so undo works to any
depth, while any visible change by another process (or by something outside
the undo history: an assistant, maintenance) still makes the step refuse with
StaleStepError, before anything is written. Access counters, heat and times are
left out: an assistant's search must not make the history unusable.

Nothing here touches Qt: the window runs operations on the UI thread (one
short write) or on the task manager's db lane (imports, bulk edits), and keeps
the Results on its undo stack (gui/app/undo.py).

One module per kind of thing changed (memories, personas, imports, settings); recorded.py
holds the steps whose undo puts back a recorded state (merges, inbox answers, tool-call
reverts); base.py what they all share. Callers use the names below: ``ops.delete_memories``.
"""

from memdesk.core.writes.memories import EDITABLE  # noqa: F401 - callers read ops.EDITABLE

from .base import (  # noqa: F401 - the package's API
    PERSONA_FIELDS,
    RESTORABLE,
    SAVED_SEARCHES_KEY,
    VISIBLE,
    Result,
    StaleStepError,
    check_memories,
    check_persona,
    fingerprint,
    fingerprints,
    merge,
    persona_fingerprint,
    sequence,
    snapshot,
)
from .imports import (  # noqa: F401 - the package's API
    import_plan,
    set_import_aliases,
)
from .memories import (  # noqa: F401 - the package's API
    add_memory,
    delete_memories,
    edit_tags,
    empty_trash,
    purge_memories,
    readd_memories,
    remove_memories,
    restore_memories,
    revert_to_revision,
    set_fields,
    update_memories,
)
from .personas import (  # noqa: F401 - the package's API
    create_persona,
    delete_persona,
    recreate_persona,
    update_persona,
)
from .recorded import (  # noqa: F401 - the package's API
    dismiss_proposal,
    keep_both_proposal,
    merge_proposal,
    merge_stale_proposal,
    put_back,
    revert_tool_call,
)
from .settings import (  # noqa: F401 - the package's API
    GLOBAL_SWITCH_KEY,
    saved_searches,
    set_global_memory_switch,
    set_saved_searches,
)
