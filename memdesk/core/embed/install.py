"""Install a model from a folder or a .zip, all or nothing.

Files are copied (or extracted, or quantised) into a staging folder inside
the models folder, the model is opened and run there, a config with file
hashes and a calibration is written, and only then is the staging folder
renamed to the model's name. Any failure removes the staging folder.
"""

from __future__ import annotations

import errno
import os
import shutil
import time
import uuid
import zipfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

import numpy as np

from memdesk.core.domain.errors import MemDeskError, ModelError
from memdesk.core.io.zipsafe import ZipLimits, check_archive, copy_bounded

from .calibrate import calibrate
from .config import (
    CONFIG_FILE,
    ONNX_FILE,
    TOKENIZER_FILE,
    check_name,
    read_config,
    sanitise_name,
    write_config,
)
from .onnx_embedder import OnnxEmbedder, graph_io, open_session, probe_dimension, settings_to_config
from .quantize import QUANTIZATION_LABEL, quantize_int8, require_quantiser
from .registry import ModelInfo, active_name, model_info, resolve_root, set_active

# Zip limits. Real models are < 2 GB and compress poorly (float weights ~1.1x,
# tokenizer.json ~4x); a member that inflates 100-fold is a bomb, not a model.
MAX_ZIP_ENTRIES = 10_000
ZIP_LIMITS = ZipLimits(entries=MAX_ZIP_ENTRIES, total_bytes=4 << 30, ratio=100)
SCAN_DEPTH = 3  # how deep to look for model files inside a source folder
STALE_STAGING_SECONDS = 3600


def pick_model_files(paths: Iterable[str]) -> tuple[str, str, str | None]:
    """(onnx, tokenizer, config or None) among relative POSIX paths.

    The shallowest tokenizer.json fixes the model's base folder; the model
    is base/model.onnx, else base/onnx/model.onnx (the hub layout), else
    the only .onnx file under base.
    """
    paths = [p for p in paths if p and not p.endswith("/")]
    toks = sorted((p for p in paths if PurePosixPath(p).name == TOKENIZER_FILE), key=lambda p: (p.count("/"), p))
    if not toks:
        raise ModelError(kind="not_model", code="model_no_tokenizer")
    if len(toks) > 1 and toks[0].count("/") == toks[1].count("/"):
        raise ModelError(kind="not_model", code="model_several_tokenizers", first=toks[0], second=toks[1])
    base = PurePosixPath(toks[0]).parent
    prefix = "" if str(base) == "." else f"{base}/"
    under = [p for p in paths if p.startswith(prefix)]
    onnx = next((c for c in (f"{prefix}{ONNX_FILE}", f"{prefix}onnx/{ONNX_FILE}") if c in under), None)
    if onnx is None:
        found = sorted(p for p in under if p.endswith(".onnx"))
        if len(found) != 1:
            listing = ", ".join(found[:6]) or "none"
            raise ModelError(kind="not_model", code="model_which_onnx", found=listing)
        onnx = found[0]
    config = f"{prefix}{CONFIG_FILE}"
    return onnx, toks[0], config if config in under else None


def _scan_folder(folder: Path) -> list[str]:
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        rel = Path(dirpath).relative_to(folder)
        depth = 0 if str(rel) == "." else len(rel.parts)
        if depth >= SCAN_DEPTH:
            dirnames[:] = []
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        found.extend((rel / f).as_posix() if depth else f for f in filenames)
        if len(found) > MAX_ZIP_ENTRIES:
            raise ModelError(kind="not_model", code="model_too_many_files", path=str(folder))
    return found


def _refused(where: str):
    return lambda problem: ModelError(kind="not_model", code="model_archive_refused", name=where, detail=problem)


def check_zip(zf: zipfile.ZipFile, where: str) -> None:
    """Refuse the whole archive if any entry is unsafe; nothing is extracted first."""
    check_archive(zf, ZIP_LIMITS, _refused(where))


def _extract(zf: zipfile.ZipFile, member: str, dest: Path, where: str) -> None:
    with open(dest, "wb") as out:
        copy_bounded(zf, zf.getinfo(member), out, _refused(where))


