"""The Embedder interface shared by the search engine and the ONNX embedder.

An embedder turns texts into L2-normalised float32 rows. ``model_id`` names
the model *and* the settings that change its vectors (pooling, quantisation),
so vectors of two models are never compared.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # numpy stays out of light start-ups (the MCP handshake)
    import numpy as np


@runtime_checkable
class Embedder(Protocol):
    model_id: str
    dim: int

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Rows of shape (len(texts), dim), float32, each of L2 norm 1.

        ``query=True`` marks search queries (bge models prepend an instruction).
        """
        ...


def embed_text(title: str, content: str) -> str:
    """The text of a memory that gets embedded."""
    return f"{title}\n{content}".strip() if title else content.strip()


def text_hash(text: str) -> str:
    """Ties a stored vector to the exact text it was computed from."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
