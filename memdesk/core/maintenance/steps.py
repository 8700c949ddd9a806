"""What every maintenance task shares: the cancel check and id batches.

A task reads first, then writes in one transaction; cancel is checked
between batches and raising CancelledError inside the transaction rolls all
of that task's writes back, so a cancelled task leaves the store as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from memdesk.core.domain.errors import CancelledError

BATCH = 500
Cancel = Callable[[], bool]
Progress = Callable[[int, int], None]


def never() -> bool:
    return False


def ignore(done: int, total: int) -> None:
    pass


def check(cancel: Cancel, what: str = "task") -> None:
    if cancel():
        raise CancelledError(code="task_cancelled", task=what)


def batches(ids: Iterable[str], size: int = BATCH) -> Iterator[list[str]]:
    ids = list(ids)
    for start in range(0, len(ids), size):
        yield ids[start : start + size]
