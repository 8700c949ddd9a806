"""A maintenance run's report (memdesk.core.maintenance.report, stored as JSON) in words.

Each task's counts become one sentence in the user's language, with local
times; the stored JSON stays what `memdesk maintain --report --json` prints.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QLocale, QObject

from memdesk.core.domain.times import parse_time


class ReportWords(QObject):
    """The words; a QObject so that lupdate reads its tr() calls, %n plurals included."""

    def task_names(self) -> dict[str, str]:
        return {
            "expire": self.tr("Expired memories"),
            "purge_trash": self.tr("Emptying the trash"),
            "duplicates": self.tr("Exact duplicates"),
            "consolidate": self.tr("Merge proposals"),
            "heat": self.tr("Heat and tiers"),
            "importance": self.tr("Importance"),
            "reembed": self.tr("Vectors for meaning search"),
            "search_index": self.tr("Search index"),
            "prune_feed": self.tr("Change log"),
            "optimize": self.tr("Database file"),
        }

    def task_sentence(self, task: dict) -> str:
        """What one task did, as a sentence ("2 short-term memories expired and went to the trash")."""
        name, status, c = task.get("name", ""), task.get("status", ""), task.get("counts") or {}
        if status == "skipped":
            if "cancelled" in (task.get("message") or ""):
                return self.tr("Not run: the run was cancelled")
            if name == "reembed":
                return self.tr("Not needed: no embedding model is in use")
            return self.tr("Not run")
        if status == "cancelled":
            return self.tr("Cancelled; what it had done was undone")
        if status == "failed":
            return self.tr("Failed: {message}").format(message=task.get("message", ""))
        n = {key: int(value or 0) for key, value in c.items() if isinstance(value, (int, float))}
        also = self.tr("; ")
        if name == "expire":
            return self.tr("%n expired short-term memories moved to the trash", "", n.get("expired_to_trash", 0))
        if name == "purge_trash":
            return self.tr("%n memories deleted for good after their days in the trash", "", n.get("purged", 0))
        if name == "duplicates":
            return self.tr("%n groups of memories with the same text", "", n.get("groups", 0))
        if name == "consolidate":
            return self.tr("%n merge proposals to review", "", n.get("proposals", 0))
        if name == "heat":
            return (
                self.tr("Heat recomputed for %n memories", "", n.get("checked", 0))
                + also
                + self.tr("%n moved to another tier", "", n.get("tier_moves", 0))
            )
        if name == "importance":
            return (
                self.tr("Importance estimated again for %n memories", "", n.get("scored", 0))
                + also
                + self.tr("%n changed", "", n.get("changed", 0))
            )
        if name == "reembed":
            return self.tr("Vectors computed for %n memories", "", n.get("embedded", 0))
        if name == "search_index":
            return self.tr("%n memories brought up to date in the index", "", n.get("changed_memories", 0))
        if name == "prune_feed":
            return self.tr("%n old entries removed", "", n.get("removed", 0))
        if name == "optimize":
            return self.tr("Compacted and checked")
        return self.tr("Done")

    @staticmethod
    def local_time(value) -> str:
        try:
            at = parse_time(value) if isinstance(value, str) else value
        except ValueError:
            return str(value or "")
        return at.astimezone().strftime("%Y-%m-%d %H:%M") if at is not None else ""

    def seconds_text(self, seconds) -> str:
        if seconds is None:
            return "—"
        if float(seconds) < 0.1:
            return self.tr("less than 0.1 s")  # "0.0 s" reads as a run that did nothing
        return self.tr("{seconds} s").format(seconds=QLocale().toString(float(seconds), "f", 1))

    def report_html(self, report: dict | None) -> str:
        if not report:
            return "<p>{}</p>".format(html.escape(self.tr("Maintenance has not run on this database yet.")))
        head = self.tr("Started {when}, took {seconds}.").format(
            when=self.local_time(report.get("started_at")), seconds=self.seconds_text(report.get("seconds"))
        )
        names = self.task_names()
        rows = []
        for task in report.get("tasks", []):
            mark = {"done": "✓", "skipped": "–"}.get(task.get("status"), "✗")
            colour = "#b00020" if task.get("status") in ("failed", "cancelled") else "#222"
            name = html.escape(names.get(task.get("name"), task.get("name", "")))
            rows.append(
                f'<tr><td style="color:{colour}">{mark}</td><td><b>{name}</b></td>'
                f'<td style="color:{colour}">{html.escape(self.task_sentence(task))}</td></tr>'
            )
        return f"<p>{html.escape(head)}</p><table cellspacing='0' cellpadding='4'>{''.join(rows)}</table>"

    def report_summary(self, report: dict | None) -> str:
        """One line for Settings › Maintenance: when, and how many tasks did their work."""
        if not report:
            return self.tr("Maintenance has not run on this database yet.")
        tasks = report.get("tasks", [])
        done = sum(1 for t in tasks if t.get("status") == "done")
        line = self.tr("{when}: %n of {total} tasks done", "", done).format(
            when=self.local_time(report.get("started_at")), total=len(tasks)
        )
        failed = [self.task_names().get(t.get("name"), t.get("name")) for t in tasks if t.get("status") == "failed"]
        if failed:
            line += self.tr(" (failed: {names})").format(names=self.tr(", ").join(failed))
        return line


def report_html(report: dict | None) -> str:
    return ReportWords().report_html(report)


def report_summary(report: dict | None) -> str:
    return ReportWords().report_summary(report)
