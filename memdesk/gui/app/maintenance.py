"""Running maintenance on the schedule the database asks for, in the background."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import QObject, QTimer, Signal

from memdesk.core.domain.times import now_utc, parse_time
from memdesk.gui.dialogs.settings import SCHEDULE_KEY

CHECK_EVERY_MS = 60 * 60 * 1000
DUE_AFTER = {"daily": timedelta(days=1), "weekly": timedelta(days=7)}


class MaintenanceScheduler(QObject):
    finished = Signal(object)  # RunReport

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self._ran_this_session = False
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_EVERY_MS)
        self._timer.timeout.connect(self.run_if_due)

    def start(self, first_check_ms: int) -> None:
        self._timer.start()
        QTimer.singleShot(first_check_ms, self.run_if_due)

    def stop(self) -> None:
        self._timer.stop()

    def due(self) -> bool:
        from memdesk.core.maintenance import last_reports

        schedule = self.session.store.setting(SCHEDULE_KEY, "daily")
        if schedule == "start":
            return not self._ran_this_session
        if schedule not in DUE_AFTER:
            return False
        reports = last_reports(self.session.store, 1)
        try:
            last = parse_time(reports[0].get("started_at")) if reports else None
        except ValueError:
            last = None
        return last is None or now_utc() - last >= DUE_AFTER[schedule]

    def run_if_due(self) -> None:
        if not self.session.taskman.lane_busy("db") and self.due():
            self.run()

    def run(self) -> None:
        store = self.session.store
        self._ran_this_session = True
        self.session.taskman.run(
            lambda cancel, progress: self._run(store, cancel, progress),
            label=self.tr("Maintenance"),
            lane="db",
            on_done=self._done,
            on_failed=self.session.report,
        )

    def _run(self, store, cancel, progress):
        from memdesk.core.maintenance import run_maintenance

        report = run_maintenance(store, cancel=cancel, progress=progress)
        self.session.feed.absorb(report.changes.memory_ids)  # db lane, like the feed's polls
        return report

    def _done(self, report) -> None:
        self.session.broadcast(report.changes)
        self.finished.emit(report)
