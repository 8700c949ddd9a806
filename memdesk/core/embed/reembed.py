"""The background job that brings stored vectors up to date with a model.

A plain function (no Qt): the GUI runs it on a worker, the CLI inline.
Each batch is written in its own short transaction, so the writer lane is
never held for long and a cancel keeps the batches already done (they are
valid: every vector carries the hash of the text it was computed from).
"""

from __future__ import annotations

from collections.abc import Callable

from memdesk.core.domain.embedding import Embedder, embed_text, text_hash
from memdesk.core.domain.errors import CancelledError, ModelError

DEFAULT_BATCH = 32


def reembed(
    store,
    embedder: Embedder,
    *,
    cancel: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] = lambda done, total: None,
    batch_size: int = DEFAULT_BATCH,
) -> int:
    """Embed every live memory whose vector for ``embedder`` is missing or stale.

    Returns how many stale memories were processed (ones deleted meanwhile
    are skipped). Raises CancelledError between
    batches once ``cancel()`` is true; earlier batches stay written.
    """
    model_id = embedder.model_id
    ids = store.stale_vector_ids(model_id)
    total, done = len(ids), 0
    progress(0, total)
    for start in range(0, total, max(1, batch_size)):
        if cancel():
            raise CancelledError(code="reembed_cancelled", done=done, total=total)
        chunk = ids[start : start + batch_size]
        found = store.texts_to_embed(chunk)
        # A memory may have been deleted since the stale list was read.
        live = [i for i in chunk if i in found]
        if live:
            texts = [embed_text(*found[i]) for i in live]
            vectors = embedder.embed(texts)
            store.put_vectors(model_id, [(memory_id, text_hash(t), v) for memory_id, t, v in zip(live, texts, vectors)])
        done += len(chunk)
        progress(done, total)
    return done


def embed_written(store, changes, embedder: Embedder | None = None) -> int:
    """Store vectors now for the memories a write added or whose text it changed, with
    ``embedder`` or else the active model (none: nothing to do). Returns how many were embedded.

    The one path for every writer outside the window (`memdesk add` and `edit`, the assistants'
    tools), so a memory saved anywhere is found by meaning at once, not after maintenance.
    Called after the write committed: a model that fails raises ModelError, and the memory
    stays saved (the re-embed job catches it up).
    """
    ids = list(dict.fromkeys([*changes.added, *changes.updated]))
    if not ids:
        return 0
    if embedder is None:
        from .registry import active_embedder

        embedder, _hint = active_embedder()
        if embedder is None:
            return 0
    found = store.texts_to_embed(ids)
    texts = {i: embed_text(*found[i]) for i in ids if i in found}
    have = store.stored_vectors(embedder.model_id, list(texts))
    todo = [i for i, text in texts.items() if have.get(i, ("",))[0] != text_hash(text)]  # new or re-texted
    if not todo:
        return 0
    try:
        vectors = embedder.embed([texts[i] for i in todo])
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own kinds; the memory is saved
        raise ModelError(
            kind="broken", code="model_failed_on_memory", model=embedder.model_id, detail=str(exc)
        ) from exc
    store.put_vectors(embedder.model_id, [(i, text_hash(texts[i]), v) for i, v in zip(todo, vectors)])
    return len(todo)
