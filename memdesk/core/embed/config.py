"""A model folder and the small config of ours that sits in it.

A model folder holds ``model.onnx``, ``tokenizer.json`` and
``memdesk-model.json`` (this module). The config says what the ONNX graph
cannot: how to pool, whether to normalise, how many tokens to keep, and the
instruction bge models want in front of a query. Folders without a config
(e.g. a plain export) get defaults for names we know; anything else must be
told on the command line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from memdesk.core.domain.errors import MemDeskError

ONNX_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
CONFIG_FILE = "memdesk-model.json"
CONFIG_FORMAT = 1
POOLINGS = ("cls", "mean")
BGE_ZH_INSTRUCTION = "为这个句子生成表示以用于检索相关文章："
BGE_EN_INSTRUCTION = "Represent this sentence for searching relevant passages: "

# Defaults for models we know, keyed by lower-case name. "dimension" is a
# check against the ONNX output, never a substitute for reading it.
KNOWN_MODELS: dict[str, dict] = {
    "bge-small-zh-v1.5": dict(dimension=512, pooling="cls", max_tokens=512, query_instruction=BGE_ZH_INSTRUCTION),
    "bge-base-zh-v1.5": dict(dimension=768, pooling="cls", max_tokens=512, query_instruction=BGE_ZH_INSTRUCTION),
    "bge-large-zh-v1.5": dict(dimension=1024, pooling="cls", max_tokens=512, query_instruction=BGE_ZH_INSTRUCTION),
    "bge-small-en-v1.5": dict(dimension=384, pooling="cls", max_tokens=512, query_instruction=BGE_EN_INSTRUCTION),
    "all-minilm-l6-v2": dict(dimension=384, pooling="mean", max_tokens=256, query_instruction=""),
}

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def known_defaults(name: str) -> dict | None:
    """Defaults for ``name`` or a variant of it ("all-MiniLM-L6-v2-int8")."""
    low = name.lower()
    for key, defaults in KNOWN_MODELS.items():
        if low == key or low.startswith(key + "-") or low.startswith(key + "_"):
            return dict(defaults)
    return None


def check_name(name: str) -> str:
    """Model names become folder names, so keep them to a safe alphabet."""
    if not _NAME_RE.match(name or ""):
        raise MemDeskError(code="model_bad_name", model=name)
    return name


def sanitise_name(raw: str) -> str:
    """Turn a folder or file stem into a usable model name."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", raw).strip("-._")[:64]
    return name or "model"


@dataclass(frozen=True)
class FileStamp:
    """A file's sha256 with the size/mtime it had when hashed.

    Hashing a 100 MB model on every start is wasteful; while size and mtime
    are unchanged the recorded hash is trusted.
    """

    sha256: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class ModelConfig:
    name: str
    dimension: int
    pooling: str  # "cls" | "mean"
    normalise: bool = True
    max_tokens: int = 512
    query_instruction: str = ""
    quantization: str = ""  # "" (as supplied) or "int8-per-channel"
    source: str = ""  # where the files came from, for `model list`
    files: dict[str, FileStamp] = field(default_factory=dict)
    calibration: dict | None = None  # see calibrate.py

    def to_json(self) -> dict:
        data = asdict(self)
        data["format"] = CONFIG_FORMAT
        return data

    def with_changes(self, **changes) -> ModelConfig:
        return replace(self, **changes)


def validate_settings(*, name: str, dimension, pooling, normalise, max_tokens, query_instruction, where: str) -> None:
    """Raise MemDeskError naming ``where`` if any setting is unusable."""
    problems = []
    if not isinstance(dimension, int) or isinstance(dimension, bool) or dimension <= 0:
        problems.append(f"dimension must be a positive integer, not {dimension!r}")
    if pooling not in POOLINGS:
        problems.append(f"pooling must be one of {', '.join(POOLINGS)}, not {pooling!r}")
    if not isinstance(normalise, bool):
        problems.append(f"normalise must be true or false, not {normalise!r}")
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or not 8 <= max_tokens <= 8192:
        problems.append(f"max_tokens must be an integer from 8 to 8192, not {max_tokens!r}")
    if not isinstance(query_instruction, str):
        problems.append("query_instruction must be text")
    if problems:
        raise MemDeskError(code="model_bad_settings", where=where, detail="; ".join(problems))
    check_name(name)


def read_config(folder: Path) -> ModelConfig | None:
    """The folder's memdesk-model.json, or None when there is none."""
    path = Path(folder) / CONFIG_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MemDeskError(code="model_config_unreadable", path=str(path), detail=str(exc)) from exc
    if not isinstance(data, dict):
        raise MemDeskError(code="model_config_not_object", path=str(path))
    if data.get("format", CONFIG_FORMAT) > CONFIG_FORMAT:
        raise MemDeskError(code="model_config_too_new", path=str(path), version=data["format"])
    missing = [k for k in ("name", "dimension", "pooling") if k not in data]
    if missing:
        raise MemDeskError(code="model_config_missing", path=str(path), keys=", ".join(missing))
    settings = dict(
        name=data["name"],
        dimension=data["dimension"],
        pooling=data["pooling"],
        normalise=data.get("normalise", True),
        max_tokens=data.get("max_tokens", 512),
        query_instruction=data.get("query_instruction", ""),
    )
    validate_settings(where=str(path), **settings)
    files = {}
    for fname, stamp in (data.get("files") or {}).items():
        try:
            files[fname] = FileStamp(str(stamp["sha256"]), int(stamp["size"]), int(stamp["mtime_ns"]))
        except (KeyError, TypeError, ValueError):
            continue  # a damaged stamp only costs a re-hash
    calibration = data.get("calibration")
    return ModelConfig(
        **settings,
        quantization=str(data.get("quantization", "")),
        source=str(data.get("source", "")),
        files=files,
        calibration=calibration if isinstance(calibration, dict) else None,
    )


def write_config(folder: Path, config: ModelConfig) -> None:
    path = Path(folder) / CONFIG_FILE
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(config.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def stamp_file(path: Path, known: FileStamp | None = None) -> FileStamp:
    """Hash ``path``, reusing ``known`` while size and mtime still match."""
    st = os.stat(path)
    if known is not None and known.size == st.st_size and known.mtime_ns == st.st_mtime_ns:
        return known
    return FileStamp(sha256_file(path), st.st_size, st.st_mtime_ns)


def model_id_for(config: ModelConfig, onnx_sha256: str, tokenizer_sha256: str) -> str:
    """Names the vectors a model makes: anything that changes them changes this.

    Pooling stays readable; the file hashes, token limit and normalisation go
    into a short digest, so a swapped model of the same dimension never
    mixes its vectors with the old ones.
    """
    salt = f"{onnx_sha256}:{tokenizer_sha256}:{config.max_tokens}:{int(config.normalise)}"
    digest = hashlib.sha256(salt.encode()).hexdigest()[:12]
    return f"{config.name}/{config.pooling}/{digest}"
