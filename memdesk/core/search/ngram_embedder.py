"""A small real embedder: hashed character n-grams -> L2-normalised float32.

No model file, fully deterministic: tests and machines without an ONNX
model still exercise the whole vector path with real vectors. Similarity is
lexical (shared character n-grams), not semantic, so it is no substitute for
a trained model in the product.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from memdesk.core.search.language.tokenize import normalise

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+")
_WORD = re.compile(r"[^\W_]+")


class HashingEmbedder:
    """Implements memdesk.core.domain.embedding.Embedder."""

    def __init__(self, dim: int = 256):
        self.dim = dim
        self.model_id = f"hashing-ngram-{dim}-v1"

    def _features(self, text: str) -> list[str]:
        text = normalise(text)
        feats = []
        for run in _CJK.findall(text):
            feats.extend(run)  # single characters carry meaning in Chinese
            feats.extend(run[i : i + 2] for i in range(len(run) - 1))
        for word in _WORD.findall(_CJK.sub(" ", text)):
            padded = f"<{word}>"
            feats.append(padded)
            feats.extend(padded[i : i + 3] for i in range(len(padded) - 2))
        return feats or ["<empty>"]  # every row must have norm 1

    def _bucket(self, feature: str) -> tuple[int, float]:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dim, (1.0 if (value >> 63) & 1 else -1.0)

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in self._features(text):
                index, sign = self._bucket(feature)
                out[row, index] += sign
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
        return out
