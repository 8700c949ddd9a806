"""A PostgreSQL store's calls when the server goes away (a restart, a network cut).

The rule, per Store call (the outermost one on its thread):
- Nothing was written yet (a read, or a write whose transaction had not begun): the dropped
  connection is replaced and the call runs again, with growing pauses, for up to
  RECONNECT_S; listeners hear "lost" at the first failure and "back" when a call succeeds.
- A write had begun: PostgreSQL rolls a transaction back when its connection dies, so the
  write is reported, never retried blindly: ConnectionLostError says it was not saved. If
  the connection died while COMMIT was on its way, the server may have committed it whole;
  the error says so, and the change feed will show it if it did. Never half-done either way.
SQLite stores are untouched by this.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import peewee

from .errors import DatabaseUnavailableError, MemDeskError
from .location import scrub

RECONNECT_S = 30.0
PAUSES = (0.1, 0.25, 0.5, 1.0, 2.0)


class ConnectionLostError(MemDeskError):
    """A write's connection to the server was lost; ``maybe_saved`` when COMMIT was in flight."""

    def __init__(self, message: str, *, maybe_saved: bool):
        self.maybe_saved = maybe_saved
        super().__init__(message)


class Reconnector:
    """Per store: the retry loop, and who to tell when the connection is lost and back."""

    def __init__(self, store):
        self.store = store
        self.listeners: list[Callable[[bool], None]] = []  # called with False (lost), True (back)
        self.lost = False
        self._local = threading.local()
        self._lock = threading.Lock()

    def _tell(self, connected: bool) -> None:
        with self._lock:
            if self.lost == (not connected):
                return
            self.lost = not connected
        for listener in list(self.listeners):
            listener(connected)

    def call(self, method, args, kwargs):
        if getattr(self._local, "active", False):
            return method(self.store, *args, **kwargs)  # an inner call: the outer one retries
        self._local.active = True
        try:
            return self._retrying(method, args, kwargs)
        finally:
            self._local.active = False

    def _retrying(self, method, args, kwargs):
        store, db = self.store, self.store._db
        deadline = time.monotonic() + RECONNECT_S
        attempt = 0
        while True:
            store._writing.stage = None
            try:
                result = method(store, *args, **kwargs)
            except (peewee.OperationalError, peewee.InterfaceError) as exc:
                if not db.connection_lost(exc):
                    raise
                stage = getattr(store._writing, "stage", None)
                db.drop_connection()
                self._tell(False)
                if stage is not None:
                    raise self._write_lost(stage, exc) from None
                if time.monotonic() >= deadline:
                    detail = scrub(" ".join(str(exc).split()), store.connect_target())
                    raise DatabaseUnavailableError(
                        f"lost the connection to {store.location} and could not reconnect within "
                        f"{RECONNECT_S:.0f} s ({detail})",
                        "unreachable",
                    ) from None
                time.sleep(PAUSES[min(attempt, len(PAUSES) - 1)])
                attempt += 1
                continue
            self._tell(True)
            return result

    def _write_lost(self, stage: str, exc: BaseException) -> ConnectionLostError:
        where = self.store.location
        if stage == "committing":
            return ConnectionLostError(
                f"the connection to {where} was lost as the change was being committed: the server either saved "
                "it whole or not at all; look before repeating it",
                maybe_saved=True,
            )
        return ConnectionLostError(
            f"the connection to {where} was lost during a write; the change was not saved (nothing of it was kept)",
            maybe_saved=False,
        )
