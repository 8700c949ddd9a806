"""An import run in a child process.

Parsing a large JSON file (json.loads is one C call) and preparing ten
thousand rows hold the GIL for long stretches; in a thread of the window's
process they would freeze it for a tenth of a second at a time. The child
plans the import and sends back only what the preview shows, then waits:
"apply" writes the plan (the operation, with its undo step, comes back),
closing the pipe drops it. SQLite lets both processes use the file.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from memdesk.core.domain.errors import MemDeskError

_CONTEXT = multiprocessing.get_context("spawn")  # never fork a process that runs Qt
CHUNK = 1000  # plan rows per message


def _send_plan(conn, plan) -> None:
    # Plain tuples in chunks: unpickling 10k objects at once would hold the window's GIL.
    rows = [(i.index, i.status, i.memory_id, i.reason, i.title, i.persona_id, i.code, i.params) for i in plan.items]
    chunks = [rows[start : start + CHUNK] for start in range(0, len(rows), CHUNK)] or [[]]
    for n, chunk in enumerate(chunks):
        last = n == len(chunks) - 1
        about = (plan.unknown_personas, plan.persona_names, plan.new_personas) if last else None
        conn.send(("planned" if last else "rows", plan.format, plan.source, chunk, about))


def _child(conn, db_path: str, file_path: str, language: str = "en") -> None:
    from memdesk.core import ops as operations
    from memdesk.core.domain.errors import ValidationError
    from memdesk.core.io.plan import plan_file
    from memdesk.core.store import Store

    store = None
    try:
        store = Store.open(db_path)
        choices: dict = {}
        plan = plan_file(store, file_path, language=language)
        _send_plan(conn, plan)
        while True:
            command = conn.recv()
            if command[0] == "replan":  # the user mapped the file's personas differently
                try:
                    plan = plan_file(store, file_path, choices=command[1], language=language)
                except ValidationError as exc:  # a bad choice: say so, keep the last plan
                    conn.send(("refused", str(exc), exc.code, exc.params))
                    continue
                choices = command[1]
                _send_plan(conn, plan)
            elif command[0] == "apply":
                if command[2] != choices:  # the plan written is the one for the final choices
                    plan = plan_file(store, file_path, choices=command[2], language=language)
                result = operations.import_plan(store, plan=plan, on_conflict=command[1])
                conn.send(("applied", result.changes, result.undo, result.value))
                break
            else:
                break
    except EOFError:
        pass  # the window dropped the import
    except MemDeskError as exc:
        conn.send(("error", type(exc).__name__, str(exc), exc.code, exc.params))
    except Exception as exc:  # noqa: BLE001 - reported to the window, which shows it
        conn.send(("crash", type(exc).__name__, str(exc)))
    finally:
        if store is not None:
            store.close()
        conn.close()


class ImportFailed(MemDeskError):
    """An import failed in the child process; the message is the child's."""


class ImportProcess:
    """One file's import: plan() then apply() or close(); both block (call them on a worker)."""

    def __init__(self, db_path, file_path, language: str = "en"):
        self.file_path = Path(file_path)
        self._conn, child_conn = _CONTEXT.Pipe()
        self._process = _CONTEXT.Process(
            target=_child,
            args=(child_conn, str(db_path), str(file_path), language),
            daemon=False,
            name="memdesk-import",
        )
        # Not a daemon: a daemon may not have children, and the store cuts a bulk write's text in
        # worker processes (search.indexer.cut_many), so a 1,000+ memory import failed with
        # "daemonic processes are not allowed to have children". The child still ends with the
        # window: it exits when its pipe closes (EOFError), which the window's death does too.
        self._process.start()
        child_conn.close()

    def _receive(self, cancel=lambda: False):
        while not self._conn.poll(0.05):
            if cancel() or not self._process.is_alive() and not self._conn.poll(0):
                self.close()
                raise MemDeskError(f"the import of {self.file_path.name} stopped")
        message = self._conn.recv()
        if message[0] == "error":  # the child's MemDeskError, with its code for the window's words
            self.close()
            raise ImportFailed(message[2], code=message[3], **message[4])
        if message[0] == "crash":
            self.close()
            raise ImportFailed(message[2])
        return message

    def plan(self, cancel=lambda: False):
        """The plan as the preview needs it (items without their field values)."""
        from memdesk.core.io.plan import ImportPlan, PlanItem

        items = []
        while True:
            message = self._receive(cancel)
            if message[0] == "refused":
                raise ImportFailed(message[1], code=message[2], **message[3])
            kind, fmt, source, rows, about = message
            items.extend(
                PlanItem(i, status, mid, reason, title=title, persona_id=persona, code=code, params=params)
                for i, status, mid, reason, title, persona, code, params in rows
            )
            if kind == "planned":
                unknown, names, create = about
                return ImportPlan(fmt, source, items, create, unknown_personas=unknown, persona_names=names)

    def replan(self, choices: dict, cancel=lambda: False):
        """The plan again, with the file's unknown personas going where ``choices`` say."""
        self._conn.send(("replan", dict(choices)))
        return self.plan(cancel)

    def apply(self, on_conflict: str, choices: dict | None = None):
        """Write the plan (for these persona choices); returns (Changes, undo operation, count)."""
        self._conn.send(("apply", on_conflict, dict(choices or {})))
        _, changes, undo, value = self._receive()
        self.close()
        return changes, undo, value

    def close(self) -> None:
        try:
            self._conn.close()
        finally:
            self._process.join(timeout=5)
            if self._process.is_alive():
                self._process.kill()
