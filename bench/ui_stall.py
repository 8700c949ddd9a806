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
        self._last = 0.0
        self._timer = QTimer()
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest_ms = max(self.longest_ms, (now - self._last) * 1000 - INTERVAL_MS)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> float:
        self._timer.stop()
        return self.longest_ms
