"""The history a MemDesk file carries for its memories, written with them on import
(well-formed revisions only; the rest of the file is checked by the plan)."""

from __future__ import annotations

import json

from memdesk.core.domain.records import REVISION_REASONS
from memdesk.core.domain.times import now_utc, parse_time
from memdesk.core.storage.models import Revision


def copy_revisions(pairs) -> None:
    """Insert the revisions of each (new memory id, the file's revisions) pair."""
    rows = []
    for memory_id, revisions in pairs:
        for rev in revisions or []:
            if not isinstance(rev, dict):
                continue
            try:
                at = parse_time(rev.get("at"), field="revision at") or now_utc()
            except ValueError:
                continue
            before, after = rev.get("before"), rev.get("after")
            if not isinstance(before, dict) or not isinstance(after, dict):
                continue
            rows.append(
                {
                    "memory": memory_id,
                    "at": at,
                    "reason": rev.get("reason") if rev.get("reason") in REVISION_REASONS else "import",
                    "version": rev.get("version") if isinstance(rev.get("version"), int) else 1,
                    "before": json.dumps(before, ensure_ascii=False),
                    "after": json.dumps(after, ensure_ascii=False),
                }
            )
    for start in range(0, len(rows), 200):
        Revision.insert_many(rows[start : start + 200]).execute()
