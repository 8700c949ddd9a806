"""Installed models: where they live, which one is active, list/use/remove.

Layout of the models folder (user data dir, or $MEMDESK_MODELS_DIR)::

    models/
      active.json            {"name": "bge-small-zh-v1.5"}
      bge-small-zh-v1.5/     model.onnx, tokenizer.json, memdesk-model.json
      .install-*/ .downloads/ .removing-*/   work areas, never listed

A model folder appears under its name only by an atomic rename of a fully
checked staging folder, so a listed model is never half-installed.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from memdesk.core.domain.errors import MemDeskError

from .config import ONNX_FILE, TOKENIZER_FILE, ModelConfig, check_name, read_config
from .onnx_embedder import OnnxEmbedder

ENV_MODELS_DIR = "MEMDESK_MODELS_DIR"
ACTIVE_FILE = "active.json"
ADD_MODEL_HINT = (
    "add one with `memdesk model install DIR` (a folder or .zip with model.onnx and "
    "tokenizer.json) or, with internet access, `memdesk model download bge-small-zh-v1.5`"
)


def models_dir() -> Path:
    """Where models are installed; $MEMDESK_MODELS_DIR overrides the default."""
    override = os.environ.get(ENV_MODELS_DIR)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("MemDesk", appauthor=False)) / "models"


def resolve_root(root: Path | None = None) -> Path:
    """``root`` if given, else the configured models folder."""
    return Path(root) if root is not None else models_dir()


@dataclass(frozen=True)
class ModelInfo:
    name: str
    folder: Path
    config: ModelConfig | None  # None when the folder is damaged
    active: bool
    size_bytes: int
    problem: str = ""  # why the model cannot be used, if it cannot

    def to_json(self) -> dict:
        cfg = self.config
        return {
            "name": self.name,
            "folder": str(self.folder),
            "active": self.active,
            "size_bytes": self.size_bytes,
            "problem": self.problem,
            "dimension": cfg.dimension if cfg else None,
            "pooling": cfg.pooling if cfg else None,
            "quantization": cfg.quantization if cfg else None,
            "source": cfg.source if cfg else None,
        }


def model_info(name: str, root: Path | None = None) -> ModelInfo:
    root = resolve_root(root)
    folder = root / name
    if not folder.is_dir() or name.startswith("."):
        raise MemDeskError(code="model_not_installed", model=name)
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    config, problem = None, ""
    try:
        missing = [f for f in (ONNX_FILE, TOKENIZER_FILE) if not (folder / f).is_file()]
        config = read_config(folder)
        if config is None:
            problem = "memdesk-model.json is missing"
        elif missing:
            problem = f"{', '.join(missing)} missing"
    except MemDeskError as exc:
        problem = str(exc)
    return ModelInfo(name, folder, config, name == active_name(root), size, problem)


def list_models(root: Path | None = None) -> list[ModelInfo]:
    root = resolve_root(root)
    if not root.is_dir():
        return []
    names = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    return [model_info(n, root) for n in names]


def active_name(root: Path | None = None) -> str | None:
    path = resolve_root(root) / ACTIVE_FILE
    try:
        name = json.loads(path.read_text(encoding="utf-8")).get("name")
    except (OSError, ValueError, AttributeError):
        return None
    return name if isinstance(name, str) and name else None


def set_active(name: str | None, root: Path | None = None) -> None:
    root = resolve_root(root)
    root.mkdir(parents=True, exist_ok=True)
    path = root / ACTIVE_FILE
    if name is None:
        path.unlink(missing_ok=True)
        return
    tmp = root / f".{ACTIVE_FILE}.{uuid.uuid4().hex[:8]}"
    tmp.write_text(json.dumps({"name": name}) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def use_model(name: str, root: Path | None = None) -> ModelInfo:
    """Make ``name`` the model search uses."""
    check_name(name)
    info = model_info(name, root)
    if info.problem:
        raise MemDeskError(code="model_unusable", model=name, detail=info.problem)
    set_active(name, root)
    return model_info(name, root)


def remove_model(name: str, root: Path | None = None) -> bool:
    """Delete an installed model; returns True if it was the active one."""
    root = resolve_root(root)
    check_name(name)
    model_info(name, root)  # raises a clear error when it is not there
    was_active = active_name(root) == name
    # Rename first so the model vanishes at once even if deleting is slow or fails.
    doomed = root / f".removing-{uuid.uuid4().hex[:8]}"
    try:
        os.rename(root / name, doomed)
    except OSError as exc:
        raise MemDeskError(code="model_remove_failed", model=name, detail=str(exc)) from exc
    if was_active:
        set_active(None, root)
    shutil.rmtree(doomed, ignore_errors=True)
    return was_active


def load_embedder(folder, *, threads: int = 0, batch_size: int | None = None, **settings) -> OnnxEmbedder:
    """An embedder for a model folder, installed or not (e.g. `bench --model DIR`).

    ``settings`` (name, pooling, max_tokens, query_instruction, normalise)
    override the folder's config; a folder without one needs them unless its
    name is a known model.
    """
    return OnnxEmbedder.from_folder(folder, threads=threads, batch_size=batch_size, **settings)


def bundled_model_dir() -> Path | None:
    """The model an installer ships (PyInstaller bundle: models/bundled), if any."""
    import sys

    base = getattr(sys, "_MEIPASS", None)
    folder = Path(base) / "models" / "bundled" if base else None
    return folder if folder is not None and (folder / ONNX_FILE).is_file() else None


def active_embedder(
    *, threads: int = 0, batch_size: int | None = None, root: Path | None = None
) -> tuple[OnnxEmbedder | None, str]:
    """(embedder of the active model, "") or (None, a hint to show the user).

    Cheap: reads the config and stats the files; the session is opened by
    the first embed or by ``embedder.load()`` on a worker thread.
    """
    root = resolve_root(root)
    name = active_name(root)
    if name is None:
        installed = [m.name for m in list_models(root) if not m.problem]
        if installed:
            return None, (
                "Search is keyword-only: no embedding model is selected; choose one with "
                f"`memdesk model use NAME` (installed: {', '.join(installed)})"
            )
        bundled = bundled_model_dir()
        if bundled is not None:
            try:
                config = read_config(bundled)
                if config is None:
                    raise MemDeskError(f"{bundled}: memdesk-model.json is missing")
                return OnnxEmbedder(bundled, config, threads=threads, batch_size=batch_size), ""
            except (MemDeskError, OSError):
                pass  # a damaged bundle: fall through to keyword-only with the usual hint
        return None, f"Search is keyword-only: no embedding model is installed; {ADD_MODEL_HINT}"
    try:
        info = model_info(name, root)
        if info.problem or info.config is None:
            raise MemDeskError(info.problem or "memdesk-model.json is missing")
        return OnnxEmbedder(info.folder, info.config, threads=threads, batch_size=batch_size), ""
    except (MemDeskError, OSError) as exc:
        return None, (
            f"Search is keyword-only: the active model {name!r} cannot be used ({exc}); "
            f"reinstall it, pick another with `memdesk model use NAME`, or {ADD_MODEL_HINT}"
        )
