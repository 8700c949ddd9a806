"""The longest UI stall: gaps between ticks of a 5 ms QTimer on the UI thread, minus the interval.

Shared by the benches that open the real window (cold_start, gui_speed, live_sync).
"""

from __future__ import annotations

import time

INTERVAL_MS = 5


class StallMeter:
    def __init__(self):
        from PySide6.QtCore import QTimer

        self.longest_ms = 0.0
        self._last: float | None = None
        self._timer = QTimer()
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.longest_ms = max(self.longest_ms, (now - self._last) * 1000 - INTERVAL_MS)
        self._last = now

    def start(self, *, from_first_tick: bool = False) -> None:
        """Count from now, or (from_first_tick) from the event loop's first turn: work done
        before a window is shown, with no loop running yet, is start-up, not a stall."""
        self._last = None if from_first_tick else time.perf_counter()
        self._timer.start()

    def stop(self) -> float:
        self._timer.stop()
        return self.longest_ms
