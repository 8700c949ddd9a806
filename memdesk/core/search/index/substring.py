"""Plain substring matching over every memory's normalised text.

Seed 000's fallback: ids, symbols, single characters and word fragments that
the keyword index does not hold are still found. All texts are joined into
one string (NUL-separated) so ``str.find`` scans them at C speed; only hits
cost Python time, and a scan stops once it has enough in-scope hits.
"""

from __future__ import annotations

import bisect

import numpy as np

SEPARATOR = "\x00"


class SubstringIndex:
    def __init__(self):
        self._texts: dict[int, str] = {}
        self._haystack: str | None = None
        self._starts: list[int] = []
        self._slots: list[int] = []

    def set(self, slot: int, normalised_text: str) -> None:
        self._texts[slot] = normalised_text.replace(SEPARATOR, " ")
        self._haystack = None

    def remove(self, slot: int) -> None:
        if self._texts.pop(slot, None) is not None:
            self._haystack = None

    def text(self, slot: int) -> str:
        return self._texts.get(slot, "")

    def _build(self) -> str:
        # Rebuilt lazily after changes: joining 100k short texts takes ~10 ms.
        slots = sorted(self._texts)
        starts, position = [], 0
        for slot in slots:
            starts.append(position)
            position += len(self._texts[slot]) + 1
        self._slots, self._starts = slots, starts
        self._haystack = SEPARATOR.join(self._texts[s] for s in slots) + SEPARATOR
        return self._haystack

    def find(self, needle: str, allowed: np.ndarray | None = None, limit: int | None = None) -> list[int]:
        """Slots whose text contains ``needle`` (normalised), in slot order."""
        if not needle or SEPARATOR in needle:
            return []
        hay = self._haystack
        if hay is None:
            hay = self._build()
        starts, slots = self._starts, self._slots
        found: list[int] = []
        position = hay.find(needle)
        while position >= 0:
            index = bisect.bisect_right(starts, position) - 1
            slot = slots[index]
            if allowed is None or (slot < len(allowed) and allowed[slot]):
                found.append(slot)
                if limit is not None and len(found) >= limit:
                    break
            # Skip the rest of this memory: one hit per memory is enough.
            next_start = starts[index + 1] if index + 1 < len(starts) else len(hay)
            position = hay.find(needle, next_start)
        return found

    def mask(self, needle: str, size: int, allowed: np.ndarray | None = None) -> np.ndarray:
        mask = np.zeros(size, dtype=bool)
        found = self.find(needle, allowed)
        if found:
            mask[found] = True
        return mask
