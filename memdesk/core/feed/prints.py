"""The feed reader's fingerprint of every memory, kept compactly.

As a dict of id -> (fingerprint, in the trash) it cost ~250 bytes a memory (an id
string, a tuple, an int): 250 MB of a window at a million memories. Here the first
look is three numpy arrays, 24 bytes a memory: two independent 64-bit hashes of
each id (sorted by the first) and its fingerprint; what changed since is a small
dict. Two ids would have to share both hashes to be mistaken for each other (about
1 in 10^26 lookups at a million memories); when two stored ids do, the first look
is kept as a plain dict, as before.

Fingerprints are stored with their lowest bit as the trash flag, so the reader
compares them without it (feed.FeedReader clears it on every fingerprint).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable

Print = tuple[int, bool]  # (fingerprint with its lowest bit clear, in the trash)
Key = Callable[[str], int]


def _check(memory_id: str) -> int:
    """A second hash of the id, independent of hash(id) (SipHash of another string)."""
    return hash(memory_id + "\x1f")


class Prints:
    def __init__(self, rows: Callable[[], Iterable[tuple[str, int, bool]]], key: Key = hash, check: Key = _check):
        """``rows()`` yields (id, fingerprint, in the trash) for every memory; it is called
        a second time only when two ids share both hashes."""
        import numpy as np

        self._key, self._check = key, check
        keys, checks, values = array("q"), array("q"), array("q")
        for memory_id, fingerprint, trash in rows():
            keys.append(key(memory_id))
            checks.append(check(memory_id))
            values.append(fingerprint | trash)
        order = np.lexsort((np.frombuffer(checks, dtype=np.int64), np.frombuffer(keys, dtype=np.int64)))
        # One column sorted at a time, its unsorted buffer dropped before the next: 16 MB less
        # at the peak of a million memories than three sorted copies beside three originals.
        self._keys = np.frombuffer(keys, dtype=np.int64)[order]
        del keys
        self._checks = np.frombuffer(checks, dtype=np.int64)[order]
        del checks
        self._values = np.frombuffer(values, dtype=np.int64)[order]
        del values, order
        self._changed: dict[str, Print | None] = {}  # since the first look; None: gone
        self._plain: dict[str, Print] | None = None
        same = (self._keys[1:] == self._keys[:-1]) & (self._checks[1:] == self._checks[:-1])
        if bool(same.any()):
            self._plain = {memory_id: (fingerprint, trash) for memory_id, fingerprint, trash in rows()}

    def _first(self, memory_id: str) -> Print | None:
        if self._plain is not None:
            return self._plain.get(memory_id)
        key, check = self._key(memory_id), self._check(memory_id)
        at, end = int(self._keys.searchsorted(key, "left")), int(self._keys.searchsorted(key, "right"))
        for i in range(at, end):  # one, but for ids whose first hashes collide
            if self._checks[i] == check:
                value = int(self._values[i])
                return (value & ~1, bool(value & 1))
        return None

    def get(self, memory_id: str) -> Print | None:
        if memory_id in self._changed:
            return self._changed[memory_id]
        return self._first(memory_id)

    def __setitem__(self, memory_id: str, value: Print) -> None:
        self._changed[memory_id] = value

    def pop(self, memory_id: str, default=None) -> Print | None:
        old = self.get(memory_id)
        if self._first(memory_id) is None:
            self._changed.pop(memory_id, None)
        else:
            self._changed[memory_id] = None
        return default if old is None else old
