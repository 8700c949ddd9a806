"""Brute-force cosine search over stored vectors, kept as int8 (a quarter of float32).

Vectors are L2-normalised, so cosine is a dot product: one matrix-vector
product over the slots that have a vector. A vector is kept with the hash of
the text it was computed from, so an edited memory stops matching its old
text at once, before it is re-embedded.

Each vector is held as int8 with a scale of its own (its largest component
/ 127), and a query is cut to int8 the same way: the dot products are exact
integer sums, and times the two scales they give the cosine to within ~0.002.
At 100k memories of bge-small-zh's 512 dimensions that is 49 MB instead of
195 MB in the window, which with a model had come to ~800 MB. Measured
(bench/retrieval.py, LoCoMo with MiniLM, 2026-12-03): R@5 / R@10 0.7000 /
0.7852 with float32, 0.7002 / 0.7852 with both sides int8. The product runs
in onnxruntime's MatMulInteger on every core: 100k x 512 in 5-6 ms against
numpy's float32 product's 6.7 ms (10 ms on one thread; quiet 2-core machine,
2026-12-04). numpy over float32 blocks, 4-6x slower, stands in where
onnxruntime cannot load (both give the same integer sums).
"""

from __future__ import annotations

import threading

import numpy as np

BLOCK = 4096  # rows widened at a time on the numpy path
HASH_WIDTH = 32  # characters of embedding.text_hash
HASH_DTYPE = f"S{HASH_WIDTH}"


class VectorIndex:
    def __init__(self, model_id: str, dim: int, capacity: int = 1024):
        self.model_id, self.dim = model_id, dim
        self._matrix = np.zeros((capacity, dim), dtype=np.int8)
        self._scale = np.zeros(capacity, dtype=np.float32)
        self._has = np.zeros(capacity, dtype=bool)
        # The text hashes in one fixed-width array: as a dict of Python strings they were
        # ~12 MB at 100k memories, here 3.2. A hash that does not fit (text_hash's are 32
        # hex digits) is kept in _odd instead.
        self._hash = np.zeros(capacity, dtype=HASH_DTYPE)
        self._odd: dict[int, str] = {}

    def __len__(self) -> int:
        return int(np.count_nonzero(self._has))

    def set(self, slot: int, vector: np.ndarray, text_hash: str) -> None:
        vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.dim:
            raise ValueError(f"vector has {vector.shape[0]} dimensions; {self.model_id} has {self.dim}")
        self._grow(slot + 1)
        self._matrix[slot : slot + 1], self._scale[slot : slot + 1] = _quantised(vector[None, :])
        self._has[slot] = True
        self._put_hashes(np.array([slot]), [text_hash])

    def set_many(self, slots: np.ndarray, matrix: np.ndarray, hashes: list[str]) -> None:
        """Load many rows at once (a store's vectors at start)."""
        if len(slots) == 0:
            return
        self._grow(int(slots.max()) + 1)
        self._matrix[slots], self._scale[slots] = _quantised(np.asarray(matrix, dtype=np.float32))
        self._has[slots] = True
        self._put_hashes(slots, hashes)

    def _put_hashes(self, slots: np.ndarray, hashes: list[str]) -> None:
        for slot in slots[np.isin(slots, list(self._odd))].tolist() if self._odd else ():
            del self._odd[slot]
        if all(map(_fits, hashes)):
            self._hash[slots] = hashes
            return
        for slot, hash_ in zip(slots.tolist(), hashes):
            self._hash[slot] = hash_ if _fits(hash_) else b""
            if not _fits(hash_):
                self._odd[slot] = hash_

    def reserve(self, size: int) -> None:
        """Room for ``size`` slots in one allocation (a store's vectors at start)."""
        self._grow(size, exact=True)

    def _grow(self, size: int, exact: bool = False) -> None:
        if size > len(self._has):
            capacity = size if exact else max(size, len(self._has) * 2)
            matrix = np.zeros((capacity, self.dim), dtype=np.int8)
            matrix[: len(self._matrix)] = self._matrix
            scale = np.zeros(capacity, dtype=np.float32)
            scale[: len(self._scale)] = self._scale
            has = np.zeros(capacity, dtype=bool)
            has[: len(self._has)] = self._has
            hashes = np.zeros(capacity, dtype=HASH_DTYPE)
            hashes[: len(self._hash)] = self._hash
            self._matrix, self._scale, self._has, self._hash = matrix, scale, has, hashes

    def remove(self, slot: int) -> None:
        if slot < len(self._has):
            self._has[slot] = False
            self._odd.pop(slot, None)

    def hash_of(self, slot: int) -> str | None:
        if slot >= len(self._has) or not self._has[slot]:
            return None
        odd = self._odd.get(slot)
        return odd if odd is not None else self._hash[slot].decode("ascii")

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
            q, q_scale = _quantised(np.asarray(query, dtype=np.float32).reshape(1, -1))
            dots = integer_dots(self._matrix[:n], q[0]) * (self._scale[:n] * q_scale[0])
            sims[:n] = np.where(self._has[:n], dots, np.nan)
        return sims


