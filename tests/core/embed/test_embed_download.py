"""Downloading from a hub: a loopback HTTP server in the hub's layout, never the internet."""

import pytest

from memdesk.core.domain.errors import CancelledError, MemDeskError
from memdesk.core.embed import HUB_MODELS, active_name, download_model, list_models

BGE = HUB_MODELS["bge-small-zh-v1.5"]


@pytest.fixture
def bge_files(tmp_path, kit):
    """A tiny model shaped like bge-small-zh-v1.5 (512 dims) in the hub's file layout."""
    folder = kit.make_folder(tmp_path / "bge-src", hidden=512)
    return {
        BGE.files["model.onnx"]: (folder / "model.onnx").read_bytes(),
        BGE.files["tokenizer.json"]: (folder / "tokenizer.json").read_bytes(),
    }


@pytest.fixture
def bge_hub(hub, bge_files):
    hub.repos[BGE.repo] = dict(bge_files)
    hub.lfs.add(BGE.files["model.onnx"])
    return hub


def model_requests(hub):
    return [r for r in hub.requests if r[0].endswith("/onnx/model.onnx")]


def test_download_installs_the_pinned_revision_with_known_settings(bge_hub, models_root):
    seen = []
    info = download_model("bge-small-zh-v1.5", progress=lambda done, total: seen.append((done, total)))
    cfg = info.config
    assert (info.name, cfg.dimension, cfg.pooling, cfg.max_tokens) == ("bge-small-zh-v1.5", 512, "cls", 512)
    assert cfg.query_instruction == "为这个句子生成表示以用于检索相关文章："
    assert cfg.source.endswith(f"{BGE.repo}@{BGE.revision}")
    assert active_name() == "bge-small-zh-v1.5"
    paths = [p for p, _ in bge_hub.requests]
    assert f"/{BGE.repo}/resolve/{BGE.revision}/onnx/model.onnx" in paths
    assert f"/api/models/{BGE.repo}/tree/{BGE.revision}/onnx" in paths
    total = seen[-1][1]
    assert seen[-1] == (total, total) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert not (models_root / ".downloads" / "Xenova-bge-small-zh-v1.5-d990a82dec71").exists()


def test_interrupted_download_resumes_with_a_range_request(bge_hub, models_root):
    bge_hub.drop_after[BGE.files["model.onnx"]] = 300_000
    with pytest.raises(MemDeskError, match="run the same command again to resume"):
        download_model("bge-small-zh-v1.5")
    assert list_models() == []
    info = download_model("bge-small-zh-v1.5")
    assert info.config.dimension == 512
    first, second = model_requests(bge_hub)
    assert first[1] is None and second[1] == "bytes=300000-"


def test_resume_survives_the_hubs_redirect_to_a_cdn(bge_hub, models_root):
    bge_hub.redirect_lfs = True
    bge_hub.drop_after[BGE.files["model.onnx"]] = 250_000
    with pytest.raises(MemDeskError, match="resume"):
        download_model("bge-small-zh-v1.5")
    assert download_model("bge-small-zh-v1.5").config.dimension == 512
    cdn = [r for r in bge_hub.requests if r[0].startswith("/cdn/")]
    assert [r[1] for r in cdn] == [None, "bytes=250000-"]  # the Range header followed the redirect


def test_server_ignoring_range_still_gives_the_right_file(bge_hub, models_root):
    bge_hub.drop_after[BGE.files["model.onnx"]] = 100_000
    with pytest.raises(MemDeskError):
        download_model("bge-small-zh-v1.5")
    bge_hub.ignore_range = True
    assert download_model("bge-small-zh-v1.5").config.dimension == 512


def test_cancel_keeps_the_part_for_later(bge_hub, models_root):
    with pytest.raises(CancelledError, match="resume"):
        download_model("bge-small-zh-v1.5", cancel=lambda: True)
    assert list_models() == []
    download_model("bge-small-zh-v1.5")
    ranges = [r for _, r in model_requests(bge_hub)]
    assert ranges[0] is None and ranges[1] is not None and ranges[1].startswith("bytes=")


