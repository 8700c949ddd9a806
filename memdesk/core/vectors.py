"""Stored embedding vectors, each tied to its model and the text it came from.

numpy is imported inside the functions: the store (and so `memdesk mcp`'s
handshake) must not pay for it.
"""

from __future__ import annotations

from .embedding import embed_text, text_hash
from .models import Memory, MemoryVector


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


def stale_ids(model_id: str) -> list[str]:
    """Live memories with no vector for ``model_id`` or one computed from older text."""
    # Rows as tuples: a model object per memory made this 1.8 s and +150 MB at 100k memories.
    live = Memory.select(Memory.id, Memory.title, Memory.content).where(Memory.deleted_at.is_null()).tuples()
    have = dict(
        MemoryVector.select(MemoryVector.memory, MemoryVector.text_hash)
        .where(MemoryVector.model_id == model_id)
        .tuples()
    )
    return [i for i, title, content in live.iterator() if have.get(i) != text_hash(embed_text(title, content))]


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
