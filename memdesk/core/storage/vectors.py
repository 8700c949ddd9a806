"""Stored embedding vectors, each tied to its model and the text it came from.

numpy is imported inside the functions: the store (and so `memdesk mcp`'s
handshake) must not pay for it.
"""

from __future__ import annotations

from memdesk.core.domain.embedding import embed_text, text_hash
from memdesk.core.storage.models import Memory, MemoryVector


def put(model_id: str, items) -> int:
    """Insert or replace vectors: items are (memory_id, text_hash, vector)."""
    import numpy as np

    rows = []
    for memory_id, hash_, vector in items:
        arr = np.asarray(vector, dtype="<f4").reshape(-1)
        rows.append(
            {
                "memory": memory_id,
                "model_id": model_id,
                "text_hash": hash_,
                "dim": int(arr.shape[0]),
                "vector": arr.tobytes(),
            }
        )
    rows = list({row["memory"]: row for row in rows}.values())  # the last vector per memory wins
    for start in range(0, len(rows), 300):
        MemoryVector.insert_many(rows[start : start + 300]).on_conflict(
            conflict_target=[MemoryVector.memory, MemoryVector.model_id],
            preserve=[MemoryVector.text_hash, MemoryVector.dim, MemoryVector.vector],
        ).execute()
    return len(rows)


def _current_hashes(ids=None) -> dict[str, str]:
    query = Memory.select(Memory.id, Memory.title, Memory.content)
    if ids is not None:
        query = query.where(Memory.id.in_(list(ids)))
    return {row.id: text_hash(embed_text(row.title, row.content)) for row in query}


def load(model_id: str):
    """(ids, float32 matrix) of ``model_id``'s vectors whose text still matches the memory."""
    import numpy as np

    current = _current_hashes()
    ids, rows = [], []
    query = (
        MemoryVector.select(MemoryVector.memory, MemoryVector.text_hash, MemoryVector.vector)
        .where(MemoryVector.model_id == model_id)
        .tuples()
    )
    for memory_id, hash_, blob in query:
        if current.get(memory_id) == hash_:
            ids.append(memory_id)
            rows.append(np.frombuffer(blob, dtype="<f4"))
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    return ids, np.vstack(rows).astype(np.float32, copy=False)


def of(model_id: str, ids) -> dict:
    """{memory id: (text hash, vector)} of ``model_id``'s stored vectors for ``ids``."""
    import numpy as np

    found: dict[str, tuple] = {}
    ids = list(ids)
    for start in range(0, len(ids), 500):
        query = (
            MemoryVector.select(MemoryVector.memory, MemoryVector.text_hash, MemoryVector.vector)
            .where((MemoryVector.model_id == model_id) & MemoryVector.memory.in_(ids[start : start + 500]))
            .tuples()
        )
        found.update((memory_id, (hash_, np.frombuffer(blob, dtype="<f4"))) for memory_id, hash_, blob in query)
    return found


def stale_ids(model_id: str) -> list[str]:
    """Live memories with no vector for ``model_id`` or one computed from older text."""
    from peewee import JOIN

    from memdesk.core.storage.index_models import SearchDoc

    live = Memory.deleted_at.is_null()
    vector = (MemoryVector.memory == Memory.id) & (MemoryVector.model_id == model_id)
    # A memory's index entry, once cut, holds the hash of the text it was cut from (written
    # in the same transaction as the text): compared in SQL. Hashing every text here took
    # 1.1 s and +140 MB at 100k memories.
    cut = SearchDoc.terms.is_null(False) & SearchDoc.ehash.is_null(False)
    compared = (
        Memory.select(Memory.id)
        .join(SearchDoc, on=(SearchDoc.memory_id == Memory.id))
        .join(MemoryVector, JOIN.LEFT_OUTER, on=vector)
        .where(live & cut & (MemoryVector.text_hash.is_null() | (MemoryVector.text_hash != SearchDoc.ehash)))
        .tuples()
    )
    # The rest (not cut yet: an upgrade's index build is still running) by their text.
    uncut = (
        Memory.select(Memory.id, Memory.title, Memory.content, MemoryVector.text_hash)
        .join(SearchDoc, JOIN.LEFT_OUTER, on=(SearchDoc.memory_id == Memory.id))
        .join(MemoryVector, JOIN.LEFT_OUTER, on=vector)
        .where(live & (SearchDoc.doc.is_null() | SearchDoc.terms.is_null() | SearchDoc.ehash.is_null()))
        .tuples()
    )
    stale = {memory_id for (memory_id,) in compared.iterator()}
    stale.update(i for i, title, content, have in uncut.iterator() if have != text_hash(embed_text(title, content)))
    if not stale:
        return []  # most starts: no pass over every id just to put nothing in order
    return [
        memory_id for (memory_id,) in Memory.select(Memory.id).where(live).tuples().iterator() if memory_id in stale
    ]


def drop(model_id: str | None = None) -> int:
    query = MemoryVector.delete()
    if model_id is not None:
        query = query.where(MemoryVector.model_id == model_id)
    return query.execute()


def model_ids() -> dict[str, int]:
    from peewee import fn

    return dict(
        MemoryVector.select(MemoryVector.model_id, fn.COUNT(MemoryVector.memory))
        .group_by(MemoryVector.model_id)
        .tuples()
    )
