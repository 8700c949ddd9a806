"""A task manager lane: up to ``size`` Python threads taking jobs from one queue.

Python threads, so each keeps one thread state for its life, and with it what it
keeps per thread: the store's SQLite connection and that connection's page cache.
A QThreadPool's threads are not Python's; each task ran in a fresh thread state, and
opened (and dropped) a connection of its own: at 100k memories a search on a new
connection read its pages cold and took twice the CPU of one on a warm connection.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

IDLE_S = 120.0  # a pause in typing keeps the search thread's warm connection


class Lane:
    """Jobs go to the current crew: a queue and the threads that take from it. stop() hands the
    crew its end (one None per thread, after the jobs queued so far) and starts a new, empty
    one, so a thread that is still busy with an old job never takes a later job's place, nor
    its end marker a later thread's."""

    def __init__(self, name: str, size: int):
        self.name, self.size = name, size
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []  # the current crew's
        self._crew_unfinished = 0  # the current crew's jobs, queued or running
        self._unfinished = 0  # every crew's
        self._state = threading.Condition()

    def start(self, job: Callable[[], None]) -> None:
        """Run ``job()`` on one of the lane's threads (a new one while all are busy)."""
        with self._state:
            self._unfinished += 1
            self._crew_unfinished += 1
            if len(self._threads) < min(self.size, self._crew_unfinished):
                thread = threading.Thread(
                    target=self._work,
                    args=(self._jobs,),
                    name=f"memdesk-{self.name}-{len(self._threads) + 1}",
                    daemon=True,
                )
                self._threads.append(thread)
                thread.start()
            self._jobs.put(job)  # under the lock: an idle thread decides to end under it too

    def _work(self, jobs: queue.SimpleQueue[Callable[[], None] | None]) -> None:
        while True:
            try:
                job = jobs.get(timeout=IDLE_S)
            except queue.Empty:
                with self._state:
                    if jobs.empty():
                        if threading.current_thread() in self._threads:  # (not after stop)
                            self._threads.remove(threading.current_thread())
                        return
                continue
            if job is None:
                return
            try:
                job()  # reports its own outcome (taskman's _Runnable catches everything)
            finally:
                with self._state:
                    self._unfinished -= 1
                    if jobs is self._jobs:
                        self._crew_unfinished -= 1
                    self._state.notify_all()

    def wait(self, timeout_s: float) -> bool:
        """Block until no job is queued or running; False when ``timeout_s`` ran out first."""
        with self._state:
            return self._state.wait_for(lambda: self._unfinished == 0, timeout_s)

    def stop(self) -> None:
        """Let the threads end once the jobs queued before this are done (a later start
        makes new ones). Joined when the lane is idle, else left to finish on their own."""
        with self._state:
            jobs, threads = self._jobs, self._threads
            self._jobs, self._threads, self._crew_unfinished = queue.SimpleQueue(), [], 0
            idle = self._unfinished == 0
            for _ in threads:
                jobs.put(None)
        if idle:
            for thread in threads:
                thread.join(5)
