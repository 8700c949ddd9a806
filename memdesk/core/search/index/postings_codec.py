"""The byte formats of the stored index (indexer.py says why): varints, postings blocks and a
memory's term list, encoded and decoded with numpy.

A varint holds 7 bits a byte, low bits first, the top bit set on every byte but the last.

A postings block (one row of search_post, keyed by its term id and its first doc) holds
varints: ``n`` (entries), ``k`` (entries whose count is not 1), then per entry
``(doc - previous doc) << 1 | (count != 1)`` (the first entry's previous doc is the row's
first doc), then the ``k`` counts that are not 1, in entry order. Counts are whole
numbers (the field weights are: keyword.FIELD_WEIGHTS); most are 1 and cost no byte.

A memory's term list (search_doc.terms) holds varints: the entries of its SECTIONS term
bags (words, character pairs, pinyin readings, tags), ``k``, then per bag its entries as
``zigzag(id - previous id) << 1 | (count != 1)`` in the bag's own order (the order the
cut found them: query expansion breaks ties by it, so it is kept), then the ``k`` counts
that are not 1.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import accumulate

import numpy as np

BLOCK = 128  # entries a block is cut to when one grows past BLOCK_MAX
BLOCK_MAX = 2 * BLOCK
SMALL = 48  # entries below which plain Python beats numpy's per-call cost
_SMALL_BYTES = 160  # a block's bytes up to which plain Python reads it faster than numpy
SECTIONS = 4  # bags in a term list (index_terms' fields)
_EMPTY = np.zeros(0, dtype=np.int64)


def _pack(values: list[int]) -> bytes:
    """Varints of a few non-negative ints, in plain Python."""
    out = bytearray()
    for v in values:
        if v < 0:
            raise ValueError("varints hold non-negative numbers")
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v)
    return bytes(out)


def _unpack(data: bytes) -> list[int]:
    out, value, shift = [], 0, 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            out.append(value)
            value, shift = 0, 0
        else:
            shift += 7
    return out


def _whole(count) -> int:
    whole = int(count)
    if whole != count or whole < 1:
        raise ValueError(f"term counts must be whole and positive: {count}")
    return whole


def varints(data: bytes) -> np.ndarray:
    """Every varint in ``data``, as int64."""
    b = np.frombuffer(data, dtype=np.uint8)
    if len(b) == 0:
        return _EMPTY
    ends = np.flatnonzero(b < 0x80)
    if len(ends) == len(b):  # every value below 128: one byte each
        return b.astype(np.int64)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    shift = (np.arange(len(b)) - np.repeat(starts, ends - starts + 1)) * 7
    return np.add.reduceat((b & 0x7F).astype(np.int64) << shift, starts)


def _sizes(values: np.ndarray) -> np.ndarray:
    size = np.ones(len(values), dtype=np.int64)
    for bits in (7, 14, 21, 28, 35, 42, 49, 56):
        size += values >= (1 << bits)
    return size


def to_varints(values: np.ndarray) -> tuple[bytes, np.ndarray]:
    """(the varints of ``values``, non-negative, the byte size of each)."""
    values = np.asarray(values, dtype=np.int64)
    if len(values) and int(values.min()) < 0:
        raise ValueError("varints hold non-negative numbers")
    size = _sizes(values)
    out = np.zeros(int(size.sum()), dtype=np.uint8)
    at = np.cumsum(size) - size
    for k in range(int(size.max()) if len(size) else 0):
        more = size > k
        byte = (values[more] >> (7 * k)) & 0x7F
        out[at[more] + k] = byte | ((size[more] > k + 1) << 7)
    return out.tobytes(), size


def whole_counts(tfs) -> np.ndarray:
    counts = np.asarray(tfs, dtype=np.float64)
    whole = np.rint(counts)
    if len(counts) and (not np.array_equal(whole, counts) or whole.min() < 1):
        raise ValueError(f"term counts must be whole and positive: {counts[whole != counts][:3]}")
    return whole.astype(np.int64)


# -- postings blocks -------------------------------------------------------------------------


def encode_blocks(docs: np.ndarray, tfs: np.ndarray, *, size: int = BLOCK) -> list[tuple[int, bytes]]:
    """A term's postings (docs ascending) as blocks of ``size``: [(first doc, data)]."""
    if len(docs) <= min(size, BLOCK_MAX):  # one block: plain Python is ~3x faster than numpy's calls
        return _small_block(np.asarray(docs, dtype=np.int64).tolist(), whole_counts(tfs).tolist())
    docs = np.asarray(docs, dtype=np.int64)
    counts = whole_counts(tfs)
    n = len(docs)
    if n == 0:
        return []
    starts = np.arange(0, n, size)
    lengths = np.diff(np.append(starts, n))
    deltas = np.diff(docs, prepend=docs[0])
    deltas[starts] = 0  # each block's first entry is its row's first doc
    flagged = counts != 1
    codes = (deltas << 1) | flagged
    block_of = np.repeat(np.arange(len(starts)), lengths)
    ks = np.bincount(block_of[flagged], minlength=len(starts))
    # Per block: n, k, codes, then the counts that are not 1 (placed by a stable sort on
    # (block, part)).
    parts = [
        (np.arange(len(starts)), 0, np.column_stack([lengths, ks]).ravel(), 2),
        (block_of, 1, codes, 1),
        (block_of[flagged], 2, counts[flagged], 1),
    ]
    keys, values = [], []
    for blocks, part, vals, per in parts:
        keys.append(np.repeat(blocks, per) * 3 + part)
        values.append(vals)
    key = np.concatenate(keys)
    order = np.argsort(key, kind="stable")
    data, sizes = to_varints(np.concatenate(values)[order])
    block_bytes = np.bincount(key[order] // 3, weights=sizes, minlength=len(starts)).astype(np.int64)
    ends = np.cumsum(block_bytes)
    firsts = docs[starts].tolist()
    return [(firsts[i], data[int(ends[i] - block_bytes[i]) : int(ends[i])]) for i in range(len(starts))]


def _small_block(docs: list[int], counts: list[int]) -> list[tuple[int, bytes]]:
    if not docs:
        return []
    codes, other, previous = [], [], docs[0]
    for doc, count in zip(docs, counts):
        codes.append((doc - previous) << 1 | (count != 1))
        previous = doc
        if count != 1:
            other.append(count)
    return [(docs[0], _pack([len(docs), len(other), *codes, *other]))]


def append_to_block(first: int, data: bytes, docs: list[int], counts: list[int]) -> bytes | None:
    """The block with these postings added after its last (a new memory, the common write),
    without decoding and encoding it whole; None when they do not all come after it or it
    would grow past BLOCK_MAX."""
    b = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(b < 0x80)
    n = int(_unpack(data[: int(ends[0]) + 1])[0])
    if n + len(docs) > BLOCK_MAX:
        return None
    head, codes_end = int(ends[1]) + 1, int(ends[1 + n]) + 1
    k = _unpack(data[int(ends[0]) + 1 : head])[0]
    last = first + int((varints(data[head:codes_end]) >> 1).sum())
    if docs[0] <= last:
        return None
    codes, other = [], []
    for doc, count in zip(docs, counts):
        codes.append((doc - last) << 1 | (count != 1))
        last = doc
        if count != 1:
            other.append(count)
    return (
        _pack([n + len(docs), k + len(other)]) + data[head:codes_end] + _pack(codes) + data[codes_end:] + _pack(other)
    )


def _read_block(first: int, data: bytes, doc: int):
    """change_in_block's view of a block: each varint's end, its docs and count flags, n, k,
    where ``doc`` falls and the counts section's entry there."""
    ends: Sequence[int] | np.ndarray
    docs: Sequence[int] | np.ndarray
    flags: Sequence[int] | np.ndarray
    if len(data) <= _SMALL_BYTES:  # plain Python; numpy's per-call cost outweighs a few bytes
        ends = [at + 1 for at, byte in enumerate(data) if byte < 0x80]  # each varint's end
        values = _unpack(data)
        n, k = values[0], values[1]
        codes = values[2 : 2 + n]
        docs = list(accumulate((c >> 1 for c in codes), initial=first))[1:]
        flags = [c & 1 for c in codes]
        i = bisect_left(docs, doc)
        at = sum(flags[:i])
    else:
        b = np.frombuffer(data, dtype=np.uint8)
        ends = np.flatnonzero(b < 0x80) + 1
        array = b.astype(np.int64) if len(ends) == len(b) else varints(data)
        n, k = int(array[0]), int(array[1])
        docs = first + np.cumsum(array[2 : 2 + n] >> 1)
        flags = array[2 : 2 + n] & 1
        i = int(np.searchsorted(docs, doc))
        at = int((array[2 : 2 + i] & 1).sum())

    return ends, docs, flags, n, k, i, at


def change_in_block(first: int, data: bytes, doc: int, count: int) -> tuple[int, bytes] | None:
    """The block with one posting set (``count`` > 0) or removed (0), the bytes around
    the change kept as they are: (its first doc, data), data empty when the block is left
    with nothing; None when it would grow past BLOCK_MAX. An edit changes one posting in
    each of ~70 terms' blocks: this is ~4x faster than decoding and encoding them whole."""
    ends, docs, flags, n, k, i, at = _read_block(first, data, doc)

    def start(value: int) -> int:  # where the block's value number ``value`` begins
        return int(ends[value - 1]) if value else 0

    present = i < n and int(docs[i]) == doc
    old_flag = int(flags[i]) if i < n else 0
    flag = int(count != 1)
    if not present and not count:
        return first, data
    if present and count:  # the same entry, its count changed
        if not old_flag and not flag:
            return first, data
        new_codes, code_span = [((doc - (int(docs[i - 1]) if i else first)) << 1) | flag], (i, i + 1)
        counts, count_span, size = [count] if flag else [], (at, at + old_flag), n
    elif present:  # removed
        if n == 1:
            return first, b""
        if i + 1 < n:
            base = int(docs[i - 1]) if i else int(docs[i + 1])  # the next entry may become the first
            new_codes, code_span = [((int(docs[i + 1]) - base) << 1) | int(flags[i + 1])], (i, i + 2)
        else:
            new_codes, code_span = [], (i, i + 1)
        if i == 0:
            first = int(docs[1])
        counts, count_span, size = [], (at, at + old_flag), n - 1
    else:  # a new entry before entry i
        if n + 1 > BLOCK_MAX:
            return None
        new_codes = [((doc - (int(docs[i - 1]) if i else doc)) << 1) | flag]
        if i < n:
            new_codes.append(((int(docs[i]) - doc) << 1) | old_flag)
        code_span = (i, min(i + 1, n))
        if i == 0:
            first = doc
        counts, count_span, size = [count] if flag else [], (at, at), n + 1
    k += len(counts) - (count_span[1] - count_span[0])
    code_at, count_at = 2, 2 + n  # value numbers where the sections begin
    return first, b"".join(
        (
            _pack([size, k]),
            data[start(code_at) : start(code_at + code_span[0])],
            _pack(new_codes),
            data[start(code_at + code_span[1]) : start(count_at + count_span[0])],
            _pack(counts),
            data[start(count_at + count_span[1]) :],
        )
    )


def decode_blocks(rows) -> tuple[np.ndarray, np.ndarray]:
    """[(first doc, data)] of one term, in doc order -> (docs int64, counts float64)."""
    if not rows:
        return _EMPTY, np.zeros(0)
    if len(rows) == 1:  # one block (a write's merge): plain Python, as encode_blocks
        return _small_decode(int(rows[0][0]), bytes(rows[0][1]))
    firsts = [int(r[0]) for r in rows]
    values = varints(b"".join(bytes(r[1]) for r in rows))
    code_at, count_at, ns, ks = [], [], [], []
    pos = 0
    for _ in firsts:  # each block's header: where its codes and counts sit
        n, k = int(values[pos]), int(values[pos + 1])
        code_at.append(pos + 2)
        count_at.append(pos + 2 + n)
        ns.append(n)
        ks.append(k)
        pos += 2 + n + k
    n_arr, k_arr = np.array(ns, dtype=np.int64), np.array(ks, dtype=np.int64)
    total = int(n_arr.sum())
    block_start = np.cumsum(n_arr) - n_arr
    codes = values[np.arange(total) + np.repeat(np.array(code_at) - block_start, n_arr)]
    deltas = codes >> 1
    running = np.cumsum(deltas)
    base = running[block_start] - deltas[block_start]  # what the blocks before added up to
    docs = running + np.repeat(np.array(firsts, dtype=np.int64) - base, n_arr)
    counts = np.ones(total)
    flagged = (codes & 1).astype(bool)
    if flagged.any():
        k_start = np.cumsum(k_arr) - k_arr
        counts[flagged] = values[np.arange(int(k_arr.sum())) + np.repeat(np.array(count_at) - k_start, k_arr)]
    return docs, counts


def _small_decode(first: int, data: bytes) -> tuple[np.ndarray, np.ndarray]:
    values = _unpack(data)
    n, k = values[0], values[1]
    docs, counts, doc = [], [], first
    other = iter(values[2 + n : 2 + n + k])
    for code in values[2 : 2 + n]:
        doc += code >> 1
        docs.append(doc)
        counts.append(next(other) if code & 1 else 1)
    return np.array(docs, dtype=np.int64), np.array(counts, dtype=np.float64)


# -- a memory's term list ----------------------------------------------------------------------


def _zigzag(x: np.ndarray) -> np.ndarray:
    return np.where(x >= 0, x << 1, ((-x) << 1) - 1)


def _unzigzag(z: np.ndarray) -> np.ndarray:
    return np.where(z & 1, -((z + 1) >> 1), z >> 1)


def encode_terms(bags: list[tuple[list[int], list[float]]]) -> bytes:
    """A memory's SECTIONS bags, each (term ids, counts) in the bag's order (plain Python: a
    memory has a few dozen terms, and every write of one makes its list)."""
    assert len(bags) == SECTIONS
    codes: list[int] = []
    other: list[int] = []
    for ids, counts in bags:
        previous = 0
        for term, count in zip(ids, counts):
            step, previous = term - previous, term
            whole = count if type(count) is int and count > 0 else _whole(count)  # the cut's are ints
            codes.append((step << 1 if step >= 0 else ((-step) << 1) - 1) << 1 | (whole != 1))
            if whole != 1:
                other.append(whole)
    return _pack([*(len(ids) for ids, _ in bags), len(other), *codes, *other])


def decode_terms(data: bytes | None) -> list[tuple[np.ndarray, np.ndarray]]:
    """The bags of a term list: [(term ids, counts float64)] * SECTIONS; empty ones for None."""
    if not data:
        return [(_EMPTY, np.zeros(0))] * SECTIONS
    values = np.array(_unpack(bytes(data)), dtype=np.int64)
    ns = values[:SECTIONS].tolist()
    k = int(values[SECTIONS])
    total = sum(ns)
    codes = values[SECTIONS + 1 : SECTIONS + 1 + total]
    counts = np.ones(total)
    flagged = (codes & 1).astype(bool)
    counts[flagged] = values[SECTIONS + 1 + total : SECTIONS + 1 + total + k]
    out, at = [], 0
    for n in ns:
        steps = _unzigzag(codes[at : at + n] >> 1)
        out.append((np.cumsum(steps), counts[at : at + n]))
        at += n
    return out
