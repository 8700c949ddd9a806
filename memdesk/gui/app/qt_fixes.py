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

PySide6 also replaces ``__import__``: after every import it asks whether the new
module's source mentions "PySide6" (for its opt-in ``from __feature__ import``
syntax), through inspect.getsource. That tokenises each module's whole source on
whichever thread imported it and keeps every line in linecache: the window's
start imports ~360 modules on its worker threads, ~150 ms of GIL-holding work
beside the UI thread and ~6 MB of source text kept. quiet_feature_scan gives the
same answer from the file's bytes.
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


def _mentions_pyside(module) -> bool:
    """The feature scan's answer: does the module's source file mention PySide6? A module
    without a .py source (extension, frozen, bundled bytecode) gets no (the original's
    inspect.getsource fails on those and answers no as well)."""
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return False
    try:
        with open(path, "rb") as handle:
            return b"PySide6" in handle.read()
    except OSError:
        return False


def quiet_feature_scan() -> bool:
    """Swap PySide6's post-import source scan for _mentions_pyside. Returns True when done
    (False when this PySide6 has no such scan)."""
    try:
        from PySide6.support import feature
    except ImportError:
        return False
    if not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = _mentions_pyside
    return True


APPLIED = apply()
QUIET_SCAN = quiet_feature_scan()
