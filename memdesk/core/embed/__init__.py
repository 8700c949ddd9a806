"""Local ONNX embedding models: folders, install/download, the embedder, re-embedding.

What callers use:

- ``active_embedder()`` -> (embedder or None, hint): the model search should
  use; None means keyword-only search and ``hint`` tells the user how to add
  a model. Cheap; the session opens on first embed or ``embedder.load()``.
- ``load_embedder(folder, pooling=..., ...)``: any model folder (bench
  ``--model DIR``, tools).
- ``reembed(store, embedder, cancel=..., progress=...)``: the background job.
- ``install_model`` / ``download_model`` / ``list_models`` / ``use_model`` /
  ``remove_model``: what `memdesk model ...` does.
"""

from .calibrate import calibrate, relative_similarity
from .config import KNOWN_MODELS, ModelConfig, read_config
from .download import HUB_MODELS, download_model
from .install import install_model
from .onnx_embedder import OnnxEmbedder
from .reembed import embed_written, reembed
from .registry import (
    ADD_MODEL_HINT,
    ModelInfo,
    active_embedder,
    active_name,
    list_models,
    load_embedder,
    model_info,
    models_dir,
    remove_model,
    use_model,
)

__all__ = [
    "ADD_MODEL_HINT",
    "HUB_MODELS",
    "KNOWN_MODELS",
    "ModelConfig",
    "ModelInfo",
    "OnnxEmbedder",
    "active_embedder",
    "active_name",
    "calibrate",
    "download_model",
    "install_model",
    "list_models",
    "load_embedder",
    "model_info",
    "models_dir",
    "read_config",
    "reembed",
    "embed_written",
    "relative_similarity",
    "remove_model",
    "use_model",
]
