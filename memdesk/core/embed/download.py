"""Download a model from a Hugging Face style hub, resumably and verified.

URLs follow the hub layout ``{base}/{repo}/resolve/{revision}/{path}``;
``base`` is, first found: the ``hub`` argument (`--hub URL`, the window's
choice), $MEMDESK_HUB_URL, $HF_ENDPOINT (what mirror users in mainland China
already set for every Hugging Face tool, e.g. https://hf-mirror.com), else
https://huggingface.co.

Checksums: before downloading, the hub's tree metadata
(``{base}/api/models/{repo}/tree/{revision}/{dir}``) gives each file's size
and either the sha256 of its LFS object (large files such as model.onnx) or
its git blob sha1 (small files such as tokenizer.json). Every file is
verified against that before anything is installed. Revisions are pinned to
commits, so the metadata cannot drift. A pinned sha256 in PINNED_SHA256,
when present, must match as well; the table is empty because we could not
obtain verified values from an offline machine.

Resuming: bytes go to ``<file>.part`` under models/.downloads/; a later run
asks for the rest with an HTTP Range request and starts over only if the
server ignores it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.parse import quote, urlsplit
from urllib.request import Request, urlopen

from memdesk import __version__
from memdesk.core.domain.errors import CancelledError, MemDeskError, ModelError

from .config import (
    ONNX_FILE,
    TOKENIZER_FILE,
    check_name,
    known_defaults,
    sanitise_name,
    sha256_file,
)
from .registry import ModelInfo, resolve_root

ENV_HUB_URL = "MEMDESK_HUB_URL"
ENV_HF_ENDPOINT = "HF_ENDPOINT"
DEFAULT_HUB_URL = "https://huggingface.co"
TIMEOUT = 30
CHUNK = 1 << 20
USER_AGENT = f"MemDesk/{__version__}"


@dataclass(frozen=True)
class HubModel:
    repo: str
    revision: str  # a commit, so the files cannot change under us
    files: dict  # our file name -> path in the repository


# bge-small-zh-v1.5 as ONNX: the Transformers.js export of BAAI's weights
# (last_hidden_state output; CLS pooling is ours to do).
HUB_MODELS: dict[str, HubModel] = {
    "bge-small-zh-v1.5": HubModel(
        repo="Xenova/bge-small-zh-v1.5",
        revision="d990a82dec71c3c1cec53fc9870f2bc97a52f492",
        files={ONNX_FILE: "onnx/model.onnx", TOKENIZER_FILE: "tokenizer.json"},
    ),
}
# (repo, revision, path) -> sha256, checked in addition to the hub metadata.
PINNED_SHA256: dict[tuple[str, str, str], str] = {}


def check_hub(url: str) -> str:
    """``url`` without its trailing slash, if it can be a hub (http or https with a host)."""
    text = (url or "").strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ModelError(kind="server", code="hub_bad_address", text=text)
    return text.rstrip("/")


def hub_url(hub: str | None = None) -> str:
    """The hub to use: ``hub``, else $MEMDESK_HUB_URL, else $HF_ENDPOINT, else Hugging Face."""
    for candidate in (hub, os.environ.get(ENV_HUB_URL), os.environ.get(ENV_HF_ENDPOINT)):
        if candidate and candidate.strip():
            return check_hub(candidate)
    return DEFAULT_HUB_URL


@dataclass(frozen=True)
class RemoteFile:
    path: str
    size: int
    sha256: str | None  # LFS files
    git_sha1: str | None  # small files stored in git itself


def _open(url: str, headers: dict | None = None):
    request = Request(url, headers={"User-Agent": USER_AGENT, **(headers or {})})
    try:
        return urlopen(request, timeout=TIMEOUT)
    except HTTPError as exc:
        code = "hub_not_found" if exc.code == 404 else "hub_refused"
        raise ModelError(kind="server", code=code, url=url, status=exc.code, reason=str(exc.reason)) from exc
    except (URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ModelError(kind="network", code="hub_unreachable", host=urlsplit(url).netloc, detail=str(reason)) from exc


def fetch_metadata(base: str, repo: str, revision: str, paths) -> dict[str, RemoteFile]:
    """Size and checksum of each wanted path, from the hub's tree listing."""
    rev = quote(revision, safe="")
    wanted, found = set(paths), {}
    for folder in sorted({str(PurePosixPath(p).parent) for p in wanted}):
        suffix = "" if folder == "." else "/" + quote(folder, safe="/")
        url = f"{base}/api/models/{repo}/tree/{rev}{suffix}"
        with _open(url) as resp:
            try:
                entries = json.loads(resp.read().decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as exc:
                raise ModelError(kind="server", code="hub_bad_listing", url=url) from exc
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict) or entry.get("path") not in wanted:
                continue
            lfs: dict = entry.get("lfs") or {}
            size: Any = lfs.get("size", entry.get("size", -1))  # JSON: checked by int()
            found[entry["path"]] = RemoteFile(
                entry["path"],
                int(size),
                lfs.get("oid") or None,
                None if lfs else entry.get("oid"),
            )
    missing = sorted(wanted - set(found))
    if missing:
        raise ModelError(
            kind="server",
            code="hub_files_missing",
            repo=repo,
            revision=revision[:12],
            files=", ".join(missing),
            hub=base,
        )
    for remote in found.values():
        if remote.size < 0 or not (remote.sha256 or remote.git_sha1):
            raise ModelError(kind="checksum", code="hub_no_checksum", file=remote.path)
    return found


