"""What a maintenance run did, kept in the database for the GUI and `memdesk maintain --report`.

Reports live in the settings table (key maintenance.last_reports, newest
first, the last KEEP runs), so no schema change was needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.times import now_utc, to_iso

KEY = "maintenance.last_reports"
KEEP = 20
MAX_LISTED = 100  # long lists (ids, groups) are cut in the stored copy
STATUSES = ("done", "cancelled", "failed", "skipped")


@dataclass
class TaskReport:
    name: str
    status: str = "done"
    seconds: float = 0.0
    counts: dict = field(default_factory=dict)  # what changed or was found, by kind
    details: dict = field(default_factory=dict)  # e.g. duplicate groups, tier moves
    message: str = ""
    changes: Changes = field(default_factory=Changes)  # for the search index and views; not stored

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "status": self.status,
            "seconds": round(self.seconds, 3),
            "counts": dict(self.counts),
            "details": _trimmed(self.details),
            "message": self.message,
        }


@dataclass
class RunReport:
    started_at: datetime
    finished_at: datetime | None = None
    tasks: list[TaskReport] = field(default_factory=list)

    @property
    def cancelled(self) -> bool:
        return any(t.status == "cancelled" for t in self.tasks)

    @property
    def ok(self) -> bool:
        return all(t.status in ("done", "skipped") for t in self.tasks)

    @property
    def changes(self) -> Changes:
        """Every task's changes together: hand this to the search engine and the views."""
        total = Changes()
        for task in self.tasks:
            total = total | task.changes
        return total

    def task(self, name: str) -> TaskReport | None:
        return next((t for t in self.tasks if t.name == name), None)

    def to_json(self) -> dict:
        seconds = (self.finished_at - self.started_at).total_seconds() if self.finished_at else None
        return {
            "started_at": to_iso(self.started_at),
            "finished_at": to_iso(self.finished_at),
            "seconds": round(seconds, 3) if seconds is not None else None,
            "cancelled": self.cancelled,
            "ok": self.ok,
            "tasks": [t.to_json() for t in self.tasks],
        }


def _trimmed(value):
    if isinstance(value, dict):
        return {k: _trimmed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_trimmed(v) for v in list(value)[:MAX_LISTED]]
        if len(value) > MAX_LISTED:
            items.append(f"… {len(value) - MAX_LISTED} more")
        return items
    if isinstance(value, datetime):
        return to_iso(value)
    return value


def save_report(store, report: RunReport) -> None:
    kept = last_reports(store)
    store.set_setting(KEY, [report.to_json()] + kept[: KEEP - 1])


def last_reports(store, limit: int | None = None) -> list[dict]:
    """Stored run reports, newest first (plain dicts, as to_json wrote them)."""
    value = store.setting(KEY, [])
    reports = [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []
    return reports[:limit] if limit else reports


def new_run() -> RunReport:
    return RunReport(started_at=now_utc())