def ensure_space(root: Path, needed: int) -> None:
    free = shutil.disk_usage(root).free
    if free < needed + (64 << 20):
        raise ModelError(kind="disk", code="model_disk_space", path=str(root), need=needed >> 20, free=free >> 20)


def _sweep_stale(root: Path) -> None:
    """Remove work folders left by a crash (old enough not to be in use)."""
    cutoff = time.time() - STALE_STAGING_SECONDS
    for p in root.glob(".install-*"):
        if p.is_dir() and p.stat().st_mtime < cutoff:
            shutil.rmtree(p, ignore_errors=True)
    for p in root.glob(".removing-*"):
        shutil.rmtree(p, ignore_errors=True)


def _stage(onnx_src: Path, tok_src: Path, staging: Path, *, int8: bool, status) -> None:
    """model.onnx (quantised if asked) and tokenizer.json into ``staging``, and nothing else."""
    if int8:
        status("quantising to int8 (per channel)")
        quantize_int8(onnx_src, staging / ONNX_FILE)
    else:
        _place(onnx_src, staging / ONNX_FILE, staging)
    _place(tok_src, staging / TOKENIZER_FILE, staging)
    for leftover in staging.iterdir():  # drop extracted originals already copied
        if leftover.name not in (ONNX_FILE, TOKENIZER_FILE):
            shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()


def install_model(
    source,
    *,
    name: str | None = None,
    pooling: str | None = None,
    max_tokens: int | None = None,
    query_instruction: str | None = None,
    normalise: bool | None = None,
    int8: bool = False,
    force: bool = False,
    make_active: bool | None = None,
    source_label: str | None = None,
    threads: int = 0,
    root: Path | None = None,
    status: Callable[[str], None] = lambda message: None,
) -> ModelInfo:
    """Install the model in folder or .zip ``source`` under the models folder.

    ``make_active``: None = only if no model is active yet. Settings given
    here override the source's memdesk-model.json or a known name's defaults.
    """
    source = Path(source).expanduser()
    root = resolve_root(root)
    if not source.exists():
        raise ModelError(kind="not_model", code="model_source_missing", path=str(source))
    if name is not None:
        check_name(name)
    if int8:
        require_quantiser()
    root.mkdir(parents=True, exist_ok=True)
    _sweep_stale(root)
    staging = root / f".install-{uuid.uuid4().hex[:12]}"
    staging.mkdir()
    try:
        final = _build(
            source,
            staging,
            root,
            name=name,
            force=force,
            int8=int8,
            threads=threads,
            source_label=source_label,
            status=status,
            overrides=dict(
                pooling=pooling, max_tokens=max_tokens, query_instruction=query_instruction, normalise=normalise
            ),
        )
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise ModelError(kind="disk", code="model_disk_full", path=str(root), detail=str(exc)) from exc
        raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    if make_active or (make_active is None and active_name(root) is None):
        set_active(final, root)
    return model_info(final, root)


def _build(
    source: Path,
    staging: Path,
    root: Path,
    *,
    name: str | None,
    force: bool,
    int8: bool,
    threads: int,
    source_label: str | None,
    status,
    overrides: dict,
) -> str:
    """Check ``source``, stage, test and configure it in ``staging``, then swap it into place
    under ``root``; returns the installed name."""
    status(f"checking {source.name}")
    base_dir, default_name, onnx_src, tok_src = _gather(source, staging)
    base = read_config(base_dir) if base_dir is not None else None
    final = name or (base.name if base else sanitise_name(default_name))
    check_name(final)
    target = root / final
    if target.exists() and not force:
        raise ModelError(kind="exists", code="model_name_taken", model=final)
    if base and base.quantization and int8:
        raise MemDeskError(code="model_already_quantised", path=str(source), quantization=base.quantization)
    ensure_space(root, onnx_src.stat().st_size + tok_src.stat().st_size)
    _stage(onnx_src, tok_src, staging, int8=int8, status=status)
    status("loading and testing the model")
    config = _test_and_configure(
        staging,
        base,
        default_name,
        threads,
        dict(name=final, **overrides),
        quantization=QUANTIZATION_LABEL if int8 else (base.quantization if base else ""),
        source=source_label or (base.source if base and base.source else str(source)),
    )
    write_config(staging, config)
    _swap_into_place(staging, target, root)
    return final