def _git_blob_sha1(path: Path) -> str:
    digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def verify(path: Path, remote: RemoteFile, pinned: str | None) -> None:
    """Raise (after deleting ``path``) unless it is exactly the hub's file."""
    problem = ""
    if path.stat().st_size != remote.size:
        problem = f"size {path.stat().st_size}, expected {remote.size}"
    else:
        checks = []
        if remote.sha256 or pinned:
            sha = sha256_file(path)
            checks += [("sha256", want, sha) for want in (remote.sha256, pinned) if want]
        if remote.git_sha1:
            checks.append(("git sha1", remote.git_sha1, _git_blob_sha1(path)))
        for kind, want, got in checks:
            if want.lower() != got:
                problem = f"{kind} {got[:16]}…, expected {want[:16]}…"
                break
    if problem:
        path.unlink(missing_ok=True)
        raise ModelError(kind="checksum", code="checksum_mismatch", file=remote.path, detail=problem)


def fetch_file(url: str, part: Path, size: int, *, progress: Callable[[int], None], cancel: Callable[[], bool]) -> None:
    """Bring ``part`` to ``size`` bytes, continuing where an earlier run stopped."""
    have = part.stat().st_size if part.exists() else 0
    if have > size:
        part.unlink()
        have = 0
    if have == size:
        progress(have)
        return
    try:
        resp = _open(url, {"Range": f"bytes={have}-"} if have else None)
    except MemDeskError as exc:
        if have and isinstance(exc.__cause__, HTTPError) and exc.__cause__.code == 416:
            part.unlink()  # our partial file does not fit the server's: start over
            return fetch_file(url, part, size, progress=progress, cancel=cancel)
        raise
    with resp:
        resumed = have and resp.status == 206 and (resp.headers.get("Content-Range", "").startswith(f"bytes {have}-"))
        if not resumed:
            have = 0  # the server sent the whole file
        try:
            with open(part, "ab" if resumed else "wb") as out:
                progress(have)
                while chunk := resp.read(CHUNK):
                    out.write(chunk)
                    have += len(chunk)
                    if have > size:
                        break
                    progress(have)
                    if cancel():
                        raise CancelledError(code="download_paused")
        except (OSError, ValueError) as exc:  # dropped connection, timeout, full disk
            name = PurePosixPath(urlsplit(url).path).name
            if getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT):
                raise ModelError(
                    kind="disk", code="download_disk_full", file=name, mb=have >> 20, path=str(part.parent)
                ) from exc
            raise ModelError(
                kind="network", code="download_stopped", file=name, mb=have >> 20, detail=str(exc)
            ) from exc
    if have < size:
        name = PurePosixPath(urlsplit(url).path).name
        raise ModelError(kind="network", code="download_short", file=name, have=have, size=size)


