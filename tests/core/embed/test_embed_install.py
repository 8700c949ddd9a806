"""Installing models from folders and zips: all or nothing, unsafe archives refused."""

import io
import os
import shutil
import stat
import zipfile

import numpy as np
import pytest

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.embed import (
    active_embedder,
    active_name,
    install_model,
    list_models,
    load_embedder,
    read_config,
)


def entries(root):
    """What is in the models folder apart from the active pointer."""
    return sorted(p.name for p in root.iterdir() if p.name != "active.json") if root.exists() else []


def zip_folder(folder, dest, prefix=""):
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                zf.write(p, prefix + p.relative_to(folder).as_posix())
    return dest


def test_install_from_folder_makes_a_complete_checked_model(tiny, models_root):
    info = install_model(tiny("tiny", pooling="cls"))
    assert info.name == "tiny" and info.active and not info.problem
    assert entries(models_root) == ["tiny"]
    assert sorted(p.name for p in info.folder.iterdir()) == ["memdesk-model.json", "model.onnx", "tokenizer.json"]
    cfg = read_config(info.folder)
    assert cfg.pooling == "cls" and cfg.dimension == 16
    assert set(cfg.files) == {"model.onnx", "tokenizer.json"}
    assert cfg.calibration["pairs"] > 0 and "unrelated_p95" in cfg.calibration
    emb, hint = active_embedder()
    assert hint == "" and emb.model_id.startswith("tiny/cls/") and not emb.loaded
    assert emb.model_id == load_embedder(info.folder).model_id


def test_first_install_becomes_active_later_ones_only_on_request(tiny, models_root):
    install_model(tiny("one"))
    install_model(tiny("two"))
    assert active_name() == "one"
    install_model(tiny("three"), make_active=True)
    assert active_name() == "three"
    assert [m.name for m in list_models()] == ["one", "three", "two"]


def test_folder_without_config_infers_dimension_and_takes_options(tiny, models_root):
    source = tiny("plain-export", pooling=None)
    with pytest.raises(MemDeskError, match="--pooling cls"):
        install_model(source)
    assert entries(models_root) == []
    info = install_model(source, pooling="mean", max_tokens=64, query_instruction="q: ")
    cfg = info.config
    assert (cfg.name, cfg.dimension, cfg.pooling, cfg.max_tokens, cfg.query_instruction) == (
        "plain-export",
        16,
        "mean",
        64,
        "q: ",
    )


def test_known_name_gets_known_defaults_and_a_wrong_model_is_refused(tiny, models_root):
    # A folder named like bge-small-zh-v1.5 must output 512 dims; ours outputs 16.
    source = tiny("x", folder="bge-small-zh-v1.5", pooling=None)
    with pytest.raises(MemDeskError, match="expected 512-dimensional vectors but model.onnx outputs 16"):
        install_model(source)
    assert entries(models_root) == []
    with pytest.raises(MemDeskError, match="expected 512-dimensional"):
        install_model(source, name="renamed")  # a new name keeps the folder's known defaults
    assert entries(models_root) == []


def test_hub_layout_and_ambiguous_onnx_files(tiny, models_root, tmp_path):
    hub = tmp_path / "hub-copy"
    src = tiny("hubby")
    (hub / "onnx").mkdir(parents=True)
    shutil.copy(src / "tokenizer.json", hub)
    shutil.copy(src / "memdesk-model.json", hub)
    shutil.copy(src / "model.onnx", hub / "onnx" / "model.onnx")
    shutil.copy(src / "model.onnx", hub / "onnx" / "model_quantized.onnx")
    assert install_model(hub).name == "hubby"
    os.remove(hub / "onnx" / "model.onnx")
    shutil.copy(src / "model.onnx", hub / "onnx" / "model_fp16.onnx")
    with pytest.raises(MemDeskError, match="cannot tell which ONNX file"):
        install_model(hub, name="again")


def test_existing_name_is_kept_unless_forced(tiny, models_root):
    first = install_model(tiny("m", seed=1))
    old_id = active_embedder()[0].model_id
    with pytest.raises(MemDeskError, match="already installed"):
        install_model(tiny("m", folder="m-new", seed=2))
    assert active_embedder()[0].model_id == old_id
    install_model(tiny("m", folder="m-new", seed=2), force=True)
    assert entries(models_root) == ["m"]
    assert active_embedder()[0].model_id != old_id  # replaced in place, still active
    assert first.folder.is_dir()


def test_bad_sources_leave_nothing_behind(tiny, models_root, tmp_path):
    with pytest.raises(MemDeskError, match="does not exist"):
        install_model(tmp_path / "nope")
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(MemDeskError, match="neither a folder nor a .zip"):
        install_model(text)
    broken = tiny("broken")
    (broken / "model.onnx").write_bytes(b"\x08\x01garbage")
    with pytest.raises(MemDeskError, match="not a usable ONNX model"):
        install_model(broken)
    no_tok = tiny("no-tok")
    os.remove(no_tok / "tokenizer.json")
    with pytest.raises(MemDeskError, match="no tokenizer.json"):
        install_model(no_tok)
    with pytest.raises(MemDeskError, match="bad model name"):
        install_model(tiny("ok"), name="../escape")
    assert entries(models_root) == []


