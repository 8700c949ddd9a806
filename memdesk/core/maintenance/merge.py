"""Merging memories into one: the user's decision, written in one transaction.

The merged memory gets the user's text, the originals' tags (union), their
most common group and type, the earliest creation time, and their summed
access and mention counts (so it is never colder than the parts it
replaces). Each original is then superseded by it with reason 'merge': it
keeps its history and stays reachable through the supersede chain. If any
step fails, nothing is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.errors import ValidationError
from memdesk.core.domain.heat import heat_and_tier
from memdesk.core.domain.times import now_utc
from memdesk.core.storage.models import Memory
from memdesk.core.writes import memories as memory_writes


def _check(records: dict, ids: list[str], expected_versions: dict | None) -> list:
    missing = [i for i in ids if i not in records]
    if missing:
        raise ValidationError("memory_ids", code="merge_member_gone", id=missing[0])
    originals = [records[i] for i in ids]
    for r in originals:
        if r.is_deleted or r.is_superseded:
            if r.is_deleted:
                raise ValidationError("memory_ids", code="merge_member_trashed", id=r.id)
            raise ValidationError("memory_ids", code="merge_member_superseded", id=r.id, by=r.superseded_by)
        if expected_versions is not None and expected_versions.get(r.id) not in (None, r.version):
            raise ValidationError("memory_ids", code="merge_member_edited", id=r.id)
    if len({r.persona_id for r in originals}) > 1:
        raise ValidationError("memory_ids", code="merge_personas_differ")
    return originals


def merge(
    store,
    memory_ids,
    *,
    content: str,
    title: str = "",
    tags=None,
    group: str | None = None,
    expected_versions: dict | None = None,
    after: Callable[[], object] | None = None,
) -> tuple[str, Changes]:
    """Merge ``memory_ids`` (at least two) into one memory: (merged id, changes).

    ``after`` runs inside the same transaction (the inbox drops its proposal there).
    """
    ids = list(dict.fromkeys(memory_ids))
    if len(ids) < 2:
        raise ValidationError("memory_ids", code="merge_too_few")
    with store.write():
        originals = _check(store.get_many(ids), ids, expected_versions)
        fields = {
            "content": content,
            "title": title or "",
            "tags": list(dict.fromkeys(tags if tags is not None else [t for r in originals for t in r.tags])),
            "group": group if group is not None else Counter(r.group for r in originals).most_common(1)[0][0],
            "type": Counter(r.type for r in originals).most_common(1)[0][0],
            "scope": "long_term" if any(r.scope == "long_term" for r in originals) else "short_term",
            "persona_id": originals[0].persona_id,
            "summary": next((r.summary for r in originals if r.summary), ""),
            "created_at": min(r.created_at for r in originals),
            "source": "manual",
        }
        chosen = [r.importance for r in originals if r.importance_set]
        if chosen:  # otherwise it stays automatic and maintenance scores the merged text
            fields["importance"] = max(chosen)
        expiries = [r.expires_at for r in originals]
        if all(expiries):
            fields["expires_at"] = max(expiries)
        changes = memory_writes.add(fields)
        merged_id = changes.added[0]
        for original in originals:
            changes = changes | memory_writes.supersede(original.id, new_id=merged_id, fields={}, reason="merge")
        keys = {r.dedup_key for r in originals if r.dedup_key}
        use = {
            "access_count": sum(r.access_count for r in originals),
            "mention_count": sum(r.mention_count for r in originals),
        }
        last = [r.last_access_at for r in originals if r.last_access_at]
        heat, tier = heat_and_tier(fields["created_at"], use["access_count"], use["mention_count"], now=now_utc())
        values = dict(use, heat=heat, tier=tier, last_access_at=max(last) if last else None)
        if len(keys) == 1:  # free now that the originals are superseded
            values["dedup_key"] = keys.pop()
        Memory.update(**values).where(Memory.id == merged_id).execute()
        if after is not None:
            after()
    return merged_id, changes
