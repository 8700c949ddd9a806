"""Brute-force cosine search over stored vectors (enough up to ~100k).

Vectors are L2-normalised, so cosine is a dot product: one matrix-vector
product over the slots that have a vector. A vector is kept with the hash of
the text it was computed from, so an edited memory stops matching its old
text at once, before it is re-embedded.
"""

from __future__ import annotations

import numpy as np


class VectorIndex:
    def __init__(self, model_id: str, dim: int, capacity: int = 1024):
        self.model_id, self.dim = model_id, dim
        self._matrix = np.zeros((capacity, dim), dtype=np.float32)
        self._has = np.zeros(capacity, dtype=bool)
        self._hashes: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self._hashes)

    def set(self, slot: int, vector: np.ndarray, text_hash: str) -> None:
        vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.dim:
            raise ValueError(f"vector has {vector.shape[0]} dimensions; {self.model_id} has {self.dim}")
        self._grow(slot + 1)
        self._matrix[slot] = vector
        self._has[slot] = True
        self._hashes[slot] = text_hash

    def set_many(self, slots: np.ndarray, matrix: np.ndarray, hashes: list[str]) -> None:
        """Load many rows at once (a store's vectors at start)."""
        if len(slots) == 0:
            return
        self._grow(int(slots.max()) + 1)
        self._matrix[slots] = matrix
        self._has[slots] = True
        self._hashes.update(zip(slots.tolist(), hashes))

    def reserve(self, size: int) -> None:
        """Room for ``size`` slots in one allocation (a store's vectors at start)."""
        self._grow(size, exact=True)

    def _grow(self, size: int, exact: bool = False) -> None:
        if size > len(self._has):
            capacity = size if exact else max(size, len(self._has) * 2)
            matrix = np.zeros((capacity, self.dim), dtype=np.float32)
            matrix[: len(self._matrix)] = self._matrix
            has = np.zeros(capacity, dtype=bool)
            has[: len(self._has)] = self._has
            self._matrix, self._has = matrix, has

    def remove(self, slot: int) -> None:
        if self._hashes.pop(slot, None) is not None:
            self._has[slot] = False

    def hash_of(self, slot: int) -> str | None:
        return self._hashes.get(slot)

    def has(self, size: int) -> np.ndarray:
        out = np.zeros(size, dtype=bool)
        n = min(size, len(self._has))
        out[:n] = self._has[:n]
        return out

    def similarities(self, query: np.ndarray, size: int) -> np.ndarray:
        """Cosine per slot (NaN where a slot has no vector)."""
        n = min(size, len(self._has))
        sims = np.full(size, np.nan)
        if n:
            q = np.asarray(query, dtype=np.float32).reshape(-1)
            dots = self._matrix[:n] @ q
            sims[:n] = np.where(self._has[:n], dots, np.nan)
        return sims
