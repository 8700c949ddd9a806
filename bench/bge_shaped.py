"""A model with bge-small-zh-v1.5's shapes and random weights, for measuring memory and time.

    python bench/bge_shaped.py FOLDER

No machine here can download the real model, yet what a window with a model costs is
mostly its shapes: a BERT encoder with a 21,128-token vocabulary, 512 hidden units,
4 layers of 8 attention heads, a 2,048-unit feed-forward step, 512 positions
(~24M parameters, ~94 MB as float32), CLS pooling to 512 dimensions. This writes
model.onnx (embeddings, real multi-head self-attention with the padding mask,
LayerNorm, a GELU-like feed-forward) and a matching WordPiece tokenizer.json
(specials, ASCII, then CJK characters one token each) into FOLDER. The vectors it
makes mean nothing; the figures it gives (RSS, load and query time) are the real
model's to within the runtime's own overheads.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from tests.wordpiece import write_wordpiece  # noqa: E402  (the tests' tokenizer writer)

VOCAB, HIDDEN, LAYERS, HEADS, FFN, POSITIONS = 21128, 512, 4, 8, 2048, 512
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def vocabulary() -> list[str]:
    ascii_tokens = [chr(c) for c in range(33, 127)]
    words = SPECIALS + ascii_tokens + [f"##{c}" for c in "abcdefghijklmnopqrstuvwxyz0123456789"]
    cjk = [chr(c) for c in range(0x4E00, 0x4E00 + VOCAB - len(words))]
    return words + cjk


def write_model(path: Path, seed: int = 0) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    inits: list = []
    nodes: list = []

    def weight(name: str, *shape: int, scale: float = 0.02) -> str:
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def const(name: str, value, dtype=np.float32) -> str:
        inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def node(op: str, inputs: list[str], output: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    def layer_norm(x: str, name: str) -> str:
        scale, bias = const(f"{name}.g", np.ones(HIDDEN)), const(f"{name}.b", np.zeros(HIDDEN))
        return node("LayerNormalization", [x, scale, bias], f"{name}.out", axis=-1, epsilon=1e-12)

    def dense(x: str, name: str, n_in: int, n_out: int) -> str:
        y = node("MatMul", [x, weight(f"{name}.w", n_in, n_out)], f"{name}.mm")
        return node("Add", [y, const(f"{name}.bias", np.zeros(n_out))], f"{name}.out")

    # Embeddings: word + position + token type, then LayerNorm.
    shape = node("Shape", ["input_ids"], "ids.shape")
    seq = node("Gather", [shape, const("one", 1, np.int64)], "seq", axis=0)
    positions = node("Range", [const("zero", 0, np.int64), seq, const("step", 1, np.int64)], "positions")
    words = node("Gather", [weight("word", VOCAB, HIDDEN), "input_ids"], "e.word")
    where = node("Gather", [weight("position", POSITIONS, HIDDEN), positions], "e.pos")
    kinds = node("Gather", [weight("type", 2, HIDDEN), "token_type_ids"], "e.type")
    x = layer_norm(node("Add", [node("Add", [words, where], "e.wp"), kinds], "e.sum"), "e.ln")
    # Padding: 0 where attended, -10000 where padded, shaped [batch, 1, 1, seq].
    mask = node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
    blocked = node("Mul", [node("Sub", [const("onef", 1.0), mask], "mask.inv"), const("big", -10000.0)], "mask.add")
    blocked = node("Unsqueeze", [blocked, const("axes12", [1, 2], np.int64)], "mask.4d")
    heads = const("heads.shape", [0, 0, HEADS, HIDDEN // HEADS], np.int64)
    merged = const("merged.shape", [0, 0, HIDDEN], np.int64)

    def split(x: str, name: str, perm: list[int]) -> str:
        """A projection cut into heads: [batch, heads, seq, 64] (keys: [batch, heads, 64, seq])."""
        four = node("Reshape", [dense(x, name, HIDDEN, HIDDEN), heads], f"{name}.4d")
        return node("Transpose", [four], f"{name}.heads", perm=perm)

    for i in range(LAYERS):
        p = f"l{i}"
        q, k, v = split(x, f"{p}.q", [0, 2, 1, 3]), split(x, f"{p}.k", [0, 2, 3, 1]), split(x, f"{p}.v", [0, 2, 1, 3])
        scale = const(f"{p}.scale", 1 / np.sqrt(HIDDEN // HEADS))
        scores = node("Mul", [node("MatMul", [q, k], f"{p}.qk"), scale], f"{p}.scaled")
        attention = node("Softmax", [node("Add", [scores, blocked], f"{p}.masked")], f"{p}.att", axis=-1)
        context = node("Transpose", [node("MatMul", [attention, v], f"{p}.ctx")], f"{p}.ctxt", perm=[0, 2, 1, 3])
        context = node("Reshape", [context, merged], f"{p}.ctx3")
        x = layer_norm(node("Add", [x, dense(context, f"{p}.o", HIDDEN, HIDDEN)], f"{p}.res1"), f"{p}.ln1")
        h = dense(x, f"{p}.ffn1", HIDDEN, FFN)
        # GELU, as x·σ(1.702x)
        gate = node("Sigmoid", [node("Mul", [h, const(f"{p}.gelu", 1.702)], f"{p}.g1")], f"{p}.g2")
        h = node("Mul", [h, gate], f"{p}.gelu.out")
        x = layer_norm(node("Add", [x, dense(h, f"{p}.ffn2", FFN, HIDDEN)], f"{p}.res2"), f"{p}.ln2")
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", HIDDEN])
    graph = helper.make_graph(nodes, "bge_small_zh_shaped", inputs, [output], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def build(folder: Path) -> Path:
    """model.onnx and tokenizer.json in ``folder`` (made once; kept if there)."""
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "tokenizer.json").exists():
        write_wordpiece(folder / "tokenizer.json", vocabulary())
    if not (folder / "model.onnx").exists():
        write_model(folder / "model.onnx.part")
        (folder / "model.onnx.part").rename(folder / "model.onnx")
    return folder


if __name__ == "__main__":
    print(build(Path(sys.argv[1])))