def _fits(hash_: str) -> bool:
    """Kept as it is in a HASH_DTYPE cell (which drops trailing NULs)?"""
    return len(hash_) <= HASH_WIDTH and hash_.isascii() and not hash_.endswith("\0")


def _quantised(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 rows, float32 scale per row): row ~= int8 row x scale."""
    scale = np.abs(rows).max(axis=1) / 127.0
    scale[scale == 0] = 1.0  # an all-zero row stays zero
    return np.rint(rows / scale[:, None]).astype(np.int8), scale.astype(np.float32)


def integer_dots(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """matrix (int8, n x d) @ query (int8, d), exactly, as float32."""
    session = _session()
    if session is not None:
        return session.run(None, {"A": matrix, "B": query.reshape(-1, 1)})[0][:, 0].astype(np.float32)
    return numpy_dots(matrix, query)


def numpy_dots(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """integer_dots without onnxruntime: blocks widened to float32, whose sums of products
    up to 127 x 127 x 1024 stay exact integers."""
    out = np.empty(len(matrix), dtype=np.float32)
    q = query.astype(np.float32)
    block = np.empty((min(BLOCK, len(matrix)), matrix.shape[1]), dtype=np.float32)
    for start in range(0, len(matrix), BLOCK):
        rows = matrix[start : start + BLOCK]
        part = block[: len(rows)]
        np.copyto(part, rows, casting="unsafe")
        np.dot(part, q, out=out[start : start + len(rows)])
    return out


_lock = threading.Lock()
_sessions: list = []  # the MatMulInteger session, or None where onnxruntime cannot load


def _session():
    if not _sessions:
        with _lock:
            if not _sessions:
                _sessions.append(_open_session())
    return _sessions[0]


def _open_session():
    try:
        import onnxruntime as ort  # loaded already where there are vectors: they need a model
    except ImportError:
        return None
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 0  # every core, as the embedder's session and numpy's BLAS use
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")  # idle threads sleep
    opts.log_severity_level = 3
    try:
        return ort.InferenceSession(matmul_integer_model(), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception:  # onnxruntime's own exception types: fall back to numpy
        return None


def matmul_integer_model() -> bytes:
    """An ONNX model of one MatMulInteger node: A (int8, n x d) x B (int8, d x 1) -> Y (int32),
    written out here as protobuf (the onnx package is only a test dependency)."""

    def varint(value: int) -> bytes:
        out = bytearray()
        while True:
            byte, value = value & 0x7F, value >> 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                return bytes(out)

    def field(number: int, payload: bytes | str | int) -> bytes:
        if isinstance(payload, int):
            return varint(number << 3) + varint(payload)
        data = payload.encode() if isinstance(payload, str) else payload
        return varint(number << 3 | 2) + varint(len(data)) + data

    def tensor(name: str, element: int, dims: tuple[str | int, ...]) -> bytes:
        shape = b"".join(field(1, field(1, d) if isinstance(d, int) else field(2, d)) for d in dims)
        return field(1, name) + field(2, field(1, field(1, element) + field(2, shape)))

    int8, int32 = 3, 6  # onnx.TensorProto's element types
    node = field(1, "A") + field(1, "B") + field(2, "Y") + field(4, "MatMulInteger")
    graph = (
        field(1, node)
        + field(2, "similarities")
        + field(11, tensor("A", int8, ("n", "d")))
        + field(11, tensor("B", int8, ("d", 1)))
        + field(12, tensor("Y", int32, ("n", 1)))
    )
    opset = field(1, "") + field(2, 17)
    return field(1, 8) + field(7, graph) + field(8, opset)