def test_install_from_zip_flat_and_nested(tiny, models_root, tmp_path):
    src = tiny("zipped", pooling="cls")
    info = install_model(zip_folder(src, tmp_path / "flat.zip"), name="flat")
    assert info.config.pooling == "cls"
    nested = zip_folder(src, tmp_path / "whatever.zip", prefix="zipped/")
    assert install_model(nested).name == "zipped"  # the config names it
    plain = tiny("no-config", pooling=None)
    named_by_folder = zip_folder(plain, tmp_path / "archive.zip", prefix="all-MiniLM-L6-v2-x/")
    with pytest.raises(MemDeskError, match="expected 384-dimensional"):
        install_model(named_by_folder)  # known name from the folder inside the zip
    assert install_model(zip_folder(plain, tmp_path / "stem-name.zip"), pooling="mean").name == "stem-name"
    assert entries(models_root) == ["flat", "stem-name", "zipped"]


def _good_zip_bytes(src):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(src / "model.onnx", "model.onnx")
        zf.write(src / "tokenizer.json", "tokenizer.json")
        zf.write(src / "memdesk-model.json", "memdesk-model.json")
    return buf


@pytest.mark.parametrize(
    "member, why",
    [
        ("../evil.txt", "points outside the archive"),
        ("sub/../../evil.txt", "points outside the archive"),
        ("/etc/evil.txt", "absolute path"),
        ("C:/evil.txt", "absolute path"),
        ("..\\evil.txt", "points outside the archive"),
    ],
)
def test_zip_with_escaping_paths_is_refused(tiny, models_root, tmp_path, member, why):
    buf = _good_zip_bytes(tiny("z"))
    with zipfile.ZipFile(buf, "a") as zf:
        zf.writestr(member, b"gotcha")
    archive = tmp_path / "evil.zip"
    archive.write_bytes(buf.getvalue())
    with pytest.raises(MemDeskError, match=f"refusing evil.zip: .*{why}"):
        install_model(archive)
    assert entries(models_root) == []
    assert not (tmp_path / "evil.txt").exists() and not (models_root / "evil.txt").exists()


def test_zip_with_symlink_is_refused(tiny, models_root, tmp_path):
    buf = _good_zip_bytes(tiny("z"))
    with zipfile.ZipFile(buf, "a") as zf:
        link = zipfile.ZipInfo("link")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    archive = tmp_path / "link.zip"
    archive.write_bytes(buf.getvalue())
    with pytest.raises(MemDeskError, match="symbolic link"):
        install_model(archive)
    assert entries(models_root) == []


def test_zip_bomb_is_refused_before_extracting(tiny, models_root, tmp_path):
    buf = _good_zip_bytes(tiny("z"))
    with zipfile.ZipFile(buf, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("padding.bin", b"\0" * (20 << 20))  # 20 MB of zeros -> ~20 KB
    archive = tmp_path / "bomb.zip"
    archive.write_bytes(buf.getvalue())
    assert archive.stat().st_size < 1 << 20
    with pytest.raises(MemDeskError, match="decompression bomb"):
        install_model(archive)
    assert entries(models_root) == []


def test_zip_member_larger_than_its_header_is_refused(tiny, models_root, tmp_path):
    src = tiny("liar")
    archive = tmp_path / "liar.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        zf.write(src / "model.onnx", "model.onnx")
        zf.write(src / "memdesk-model.json", "memdesk-model.json")
        zf.write(src / "tokenizer.json", "tokenizer.json")
    # Shrink tokenizer.json's declared size in the central directory only.
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo("tokenizer.json")
    real = info.file_size.to_bytes(4, "little")
    cd_at = data.rfind(b"PK\x01\x02")  # the last central record is tokenizer.json's
    assert data[cd_at + 24 : cd_at + 28] == real
    data[cd_at + 24 : cd_at + 28] = (info.file_size // 2).to_bytes(4, "little")
    archive.write_bytes(bytes(data))
    with pytest.raises(MemDeskError, match="liar.zip"):
        install_model(archive)
    assert entries(models_root) == []


def test_corrupt_zip_gives_a_clear_error(tiny, models_root, tmp_path):
    archive = zip_folder(tiny("c"), tmp_path / "c.zip")
    data = bytearray(archive.read_bytes())
    data[100:400] = b"\xff" * 300  # damage model.onnx's compressed bytes
    archive.write_bytes(bytes(data))
    with pytest.raises(MemDeskError, match="c.zip"):
        install_model(archive)
    assert entries(models_root) == []


def test_int8_install_quantises_per_channel_and_stays_close(tiny, models_root):
    src = tiny("q", pooling="mean")
    info = install_model(src, name="q-int8", int8=True)
    assert info.config.quantization == "int8-per-channel"
    fp32, int8 = load_embedder(src), load_embedder(info.folder)
    assert fp32.model_id != int8.model_id
    texts = ["the cat sat on the mat", "stock market fell today", "我喜欢喝茶", "python code bug fix"]
    cosine = np.sum(fp32.embed(texts) * int8.embed(texts), axis=1)
    assert cosine.min() > 0.95
    assert (fp32.batch_size, int8.batch_size) == (32, 1)  # see QUANTISED_BATCH
    with pytest.raises(MemDeskError, match="already quantised"):
        install_model(info.folder, name="twice", int8=True)


def test_active_embedder_hints(tiny, models_root):
    emb, hint = active_embedder()
    assert emb is None and "no embedding model is installed" in hint and "memdesk model install DIR" in hint
    info = install_model(tiny("solo"), make_active=False)
    emb, hint = active_embedder()
    assert emb is None and "memdesk model use NAME" in hint and "solo" in hint
    from memdesk.core.embed import use_model

    use_model("solo")
    assert active_embedder()[0] is not None
    os.remove(info.folder / "tokenizer.json")  # damaged by hand
    emb, hint = active_embedder()
    assert emb is None and "'solo' cannot be used" in hint and "tokenizer.json missing" in hint
    assert [m.problem for m in list_models()] == ["tokenizer.json missing"]
    with pytest.raises(MemDeskError, match="cannot be used"):
        use_model("solo")
