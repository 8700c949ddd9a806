"""OnnxEmbedder: a BERT-style ONNX encoder + tokenizer.json behind the Embedder protocol.

The session is opened lazily (the first ``embed`` or an explicit ``load``),
because opening a 100 MB model takes about a second and must not happen on
the UI thread; the GUI's worker calls ``load()`` and the UI only ever sees an
object whose ``model_id`` and ``dim`` come from the config alone.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memdesk.core.domain.errors import MemDeskError

from .config import (
    ONNX_FILE,
    TOKENIZER_FILE,
    ModelConfig,
    known_defaults,
    model_id_for,
    read_config,
    sanitise_name,
    stamp_file,
    validate_settings,
)

FED_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
DEFAULT_BATCH = 32
# Dynamically quantised graphs pick one activation scale per tensor, i.e. per
# batch: a text's vector then depends on its batch-mates (cosine ~0.98-0.99
# to itself alone on MiniLM int8). One text per run keeps vectors exactly
# reproducible, and on CPU costs little: batching buys these small models
# little anyway.
QUANTISED_BATCH = 1
# Padded tokens per batch. Attention memory grows with batch x len^2, so a
# batch of long texts is cut short rather than allocating hundreds of MB.
TOKEN_BUDGET = 8192
SCAN_BLOCK = 1 << 20  # is_dynamically_quantised reads the model file this much at a time


def open_session(path: Path, threads: int = 0):
    """An onnxruntime CPU session; ``threads`` = intra-op threads (0 = all cores)."""
    import onnxruntime as ort  # deferred: importing it costs ~0.2 s at start-up

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(0, int(threads))
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3  # unused-initialiser warnings only confuse users
    # Idle worker threads would otherwise spin on the CPU between runs, which a
    # desktop app running beside other programs should not do.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped exception classes
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise MemDeskError(code="onnx_unusable", path=str(path), detail=first[:300]) from exc


def open_tokenizer(path: Path, max_tokens: int):
    from tokenizers import Tokenizer

    try:
        tok = Tokenizer.from_file(str(path))
    except Exception as exc:  # the tokenizers library raises plain Exception
        raise MemDeskError(code="tokenizer_unusable", path=str(path), detail=str(exc)[:300]) from exc
    # We pad per batch ourselves (batches are sorted by length), so any fixed
    # padding configured in the file would only waste work.
    tok.no_padding()
    tok.enable_truncation(max_length=max_tokens)
    return tok


def graph_io(session) -> tuple[tuple[str, ...], str, int | None]:
    """(inputs to feed, hidden-state output, its width if static) of a session."""
    names = [i.name for i in session.get_inputs()]
    unknown = [n for n in names if n not in FED_INPUTS]
    if unknown or "input_ids" not in names:
        raise MemDeskError(code="model_inputs_unsupported", inputs=", ".join(names))
    outputs = session.get_outputs()
    rank3 = [o for o in outputs if len(o.shape or ()) == 3]
    chosen = next((o for o in rank3 if o.name == "last_hidden_state"), rank3[0] if rank3 else None)
    if chosen is None:
        raise MemDeskError(code="model_no_token_output")
    width = chosen.shape[-1]
    return tuple(names), chosen.name, width if isinstance(width, int) else None


def probe_dimension(session, inputs: Sequence[str], output: str) -> int:
    """Width of the hidden state, by running a two-token input when the graph won't say."""
    feed = {n: np.zeros((1, 2), np.int64) for n in inputs}
    if "attention_mask" in feed:
        feed["attention_mask"][:] = 1
    return int(session.run([output], feed)[0].shape[-1])


def is_dynamically_quantised(path: Path) -> bool:
    """True if the graph quantises activations at run time (quantize_dynamic output).

    Op types are stored as plain strings in the protobuf, so a byte search
    answers this without the `onnx` package. Read in blocks: a memory map of the
    whole file made every page of it resident in this process while it was
    searched (+90 MB of peak RSS for bge-small-zh, when the window loads it).
    """
    needle = b"DynamicQuantize"
    tail = b""
    with open(path, "rb") as fh:
        while block := fh.read(SCAN_BLOCK):
            if needle in tail + block[: len(needle) - 1] or needle in block:
                return True
            tail = block[-(len(needle) - 1) :]
    return False


def pool(hidden: np.ndarray, mask: np.ndarray, how: str) -> np.ndarray:
    if how == "cls":
        return hidden[:, 0, :]
    weights = mask[..., None].astype(np.float32)
    return (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)


def length_batches(lengths: Sequence[int], batch_size: int, budget: int = TOKEN_BUDGET) -> list[list[int]]:
    """Indices grouped into batches of similar length (shortest first).

    Similar lengths mean little padding; the budget caps batch x longest.
    """
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        if current and (len(current) >= batch_size or (len(current) + 1) * lengths[i] > budget):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