def _fetch_files(
    address: str,
    repo: str,
    revision: str,
    files: dict[str, str],
    remote: dict,
    work: Path,
    total: int,
    *,
    progress,
    status,
    cancel,
) -> None:
    """Each of ``files`` (our name -> the hub's path) into ``work``, verified; one an earlier,
    interrupted run finished is kept. ``progress`` counts bytes over all files."""
    done_before = 0
    for ours, theirs in files.items():
        rf, dest = remote[theirs], work / ours
        if dest.exists():  # verified by an earlier, interrupted run
            if dest.stat().st_size == rf.size:
                done_before += rf.size
                continue
            dest.unlink()
        url = f"{address}/resolve/{quote(revision, safe='')}/{quote(theirs, safe='/')}"
        status(f"downloading {theirs} ({rf.size >> 20} MB)")
        part = work / (ours + ".part")

        def report(n: int, offset: int = done_before) -> None:
            progress(offset + n, total)

        fetch_file(url, part, rf.size, cancel=cancel, progress=report)
        verify(part, rf, PINNED_SHA256.get((repo, revision, theirs)))
        os.replace(part, dest)
        done_before += rf.size


def _source(key: str, repo: str | None, revision: str | None) -> tuple[str, str, dict[str, str]]:
    """(repo, revision, {our file name: the hub's path}) for a known model or any ``repo``."""
    known = HUB_MODELS.get(key)
    if not repo:
        if known is None:
            raise MemDeskError(code="unknown_model", model=key, known=", ".join(HUB_MODELS))
        repo = known.repo
    revision = revision or (known.revision if known and repo == known.repo else "main")
    files = known.files if known else {ONNX_FILE: f"onnx/{ONNX_FILE}", TOKENIZER_FILE: TOKENIZER_FILE}
    return repo, revision, files


def _install_settings(key: str, pooling: str | None) -> dict:
    """A known model's settings for install_model, ``pooling`` over them."""
    settings = known_defaults(key) or {}
    settings.pop("dimension", None)  # the model itself says that
    if pooling:
        settings["pooling"] = pooling
    return settings


def download_model(
    key: str,
    *,
    int8: bool = False,
    name: str | None = None,
    repo: str | None = None,
    revision: str | None = None,
    pooling: str | None = None,
    force: bool = False,
    make_active: bool | None = None,
    root: Path | None = None,
    threads: int = 0,
    hub: str | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
    status: Callable[[str], None] = lambda message: None,
    cancel: Callable[[], bool] = lambda: False,
) -> ModelInfo:
    """Download ``key`` (a known model, or any name with ``repo``) and install it.

    ``int8`` quantises the downloaded fp32 model per channel on install;
    ``hub`` is the hub's address (see hub_url for the default).
    """
    from .install import ensure_space, install_model  # install imports registry; keep this module light
    from .quantize import require_quantiser

    repo, revision, files = _source(key, repo, revision)
    final = check_name(name or (key + "-int8" if int8 else key))
    if int8:
        require_quantiser()
    root = resolve_root(root)
    if (root / final).exists() and not force:
        raise ModelError(kind="exists", code="model_name_taken_download", model=final)
    base = hub_url(hub)
    status(f"asking {base} about {repo}")
    remote = fetch_metadata(base, repo, revision, files.values())
    work = root / ".downloads" / sanitise_name(f"{repo}@{revision[:12]}")
    work.mkdir(parents=True, exist_ok=True)
    total = sum(remote[p].size for p in files.values())
    ensure_space(root, total * 2)  # the download, then the installed copy
    _fetch_files(
        f"{base}/{repo}", repo, revision, files, remote, work, total, progress=progress, status=status, cancel=cancel
    )
    settings = _install_settings(key, pooling)
    try:
        return install_model(
            work,
            name=final,
            int8=int8,
            force=force,
            make_active=make_active,
            source_label=f"{base}/{repo}@{revision}",
            threads=threads,
            root=root,
            status=status,
            **settings,
        )
    finally:
        # Verified files that fail to install would fail again: no reason to keep them.
        shutil.rmtree(work, ignore_errors=True)