@pytest.mark.parametrize("bad", ["onnx/model.onnx", "tokenizer.json"])
def test_checksum_mismatch_installs_nothing(bge_hub, models_root, bad):
    bge_hub.wrong_sha256.add(bad)
    kind = "sha256" if bad.endswith(".onnx") else "git sha1"
    with pytest.raises(MemDeskError, match=f"checksum mismatch for {bad} \\({kind}"):
        download_model("bge-small-zh-v1.5")
    assert list_models() == [] and active_name() is None
    assert not list((models_root / ".downloads").rglob("*.part"))  # bad bytes are not kept
    bge_hub.wrong_sha256.clear()
    assert download_model("bge-small-zh-v1.5").name == "bge-small-zh-v1.5"


def test_int8_download_is_quantised_under_its_own_name(bge_hub, models_root):
    info = download_model("bge-small-zh-v1.5", int8=True)
    assert info.name == "bge-small-zh-v1.5-int8"
    assert info.config.quantization == "int8-per-channel" and info.config.pooling == "cls"


def test_other_repos_and_clear_errors(hub, bge_files, models_root, tmp_path, kit):
    small = kit.make_folder(tmp_path / "mini", hidden=16)
    hub.repos["someone/tiny-encoder"] = {
        "onnx/model.onnx": (small / "model.onnx").read_bytes(),
        "tokenizer.json": (small / "tokenizer.json").read_bytes(),
    }
    with pytest.raises(MemDeskError, match="unknown model 'tiny'"):
        download_model("tiny")
    with pytest.raises(MemDeskError, match="--pooling"):
        download_model("tiny", repo="someone/tiny-encoder")
    info = download_model("tiny", repo="someone/tiny-encoder", pooling="mean")
    assert info.config.source.endswith("someone/tiny-encoder@main")
    with pytest.raises(MemDeskError, match="already installed"):
        download_model("tiny", repo="someone/tiny-encoder", pooling="mean")
    with pytest.raises(MemDeskError, match="404.*wrong name or revision"):
        download_model("bge-small-zh-v1.5")  # the fake hub has no such repo


def test_unreachable_hub_says_so(models_root, monkeypatch):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("MEMDESK_HUB_URL", f"http://127.0.0.1:{port}")
    with pytest.raises(MemDeskError, match="cannot reach 127.0.0.1.*model install DIR"):
        download_model("bge-small-zh-v1.5")


def dead_url():
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_hf_endpoint_is_honoured_and_hub_argument_wins(bge_hub, models_root, monkeypatch):
    import os

    from memdesk.core.embed.download import DEFAULT_HUB_URL, hub_url

    served = os.environ.pop("MEMDESK_HUB_URL")
    monkeypatch.delenv("MEMDESK_HUB_URL", raising=False)
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    assert hub_url() == DEFAULT_HUB_URL
    monkeypatch.setenv("HF_ENDPOINT", dead_url() + "/")
    with pytest.raises(MemDeskError, match="cannot reach 127.0.0.1.*HF_ENDPOINT") as caught:
        download_model("bge-small-zh-v1.5")
    assert caught.value.kind == "network" and not bge_hub.requests
    monkeypatch.setenv("HF_ENDPOINT", served)
    info = download_model("bge-small-zh-v1.5")
    assert info.config.source.startswith(served.rstrip("/")) and bge_hub.requests
    monkeypatch.setenv("MEMDESK_HUB_URL", dead_url())  # ours beats the generic variable
    assert hub_url() != served.rstrip("/") and hub_url(served) == served.rstrip("/")
    info = download_model("bge-small-zh-v1.5", name="second", hub=served)  # --hub beats both
    assert info.name == "second"
    with pytest.raises(MemDeskError, match="not a hub address"):
        hub_url("ftp://example.org")


def test_full_disk_is_a_clear_error_and_keeps_nothing(bge_hub, models_root):
    import os

    work = models_root / ".downloads" / "Xenova-bge-small-zh-v1.5-d990a82dec71"
    work.mkdir(parents=True)
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    os.symlink("/dev/full", work / "model.onnx.part")  # every write fails with ENOSPC
    with pytest.raises(MemDeskError, match="disk is full") as caught:
        download_model("bge-small-zh-v1.5")
    assert caught.value.kind == "disk" and list_models() == [] and active_name() is None