class OnnxEmbedder:
    """Embedder over a model folder (model.onnx + tokenizer.json + config)."""

    def __init__(
        self, folder: Path, config: ModelConfig, *, threads: int = 0, batch_size: int | None = None, session=None
    ):
        """``batch_size`` None = automatic: 32, or 1 for a dynamically quantised model."""
        self.folder = Path(folder)
        self.config = config
        self.threads = threads
        self.batch_size: int | None = max(1, int(batch_size)) if batch_size else None
        onnx = stamp_file(self.folder / ONNX_FILE, config.files.get(ONNX_FILE))
        tok = stamp_file(self.folder / TOKENIZER_FILE, config.files.get(TOKENIZER_FILE))
        self.stamps = {ONNX_FILE: onnx, TOKENIZER_FILE: tok}
        self.model_id = model_id_for(config, onnx.sha256, tok.sha256)
        self.dim = config.dimension
        self._lock = threading.Lock()
        self._session = session
        self._tokenizer: Any = None  # a tokenizers.Tokenizer once loaded
        self._inputs: tuple[str, ...] = ()
        self._output = ""
        self._pad_id = 0
        if session is not None:
            self.load()

    @classmethod
    def from_folder(
        cls,
        folder,
        *,
        name: str | None = None,
        pooling: str | None = None,
        max_tokens: int | None = None,
        query_instruction: str | None = None,
        normalise: bool | None = None,
        threads: int = 0,
        batch_size: int | None = None,
    ) -> OnnxEmbedder:
        """An embedder for any model folder.

        With a memdesk-model.json this is cheap (nothing is loaded). Without
        one, the model is opened now to read its output width, and settings
        come from the options or the defaults of a known name.
        """
        folder = Path(folder)
        for fname in (ONNX_FILE, TOKENIZER_FILE):
            if not (folder / fname).is_file():
                raise MemDeskError(code="model_file_missing", path=str(folder), file=fname)
        overrides = dict(
            name=name, pooling=pooling, max_tokens=max_tokens, query_instruction=query_instruction, normalise=normalise
        )
        config = read_config(folder)
        session = None
        if config is None:
            session = open_session(folder / ONNX_FILE, threads)
            inputs, output, width = graph_io(session)
            dim = width or probe_dimension(session, inputs, output)
            config = settings_to_config(folder.name, None, overrides, dim)
        elif any(v is not None for v in overrides.values()):
            config = settings_to_config(folder.name, config, overrides, config.dimension)
        return cls(folder, config, threads=threads, batch_size=batch_size, session=session)

    # -- loading -------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._tokenizer is not None

    @property
    def calibration(self) -> dict | None:
        return self.config.calibration

    def load(self) -> None:
        """Open session and tokenizer; idempotent and safe from any thread."""
        with self._lock:
            if self._tokenizer is not None:
                return
            session = self._session or open_session(self.folder / ONNX_FILE, self.threads)
            inputs, output, width = graph_io(session)
            dim = width or probe_dimension(session, inputs, output)
            if dim != self.config.dimension:
                raise MemDeskError(
                    code="model_dimension_changed", path=str(self.folder), found=dim, expected=self.config.dimension
                )
            tokenizer = open_tokenizer(self.folder / TOKENIZER_FILE, self.config.max_tokens)
            if self.batch_size is None:
                quantised = is_dynamically_quantised(self.folder / ONNX_FILE)
                self.batch_size = QUANTISED_BATCH if quantised else DEFAULT_BATCH
            pad = tokenizer.token_to_id("[PAD]")
            self._pad_id = pad if pad is not None else 0
            self._session, self._inputs, self._output = session, inputs, output
            self._tokenizer = tokenizer  # set last: it marks the embedder as loaded

    def unload(self) -> None:
        """Drop the session (e.g. when the user switches models)."""
        with self._lock:
            self._session = self._tokenizer = None

    # -- embedding -----------------------------------------------------------

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        self.load()
        if query and self.config.query_instruction:
            texts = [self.config.query_instruction + t for t in texts]
        encodings = self._tokenizer.encode_batch(texts)
        lengths = [len(e.ids) for e in encodings]
        out = np.empty((len(texts), self.dim), np.float32)
        for batch in length_batches(lengths, self.batch_size or DEFAULT_BATCH):  # load() set it
            width = max(lengths[i] for i in batch)
            ids = np.full((len(batch), width), self._pad_id, np.int64)
            mask = np.zeros((len(batch), width), np.int64)
            types = np.zeros((len(batch), width), np.int64)
            for row, i in enumerate(batch):
                enc, n = encodings[i], lengths[i]
                ids[row, :n] = enc.ids
                mask[row, :n] = 1
                types[row, :n] = enc.type_ids
            arrays = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            hidden = self._session.run([self._output], {n: arrays[n] for n in self._inputs})[0]
            out[batch] = pool(hidden, mask, self.config.pooling)
        if self.config.normalise:
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out

    def __repr__(self) -> str:
        return f"OnnxEmbedder({self.model_id!r}, dim={self.dim}, folder={str(self.folder)!r})"


def settings_to_config(default_name: str, base: ModelConfig | None, overrides: dict, dim: int) -> ModelConfig:
    """Merge a folder's config (or the defaults of a known name) with explicit options.

    ``default_name`` (a folder or file stem) names the model when neither
    the options nor a config do. ``dim`` is what the ONNX graph outputs; a
    config or known default that disagrees is an error, not papered over.
    """
    given = {k: v for k, v in overrides.items() if v is not None}
    if base is not None:
        settings: dict[str, Any] = dict(
            name=base.name,
            dimension=base.dimension,
            pooling=base.pooling,
            normalise=base.normalise,
            max_tokens=base.max_tokens,
            query_instruction=base.query_instruction,
        )
    else:
        name = given.get("name") or sanitise_name(default_name)
        settings = dict(name=name, normalise=True, max_tokens=512, query_instruction="")
        # Installing "all-MiniLM-L6-v2-int8" as --name mini still means MiniLM.
        settings.update(known_defaults(name) or known_defaults(default_name) or {})
    settings.update(given)
    where = f"model {settings['name']!r}"
    if "pooling" not in settings:
        raise MemDeskError(code="model_pooling_unknown", model=settings["name"])
    expected = settings.get("dimension")
    if expected is not None and expected != dim:
        raise MemDeskError(code="model_dimension_wrong", model=settings["name"], expected=expected, found=dim)
    settings["dimension"] = dim
    validate_settings(where=where, **settings)
    if base is not None:
        return base.with_changes(**settings)
    return ModelConfig(**settings)