def _gather(source: Path, staging: Path) -> tuple[Path | None, str, Path, Path]:
    """(folder holding a config or None, default name, onnx path, tokenizer path)."""
    if source.is_dir():
        onnx, tok, cfg = pick_model_files(_scan_folder(source))
        base = (source / tok).parent
        return base, base.name, source / onnx, source / tok
    if not zipfile.is_zipfile(source):
        raise ModelError(kind="not_model", code="model_not_folder_or_zip", path=str(source))
    try:
        with zipfile.ZipFile(source) as zf:
            check_zip(zf, source.name)
            names = [i.filename.replace("\\", "/") for i in zf.infolist() if not i.is_dir()]
            onnx, tok, cfg = pick_model_files(names)
            unpacked = staging / "unpacked"
            unpacked.mkdir()
            ensure_space(staging, sum(zf.getinfo(m).file_size for m in (onnx, tok)))
            for member, dest in ((onnx, ONNX_FILE), (tok, TOKENIZER_FILE), (cfg, CONFIG_FILE)):
                if member:
                    _extract(zf, member, unpacked / dest, source.name)
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        OSError,
        EOFError,
        ValueError,
        NotImplementedError,
        zlib.error,
    ) as exc:  # every way a damaged archive fails
        if getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT):
            raise ModelError(kind="disk", code="model_disk_full_unpacking", path=str(source)) from exc
        raise ModelError(kind="not_model", code="model_archive_unreadable", path=str(source), detail=str(exc)) from exc
    inner = PurePosixPath(tok).parent.name
    return unpacked, inner or source.stem, unpacked / ONNX_FILE, unpacked / TOKENIZER_FILE


def _test_and_configure(
    staging: Path, base, default_name: str, threads: int, overrides: dict, *, quantization: str, source: str
):
    """Open the staged model, run it, and return its finished config."""
    session = open_session(staging / ONNX_FILE, threads)
    inputs, output, width = graph_io(session)
    try:
        dim = width or probe_dimension(session, inputs, output)
    except Exception as exc:  # onnxruntime's own exception types
        raise ModelError(kind="broken", code="model_fails_test", detail=str(exc)[:300]) from exc
    config = settings_to_config(default_name, base, overrides, dim)
    config = config.with_changes(quantization=quantization, source=source, files={}, calibration=None)
    embedder = OnnxEmbedder(staging, config, threads=threads, session=session)
    try:
        vectors = embedder.embed(["MemDesk test sentence.", "记忆台测试句子。"], query=True)
    except MemDeskError:
        raise
    except Exception as exc:
        raise ModelError(kind="broken", code="model_fails_test", detail=str(exc)[:300]) from exc
    if not np.isfinite(vectors).all():
        raise ModelError(kind="broken", code="model_not_finite")
    result = config.with_changes(files=dict(embedder.stamps), calibration=calibrate(embedder))
    embedder.unload()  # Windows cannot rename a folder with an open model file
    return result


def _place(src: Path, dest: Path, staging: Path) -> None:
    """Move files we extracted ourselves; copy the user's."""
    if src.is_relative_to(staging):
        os.replace(src, dest)
    else:
        shutil.copyfile(src, dest)


def _swap_into_place(staging: Path, target: Path, root: Path) -> None:
    if not target.exists():
        os.rename(staging, target)
        return
    old = root / f".removing-{uuid.uuid4().hex[:8]}"
    try:
        os.rename(target, old)
    except OSError as exc:
        raise MemDeskError(code="model_replace_failed", path=str(target), detail=str(exc)) from exc
    os.rename(staging, target)
    shutil.rmtree(old, ignore_errors=True)
