"""What undo must restore exactly: the store as a person sees it (shared by the undo property
test and bench/undo_depth.py). Access counters and times are left out: undo does not rewind them."""

from __future__ import annotations

from memdesk.core import ops

NOT_COMPARED = {"access_count", "mention_count", "last_access_at", "created_at", "updated_at", "deleted_at", "version"}


def visible_state(store) -> dict:
    memories = {}
    for record in store.iter_records():
        fields = {k: v for k, v in vars(record).items() if k not in NOT_COMPARED}
        fields["in_trash"] = record.deleted_at is not None
        memories[record.id] = fields
    personas = {p.id: (p.name, p.description, p.colour, p.auto_save_memory) for p in store.personas()}
    return {
        "memories": memories,
        "personas": personas,
        "saved": ops.saved_searches(store),
        "switch": store.setting(ops.GLOBAL_SWITCH_KEY, True),
    }
