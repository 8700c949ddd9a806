"""Tiny real models for the embedder tests, built in milliseconds.

The ONNX graph is BERT-shaped (input_ids, attention_mask, token_type_ids ->
last_hidden_state) but has one mixing step instead of attention: each token
vector gets the masked mean of all token vectors added. That makes the CLS
vector depend on the whole text, and keeps every output independent of
padding, so batched and single results must agree exactly.
"""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tests.wordpiece import write_wordpiece  # noqa: E402

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
WORDS = (
    "the a cat dog sat on mat rug kitten puppy stock market fell rose today bank river money "
    "train leaves at seven morning night music song play plays piano guitar code python bug fix "
    "memory search model test sentence long short one two three four five six"
).split()
CHINESE = list("我喜欢喝茶咖啡明天开会为这个句子生成表示以用于检索相关文章：记忆台测试。")
VOCAB = SPECIALS + WORDS + ["##s", "##ing"] + CHINESE
HIDDEN = 16


def build_tokenizer(path: Path) -> None:
    write_wordpiece(path, VOCAB)


def tiny_weights(seed: int, hidden: int = HIDDEN) -> dict:
    rng = np.random.default_rng(seed)
    return {
        "word": rng.standard_normal((len(VOCAB), hidden)).astype(np.float32),
        "type": rng.standard_normal((2, hidden)).astype(np.float32),
        "w": (rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(np.float32),
    }


def build_onnx(path: Path, seed: int = 0, hidden: int = HIDDEN, output: str = "last_hidden_state") -> dict:
    w = tiny_weights(seed, hidden)
    ints = lambda name, values: numpy_helper.from_array(np.array(values, np.int64), name)  # noqa: E731
    inits = [
        numpy_helper.from_array(w["word"], "word"),
        numpy_helper.from_array(w["type"], "type"),
        numpy_helper.from_array(w["w"], "w"),
        ints("last", [2]),
        ints("seq", [1]),
    ]
    n = helper.make_node
    nodes = [
        n("Gather", ["word", "input_ids"], ["we"]),
        n("Gather", ["type", "token_type_ids"], ["te"]),
        n("Add", ["we", "te"], ["x"]),
        n("MatMul", ["x", "w"], ["xw"]),
        n("Tanh", ["xw"], ["h"]),
        n("Cast", ["attention_mask"], ["mf"], to=TensorProto.FLOAT),
        n("Unsqueeze", ["mf", "last"], ["m3"]),
        n("Mul", ["h", "m3"], ["hm"]),
        n("ReduceSum", ["hm", "seq"], ["s"], keepdims=1),
        n("ReduceSum", ["m3", "seq"], ["c"], keepdims=1),
        n("Div", ["s", "c"], ["ctx"]),
        n("Add", ["h", "ctx"], ["hc"]),
        n("Mul", ["hc", "m3"], [output]),
    ]
    ids = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    out = helper.make_tensor_value_info(output, TensorProto.FLOAT, ["batch", "seq", hidden])
    graph = helper.make_graph(nodes, "tiny_bert", ids, [out], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return w


def reference(weights: dict, ids: list[int]) -> np.ndarray:
    """The tiny model's last_hidden_state for one unpadded sequence, in numpy."""
    x = weights["word"][ids] + weights["type"][0]
    h = np.tanh(x @ weights["w"])
    return h + h.mean(axis=0, keepdims=True)


def make_folder(folder: Path, *, seed: int = 0, hidden: int = HIDDEN, config: dict | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    build_onnx(folder / "model.onnx", seed, hidden)
    build_tokenizer(folder / "tokenizer.json")
    if config is not None:
        (folder / "memdesk-model.json").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    return folder


@pytest.fixture
def tiny(tmp_path):
    """Factory: tiny(name, seed=..., pooling=...) -> a model folder with our config.

    pooling=None writes no config at all; ``folder`` defaults to ``name``.
    """

    def make(name: str = "tiny", *, seed: int = 0, pooling: str | None = "mean", folder: str | None = None, **settings):
        config = None
        if pooling is not None:
            config = {"name": name, "dimension": settings.pop("dimension", HIDDEN), "pooling": pooling, **settings}
        return make_folder(tmp_path / "src" / (folder or name), seed=seed, config=config)

    return make


@pytest.fixture
def models_root(tmp_path, monkeypatch):
    root = tmp_path / "models"
    monkeypatch.setenv("MEMDESK_MODELS_DIR", str(root))
    return root


# -- a loopback hub ------------------------------------------------------------


class FakeHub:
    """Serves {repo: {path: bytes}} as /{repo}/resolve/{rev}/{path} plus the tree API."""

    def __init__(self):
        self.repos: dict[str, dict[str, bytes]] = {}
        self.lfs: set[str] = set()
        self.requests: list[tuple[str, str | None]] = []  # (path, Range header)
        self.drop_after: dict[str, int] = {}  # path -> bytes sent before hanging up (once)
        self.wrong_sha256: set[str] = set()
        self.ignore_range = False
        self.redirect_lfs = False  # like huggingface.co: LFS files answer 302 to a CDN URL

    def tree(self, repo, folder):
        entries = []
        for path, data in self.repos.get(repo, {}).items():
            parent = str(PurePosixPath(path).parent)
            if (parent if parent != "." else "") != folder:
                continue
            entry = {
                "type": "file",
                "path": path,
                "size": len(data),
                "oid": hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest(),
            }
            if path in self.lfs:
                sha = hashlib.sha256(data).hexdigest()
                entry["lfs"] = {
                    "oid": "0" * 64 if path in self.wrong_sha256 else sha,
                    "size": len(data),
                    "pointerSize": 134,
                }
                entry["oid"] = hashlib.sha1(b"pointer").hexdigest()
            elif path in self.wrong_sha256:
                entry["oid"] = "1" * 40
            entries.append(entry)
        return entries


def handler_for(hub: FakeHub):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_body(self, status, body, headers=()):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = unquote(urlsplit(self.path).path)
            hub.requests.append((path, self.headers.get("Range")))
            if path.startswith("/api/models/"):
                repo_part, _, rest = path[len("/api/models/") :].partition("/tree/")
                _, _, folder = rest.partition("/")
                if repo_part not in hub.repos:
                    return self.send_body(404, b'{"error":"Repository not found"}')
                return self.send_body(200, json.dumps(hub.tree(repo_part, folder)).encode())
            parts = path.lstrip("/").split("/")
            if parts[0] == "cdn":  # /cdn/{owner}/{name}/{path}
                parts = parts[1:3] + ["resolve", "-"] + parts[3:]
            elif hub.redirect_lfs and "/".join(parts[4:]) in hub.lfs:
                self.send_response(302)
                self.send_header("Location", "/cdn/" + "/".join(parts[:2] + parts[4:]))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            repo, file_path = "/".join(parts[:2]), "/".join(parts[4:])
            data = hub.repos.get(repo, {}).get(file_path)
            if len(parts) < 5 or parts[2] != "resolve" or data is None:
                return self.send_body(404, b"Entry not found")
            start = 0
            ranged = self.headers.get("Range")
            if ranged and not hub.ignore_range:
                start = int(ranged.split("=")[1].split("-")[0])
                if start >= len(data):
                    return self.send_body(416, b"")
            body = data[start:]
            self.send_response(206 if start else 200)
            if start:
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            cut = hub.drop_after.pop(file_path, None)
            self.wfile.write(body if cut is None else body[:cut])

    return Handler


@pytest.fixture
def hub(monkeypatch):
    state = FakeHub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(state))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    monkeypatch.setenv("MEMDESK_HUB_URL", f"http://127.0.0.1:{server.server_address[1]}/")
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def kit():
    """The builders above, for tests (test modules cannot import a conftest reliably)."""
    import types

    return types.SimpleNamespace(
        VOCAB=VOCAB, make_folder=make_folder, reference=reference, tiny_weights=tiny_weights, FakeHub=FakeHub
    )
