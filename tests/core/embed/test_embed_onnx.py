"""OnnxEmbedder on a tiny real ONNX model: pooling, norms, batching, queries, model ids."""

import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer

from memdesk.core.domain.embedding import Embedder
from memdesk.core.domain.errors import MemDeskError
from memdesk.core.embed import OnnxEmbedder, load_embedder, onnx_embedder
from memdesk.core.embed.onnx_embedder import length_batches

ROOT = Path(__file__).resolve().parents[3]
TEXTS = [
    "the cat sat on the mat",
    "a dog",
    "stock market fell today and the bank lost money on the river",
    "我喜欢喝茶",
    "python code bug fix",
    "",
    "music",
    "one two three four five six one two three four five six one two three",
]


def _ids(folder, text):
    return Tokenizer.from_file(str(folder / "tokenizer.json")).encode(text).ids


def _unit(v):
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("pooling", ["cls", "mean"])
def test_pooling_matches_a_numpy_reference(tiny, kit, pooling):
    folder = tiny(pooling=pooling)
    emb = load_embedder(folder)
    got = emb.embed(TEXTS[:5])
    weights = kit.tiny_weights(0)
    for row, text in zip(got, TEXTS[:5]):
        hidden = kit.reference(weights, _ids(folder, text))
        pooled = hidden[0] if pooling == "cls" else hidden.mean(axis=0)
        np.testing.assert_allclose(row, _unit(pooled), atol=1e-5)


