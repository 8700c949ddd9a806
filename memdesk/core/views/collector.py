"""Building a large, long-lived structure without the cyclic collector's full passes.

Each object a bulk read keeps (a brief per memory) is one more for every full
collection to walk, and a full pass comes each time a quarter more have piled up.
Loading a million briefs ran several, the last ones 150-370 ms each with the GIL
held: the window's UI thread froze for as long. The collector waits meanwhile;
what it finds afterwards it finds the same. Nested and threaded uses share one
pause: collection resumes when the last one ends (if it was on before the first).
The window's tree now keeps columns, not a brief per memory (brief_table.py); the
listing still pauses, for callers that keep what it returns (load_briefs).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = True


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
