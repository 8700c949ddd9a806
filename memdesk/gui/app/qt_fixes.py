"""Work-arounds for bugs in the installed Qt binding, applied once on import.

PySide6-Essentials 6.12.0 returns None (from every void method: setText,
processEvents, QTimer.singleShot...) and True (from Signal.emit) without
adding a reference. On Python < 3.12, where these singletons are still
reference counted, each call drops one reference, and after a few thousand
calls the process aborts ("none_dealloc" / "bool_dealloc"). 6.11.x does not
do this (checked: 300 calls, counts unchanged), so pin PySide6-Essentials
below 6.12 or to a fixed release.

Until then we detect the leak (not the version number) and lift the three
singletons' reference counts far out of reach, as Python 3.12 does by making
them immortal. They are static objects that are never freed, so an
over-count costs nothing.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal

HEADROOM = 1 << 40


class _Probe(QObject):
    fired = Signal()


def singleton_leak() -> bool:
    probe = _Probe()
    before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(20):
        probe.setObjectName("probe")  # a void method: returns None
        probe.fired.emit()  # returns True
    return (sys.getrefcount(None), sys.getrefcount(True)) < before


def apply() -> bool:
    """Returns True when the work-around was needed (and applied)."""
    if sys.version_info >= (3, 12) or not singleton_leak():
        return False
    for singleton in (None, True, False):
        count = ctypes.c_ssize_t.from_address(id(singleton))  # ob_refcnt is the first field
        if count.value < HEADROOM:
            count.value += HEADROOM
    return True


APPLIED = apply()
