"""A memory's numeric columns as the index packs them (search_meta: ~100 bytes a memory, one
narrow scan loads them all) and the small integer codes of persona ids and group names."""

from __future__ import annotations

import struct
from datetime import datetime

import numpy as np

from ..records import SCOPES, TIERS, TYPES
from .indexed import IndexedMemory
from .table import GLOBAL_CODE
from .tokenize import normalise

META = np.dtype(
    [
        ("doc", "<i8"),
        ("persona", "<i4"),
        ("group", "<i4"),
        ("type", "<i4"),
        ("scope", "<i4"),
        ("tier", "<i4"),
        ("importance", "<f8"),
        ("created", "<f8"),
        ("updated", "<f8"),
        ("expires", "<f8"),
        ("access", "<f8"),
        ("mention", "<f8"),
        ("deleted", "?"),
        ("superseded", "?"),
        ("wlen", "<f8"),
        ("glen", "<f8"),
        ("plen", "<f8"),
    ]
)


def _timestamp(value: datetime | None) -> float:
    return value.timestamp() if value is not None else np.inf


class Codes:
    """Small integer codes for persona ids and group names (filters compare ints)."""

    def __init__(self, conn):
        self.conn = conn
        self.codes = {(k, n): c for k, n, c in conn.execute("SELECT kind, name, code FROM search_code")}

    def code(self, kind: str, name: str) -> int:
        code = self.codes.get((kind, name))
        if code is None:
            code = 1 + max((c for (k, _), c in self.codes.items() if k == kind), default=-1)
            self.conn.execute("INSERT INTO search_code (kind, name, code) VALUES (?, ?, ?)", (kind, name, code))
            self.codes[(kind, name)] = code
        return code


_PACK = struct.Struct("<qiiiiidddddd??ddd")
assert _PACK.size == META.itemsize


def pack_meta(doc: int, record: IndexedMemory, codes: Codes, wlen: float, glen: float, plen: float) -> bytes:
    return _PACK.pack(
        doc,
        GLOBAL_CODE if record.persona_id is None else codes.code("p", record.persona_id),
        codes.code("g", normalise(record.group)),
        TYPES.index(record.type) if record.type in TYPES else -1,
        SCOPES.index(record.scope) if record.scope in SCOPES else -1,
        TIERS.index(record.tier) if record.tier in TIERS else -1,
        record.importance,
        record.created_at.timestamp(),
        record.updated_at.timestamp(),
        _timestamp(record.expires_at),
        record.access_count,
        record.mention_count,
        record.deleted_at is not None,
        record.superseded_by is not None,
        wlen,
        glen,
        plen,
    )
