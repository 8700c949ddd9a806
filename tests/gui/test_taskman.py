"""The task manager: results and errors come back on the UI thread; cancel; lanes."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QCoreApplication, QThread

from memdesk.core.domain.errors import CancelledError
from memdesk.gui.app.taskman import TaskManager


@pytest.fixture
def taskman(qtbot):
    manager = TaskManager()
    yield manager
    manager.shutdown()


def test_result_and_progress_arrive_on_the_ui_thread(qtbot, taskman):
    seen = []
    ui = QThread.currentThread()

    def job(cancel, progress):
        seen.append(threading.current_thread() is threading.main_thread())
        for i in range(3):
            progress(i + 1, 3)
        return 42

    task = taskman.run(job, label="job", lane="work")
    progress = []
    task.progressed.connect(lambda done, total: progress.append((done, total, QThread.currentThread() is ui)))
    with qtbot.waitSignal(task.succeeded) as blocker:
        pass
    assert blocker.args == [42] and seen == [False]
    assert progress and progress[-1] == (3, 3, True)  # throttled, but the last one always arrives
    assert not taskman.tasks()


def test_errors_reach_the_failed_signal(qtbot, taskman):
    def job(cancel, progress):
        raise ValueError("broken")

    task = taskman.run(job, label="job")
    with qtbot.waitSignal(task.failed) as blocker:
        pass
    assert isinstance(blocker.args[0], ValueError)


def test_cancel_is_cooperative(qtbot, taskman):
    started = threading.Event()

    def job(cancel, progress):
        started.set()
        while not cancel():
            time.sleep(0.005)
        raise CancelledError()

    task = taskman.run(job, label="long", lane="work")
    started.wait(5)
    with qtbot.waitSignal(task.failed) as blocker:
        task.cancel()
    assert isinstance(blocker.args[0], CancelledError)


def test_db_lane_runs_one_task_at_a_time(qtbot, taskman):
    running, overlap = [0], []
    lock = threading.Lock()

    def job(cancel, progress):
        with lock:
            running[0] += 1
            overlap.append(running[0])
        time.sleep(0.01)
        with lock:
            running[0] -= 1

    tasks = [taskman.run(job, label=str(i), lane="db") for i in range(4)]
    assert taskman.lane_busy("db")
    with qtbot.waitSignals([t.finished for t in tasks], timeout=10000):
        pass
    assert max(overlap) == 1 and not taskman.lane_busy("db")


def test_a_result_arriving_after_shutdown_reaches_no_callback(qtbot, taskman):
    """A switch to another database shuts the old session's manager down: a task that ends
    then must not run its callback against the closed store and views."""

    def until_shutdown(cancel):  # ends once shutdown asks, so while shutdown waits for the threads
        while not cancel():
            time.sleep(0.005)
        return True

    done, failed = [], []
    taskman.run(lambda cancel, progress: until_shutdown(cancel) and "late", label="job", on_done=done.append)
    taskman.run(lambda cancel, progress: until_shutdown(cancel) and 1 / 0, label="job", on_failed=failed.append)
    assert taskman.shutdown()
    QCoreApplication.sendPostedEvents()  # the results' queued deliveries are processed here
    QCoreApplication.processEvents()
    assert done == [] and failed == [] and not taskman.tasks()


def test_a_lane_thread_keeps_its_store_connection_from_task_to_task(qtbot, taskman, store):
    """A QThreadPool thread ran each task in a fresh Python thread state: every task opened a
    SQLite connection of its own, and a search read its pages cold."""
    connections = []
    for _ in range(3):
        task = taskman.run(lambda cancel, progress: store.connection(), label="job", lane="search")
        with qtbot.waitSignal(task.succeeded) as blocker:
            pass
        connections.append(blocker.args[0])
    assert connections[0] is connections[1] is connections[2]
    assert connections[0] is not store.connection()  # the lane's own, not the UI thread's


def test_shutdown_ends_the_lane_threads(qtbot, taskman):
    threads = set()

    def job(cancel, progress):
        threads.add(threading.current_thread())
        time.sleep(0.02)

    tasks = [taskman.run(job, label=str(i), lane=lane) for i, lane in enumerate(("work", "work", "db", "search"))]
    with qtbot.waitSignals([t.finished for t in tasks], timeout=10000):
        pass
    assert len(threads) >= 3 and all(t.is_alive() for t in threads)  # kept between tasks
    assert taskman.shutdown()
    assert not [t for t in threads if t.is_alive()]


def test_an_idle_lane_thread_ends_and_a_new_one_takes_the_next_job(qtbot, monkeypatch):
    from memdesk.gui.app import lanes

    monkeypatch.setattr(lanes, "IDLE_S", 0.05)
    lane, ran = lanes.Lane("test", 1), []
    lane.start(lambda: ran.append(threading.current_thread()))
    assert lane.wait(5)
    qtbot.waitUntil(lambda: not ran[0].is_alive(), timeout=5000)
    lane.start(lambda: ran.append(threading.current_thread()))
    assert lane.wait(5) and len(ran) == 2 and ran[1] is not ran[0]
    lane.stop()


def test_a_lane_stopped_while_a_job_runs_runs_every_later_job(qtbot, monkeypatch):
    """stop() with a job running, then start(): the later jobs run, also after the old thread ended."""
    from memdesk.gui.app import lanes

    monkeypatch.setattr(lanes, "IDLE_S", 0.05)
    lane, gate, ran = lanes.Lane("test", 1), threading.Event(), []
    lane.start(lambda: (ran.append(threading.current_thread()), gate.wait(10)))
    qtbot.waitUntil(lambda: len(ran) == 1, timeout=5000)
    lane.stop()
    lane.start(lambda: ran.append(threading.current_thread()))
    gate.set()
    qtbot.waitUntil(lambda: len(ran) == 2, timeout=5000)
    qtbot.waitUntil(lambda: not any(t.is_alive() for t in ran), timeout=5000)  # both ended when idle
    lane.start(lambda: ran.append(threading.current_thread()))
    qtbot.waitUntil(lambda: len(ran) == 3, timeout=5000)
    assert lane.wait(5)
    lane.stop()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.sampled_from(["job", "held job", "stop", "release", "idle"]), max_size=12))
def test_every_job_runs_whatever_the_stops(qtbot, monkeypatch, steps):
    """Any mix of jobs, stops, held jobs and idle ends: every job started runs, and the lane ends idle."""
    from memdesk.gui.app import lanes

    monkeypatch.setattr(lanes, "IDLE_S", 0.02)
    lane, ran, gates, started = lanes.Lane("test", 2), [], [], 0
    for step in steps:
        if step == "stop":
            lane.stop()
        elif step == "release" and gates:
            gates.pop(0).set()
        elif step == "idle":  # every thread of the lane ends on its own
            for gate in gates:
                gate.set()
            gates.clear()
            qtbot.waitUntil(lambda: not [t for t in threading.enumerate() if t.name.startswith("memdesk-test-")])
        elif step in ("job", "held job"):
            gate = threading.Event()
            if step == "held job":
                gates.append(gate)
            else:
                gate.set()
            lane.start(lambda g=gate: (g.wait(10), ran.append(1)))
            started += 1
    for gate in gates:
        gate.set()
    qtbot.waitUntil(lambda: len(ran) == started, timeout=5000)
    assert lane.wait(5)
    lane.stop()
