"""The window's search lane loads the core's search modules politely (search_backend._Polite):
it lets go of the GIL before each module, and leaves the import system as it found it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time

from memdesk.gui.browser import search_backend


def test_the_finder_yields_on_its_own_thread_only_and_finds_nothing(monkeypatch):
    slept = []
    monkeypatch.setattr(time, "sleep", slept.append)
    polite = search_backend._Polite(threading.get_ident())
    assert polite.find_spec("anything") is None  # the real finders find the module
    assert slept == [search_backend.IMPORT_YIELD_S]
    other = threading.Thread(target=polite.find_spec, args=("anything",))
    other.start()
    other.join()
    assert slept == [search_backend.IMPORT_YIELD_S]  # another thread's imports are not slowed


SCRIPT = textwrap.dedent(
    """
    import sys, threading
    from memdesk.gui.browser import search_backend as sb
    asked = []
    class Recording(sb._Polite):
        def find_spec(self, name, path=None, target=None):
            asked.append((name, threading.get_ident() == self.thread))
            return super().find_spec(name, path, target)
    sb._Polite = Recording
    assert "memdesk.core.search.engine" not in sys.modules
    if sys.argv[1] == "lane":
        worker = threading.Thread(target=sb._core_search)
        worker.start(); worker.join()
    else:
        sb._core_search()  # on the UI thread
    assert "memdesk.core.search.engine" in sys.modules
    assert not any(isinstance(f, Recording) for f in sys.meta_path)
    print(sorted({name for name, own in asked if own}))
    """
)


def _modules_asked_for(where: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT, where], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_lane_import_goes_through_it_and_removes_it():
    """In a fresh interpreter, as at the window's start: a worker thread loads the search
    modules through the finder (the engine among them), and it is gone afterwards."""
    assert "'memdesk.core.search.engine'" in _modules_asked_for("lane")


def test_the_ui_thread_loads_them_without_it():
    """The UI thread is the one to let in: it never waits for itself."""
    assert _modules_asked_for("ui").strip() == "[]"