def test_cls_and_mean_differ_and_rows_are_unit_float32(tiny):
    cls = load_embedder(tiny("c", pooling="cls")).embed(TEXTS)
    mean = load_embedder(tiny("m", pooling="mean")).embed(TEXTS)
    assert cls.dtype == np.float32 and cls.shape == (len(TEXTS), 16)
    np.testing.assert_allclose(np.linalg.norm(cls, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(mean, axis=1), 1.0, atol=1e-5)
    assert np.abs(cls - mean).max() > 0.1


def test_normalise_false_keeps_raw_pooled_vectors(tiny, kit):
    folder = tiny(pooling="mean", normalise=False)
    row = load_embedder(folder).embed(["the cat sat"])[0]
    expected = kit.reference(kit.tiny_weights(0), _ids(folder, "the cat sat")).mean(axis=0)
    np.testing.assert_allclose(row, expected, atol=1e-5)
    assert abs(np.linalg.norm(row) - 1.0) > 1e-3


@pytest.mark.parametrize("batch_size", [1, 3, 32])
def test_batching_by_length_keeps_input_order(tiny, batch_size):
    folder = tiny(pooling="cls")
    texts = TEXTS * 5
    batched = OnnxEmbedder.from_folder(folder, batch_size=batch_size).embed(texts)
    single = load_embedder(folder)
    for i, text in enumerate(texts):
        np.testing.assert_allclose(batched[i], single.embed([text])[0], atol=1e-5)


def test_length_batches_sorts_and_respects_the_token_budget():
    lengths = [5, 100, 3, 50, 4, 100]
    batches = length_batches(lengths, batch_size=2, budget=150)
    assert sorted(i for b in batches for i in b) == list(range(6))
    flat = [lengths[i] for b in batches for i in b]
    assert flat == sorted(flat)
    assert all(len(b) <= 2 and len(b) * max(lengths[i] for i in b) <= 150 for b in batches if len(b) > 1)
    assert [len(b) for b in batches] == [2, 2, 1, 1]  # two 100-token texts exceed the budget together


def test_query_instruction_only_for_queries(tiny):
    instruction = "为这个句子生成表示以用于检索相关文章："
    emb = load_embedder(tiny(pooling="cls", query_instruction=instruction))
    doc = emb.embed(["我喜欢喝茶"])
    query = emb.embed(["我喜欢喝茶"], query=True)
    by_hand = emb.embed([instruction + "我喜欢喝茶"])
    np.testing.assert_allclose(query, by_hand, atol=1e-6)
    assert np.abs(query - doc).max() > 1e-3
    plain = load_embedder(tiny("plain", pooling="cls"))
    np.testing.assert_allclose(plain.embed(["tea"], query=True), plain.embed(["tea"]), atol=1e-6)


def test_model_id_tracks_everything_that_changes_vectors(tiny, tmp_path):
    base = load_embedder(tiny("m", pooling="mean"))
    copy = tmp_path / "copy"
    shutil.copytree(base.folder, copy)
    assert load_embedder(copy).model_id == base.model_id  # same bytes, same settings
    other_weights = load_embedder(tiny("m", folder="m2", seed=7, pooling="mean"))
    assert other_weights.model_id != base.model_id  # same name and dimension, new weights
    assert load_embedder(copy, pooling="cls").model_id != base.model_id
    assert load_embedder(copy, max_tokens=16).model_id != base.model_id
    assert "mean" in base.model_id and base.model_id.startswith("m/")
    # Swapping model.onnx in place (same name, config untouched) changes the id too.
    shutil.copyfile(other_weights.folder / "model.onnx", copy / "model.onnx")
    assert load_embedder(copy).model_id == other_weights.model_id


def test_session_is_lazy_and_load_works_from_a_worker_thread(tiny):
    emb = load_embedder(tiny(pooling="mean"))
    assert isinstance(emb, Embedder)
    assert not emb.loaded and emb.dim == 16
    worker = threading.Thread(target=emb.load)
    worker.start()
    worker.join()
    assert emb.loaded
    assert emb.embed([]).shape == (0, 16)
    emb.unload()
    assert not emb.loaded
    assert emb.embed(["cat"]).shape == (1, 16)  # reloads on demand


def test_concurrent_first_embeds_load_once_and_agree(tiny):
    emb = load_embedder(tiny(pooling="cls"))
    results = [None] * 4

    def work(i):
        results[i] = emb.embed(TEXTS)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results[1:]:
        np.testing.assert_allclose(r, results[0], atol=1e-6)


def test_truncation_to_max_tokens(tiny):
    emb = load_embedder(tiny(pooling="mean", max_tokens=8))
    long_a = "one two three four five six seven cat cat cat"
    long_b = "one two three four five six seven dog dog dog"
    a, b = emb.embed([long_a, long_b])
    np.testing.assert_allclose(a, b, atol=1e-6)  # the differing tail was cut off


def test_folder_without_config_needs_pooling_unless_known(tiny, tmp_path):
    folder = tiny("mystery", pooling=None)
    with pytest.raises(MemDeskError, match="--pooling"):
        load_embedder(folder)
    emb = load_embedder(folder, pooling="mean")
    assert emb.dim == 16 and emb.loaded  # dimension read from the graph
    known = tmp_path / "all-MiniLM-L6-v2-tiny"
    shutil.copytree(folder, known)
    with pytest.raises(MemDeskError, match="expected 384-dimensional vectors but model.onnx outputs 16"):
        load_embedder(known)


def test_config_dimension_is_checked_on_load(tiny):
    emb = load_embedder(tiny(pooling="mean", dimension=32))
    assert emb.dim == 32  # nothing loaded yet: the config is trusted until then
    with pytest.raises(MemDeskError, match="outputs 16-dimensional vectors but its config says 32"):
        emb.embed(["cat"])


def test_broken_folders_give_clear_errors(tiny, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(MemDeskError, match="model.onnx is missing"):
        load_embedder(empty)
    folder = tiny(pooling="mean")
    (folder / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(MemDeskError, match="not a usable ONNX model"):
        load_embedder(folder).embed(["cat"])
    folder = tiny("badcfg", pooling="sum")
    with pytest.raises(MemDeskError, match="pooling must be one of cls, mean"):
        load_embedder(folder)


def test_vocab_fixture_sanity(kit):
    assert kit.VOCAB[:4] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]


@pytest.mark.parametrize("where", [0, 5, 14, 20, 1000])
def test_a_quantised_graph_is_found_wherever_its_op_name_falls_between_blocks(tmp_path, monkeypatch, where):
    monkeypatch.setattr(onnx_embedder, "SCAN_BLOCK", 16)  # the op name (15 bytes) straddles block edges
    path = tmp_path / "model.onnx"
    path.write_bytes(b"x" * where + b"DynamicQuantizeLinear" + b"y" * 37)
    assert onnx_embedder.is_dynamically_quantised(path)
    path.write_bytes(b"x" * where + b"DynamicQuantiz" + b"y" * 37)  # one letter short
    assert not onnx_embedder.is_dynamically_quantised(path)


def test_looking_for_quantisation_does_not_make_the_model_file_resident(tmp_path):
    # The window asks this as it loads a model. With the whole file memory-mapped, each page
    # of it counted in the process's peak RSS (+90 MB for bge-small-zh).
    path = tmp_path / "model.onnx"
    with open(path, "wb") as out:
        for _ in range(96):
            out.write(np.random.default_rng(1).bytes(1 << 20))
    code = (
        "import sys; from pathlib import Path\n"
        "from memdesk.core.embed.onnx_embedder import is_dynamically_quantised\n"
        "def hwm(): return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
        "before = hwm(); found = is_dynamically_quantised(Path(sys.argv[1]))\n"
        "print(found, (hwm() - before) // 1024)\n"
    )
    found, grew_mb = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert found == "False"
    assert int(grew_mb) < 16
