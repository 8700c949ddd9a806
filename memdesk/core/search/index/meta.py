"""A memory's numeric columns as the index packs them (search_meta: 62 bytes a memory, one
narrow scan loads them all) and the small integer codes of persona ids and group names.

Times stay doubles (ranking reads them to the microsecond); codes, counters and the bags'
lengths (whole numbers: index_cut) take the narrowest type that holds them exactly."""

from __future__ import annotations

import struct
from datetime import datetime

import numpy as np

from memdesk.core.domain.records import SCOPES, TIERS, TYPES
from memdesk.core.search.index.indexed import IndexedMemory
from memdesk.core.search.index.table import GLOBAL_CODE
from memdesk.core.search.language.tokenize import normalise

META = np.dtype(
    [
        ("doc", "<i4"),
        ("persona", "<i4"),
        ("group", "<i4"),
        ("type", "i1"),
        ("scope", "i1"),
        ("tier", "i1"),
        ("importance", "i1"),
        ("deleted", "?"),
        ("superseded", "?"),
        ("created", "<f8"),
        ("updated", "<f8"),
        ("expires", "<f8"),
        ("access", "<i4"),
        ("mention", "<i4"),
        ("wlen", "<f4"),
        ("glen", "<f4"),
        ("plen", "<f4"),
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


_PACK = struct.Struct("<iiibbbb??dddiifff")
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
        record.deleted_at is not None,
        record.superseded_by is not None,
        record.created_at.timestamp(),
        record.updated_at.timestamp(),
        _timestamp(record.expires_at),
        record.access_count,
        record.mention_count,
        wlen,
        glen,
        plen,
    )


def lengths_of(meta: bytes) -> tuple[float, float, float]:
    """The three bags' totals a packed row holds (wlen, glen, plen)."""
    return _PACK.unpack(bytes(meta))[-3:]


# search_meta's rows before schema 6 (index_upgrade repacks them): 114 bytes, doc first.
OLD_PACK = struct.Struct("<qiiiiidddddd??ddd")


def repack(old: bytes) -> bytes:
    """A schema-5 search_meta row in this layout."""
    (
        doc,
        persona,
        group,
        kind,
        scope,
        tier,
        importance,
        created,
        updated,
        expires,
        access,
        mention,
        deleted,
        superseded,
        wlen,
        glen,
        plen,
    ) = OLD_PACK.unpack(old)
    return _PACK.pack(
        doc,
        persona,
        group,
        kind,
        scope,
        tier,
        int(importance),
        deleted,
        superseded,
        created,
        updated,
        expires,
        int(access),
        int(mention),
        wlen,
        glen,
        plen,
    )
