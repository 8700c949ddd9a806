"""Waking the window the moment another process commits, so it reads the change feed then.

On PostgreSQL a thread of its own blocks in the core's LISTEN waiter (feed_wait.PgWaiter: its
own connection; a NOTIFY arrives within milliseconds, from any machine) and tells the session
"poll now". The feed table stays the truth: the session polls on its db lane as before, and a
missed wake-up only waits for its slow fallback poll. SQLite keeps the session's 250 ms poll:
its waiter would itself read data_version every 50 ms, more work at idle, not less.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QObject, Signal

from memdesk.core.feed.wait import waiter_for

log = logging.getLogger(__name__)
THREAD_NAME = "memdesk-feed-wake"
WAIT_S = 60.0  # one wait's bound; cancel ends it at once, so closing never waits for it
JOIN_S = 2.0  # a connect in progress may take libpq's connect_timeout; the thread then ends alone


class FeedWaker(QObject):
    woken = Signal()  # emitted on the waker's thread: connect it queued

    def __init__(self, store, parent=None):
        super().__init__(parent)
        self._waiter = waiter_for(store, store.connect_target())
        self._stopping = threading.Event()
        # A plain thread, not a QThread: it runs no event loop, it only blocks in the core's wait.
        self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            self._waiter.wait(0)  # LISTEN, then the first poll: no commit falls between them
            heard = True
            while not self._stopping.is_set():
                if heard:
                    self.woken.emit()
                heard = self._waiter.wait(WAIT_S)
        except Exception:  # noqa: BLE001 - a bug here must not end the process; the fallback poll goes on
            log.exception("the change-feed waker stopped")
        finally:
            self._waiter.close()  # here: the connection is this thread's, never closed under its wait

    def stop(self) -> bool:
        """End the thread and its connection; True when it has ended within JOIN_S."""
        self._stopping.set()
        self._waiter.cancel()
        if self._thread.ident is None:  # never started: nothing else will close it
            self._waiter.close()
            return True
        self._thread.join(JOIN_S)
        if self._thread.is_alive():
            log.warning("the change-feed waker is still connecting; it closes when that ends")
            return False
        return True

    @property
    def running(self) -> bool:
        return self._thread.is_alive()
