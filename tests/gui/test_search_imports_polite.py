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


def test_a_lane_import_goes_through_it_and_removes_it(tmp_path):
    """In a fresh interpreter, as at the window's start: a worker thread loads the search
    modules; the finder was asked for (at least) the engine, and is gone afterwards."""
    script = textwrap.dedent(
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
        worker = threading.Thread(target=sb._core_search)
        worker.start(); worker.join()
        assert "memdesk.core.search.engine" in sys.modules
        assert ("memdesk.core.search.engine", True) in asked, asked[:5]
        assert not any(isinstance(f, Recording) for f in sys.meta_path)
        print("ok", len(asked))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
