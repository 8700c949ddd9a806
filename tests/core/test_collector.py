"""collector.paused: the cyclic collector waits while a large structure is built, then resumes."""

import gc
import threading

from memdesk.core.views import collector


def test_a_pause_resumes_collection_after_the_last_of_nested_and_threaded_uses():
    assert gc.isenabled()
    entered, release = threading.Event(), threading.Event()

    def other_thread():
        with collector.paused():
            entered.set()
            release.wait(5)

    worker = threading.Thread(target=other_thread)
    with collector.paused():
        assert not gc.isenabled()
        worker.start()
        assert entered.wait(5)
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other thread's pause is still on
    release.set()
    worker.join(5)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_still_resumes_collection():
    try:
        with collector.paused():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()
