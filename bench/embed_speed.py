"""Embedder speed and int8 fidelity.

    python bench/embed_speed.py --model DIR [--json]   (MemDesk pipeline vs onnxruntime alone)
    python bench/embed_speed.py speed --model DIR [--batch 1 8 32] [--threads N]
    python bench/embed_speed.py build-fp32 --weights DIR --out DIR
    python bench/embed_speed.py quant --fp32 DIR

``speed``: sentences/s over real English memory texts (LoCoMo, from
/work/shared/bench) or generated ones when that file is absent.

``build-fp32``: an fp32 ONNX BERT encoder from a Hugging Face folder with
model.safetensors + config.json + tokenizer.json (no torch needed), so that
int8 variants can be compared with real fp32 weights. It is checked against
nothing here; ``quant`` prints its cosine to any int8 model given with --ref.

``quant``: quantises the fp32 model per channel and per tensor (our
quantize_int8) and reports, over the texts, cosine to fp32 (mean / min) and
how many of each query's fp32 top-10 neighbours the int8 model keeps.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memdesk.core.embed import load_embedder  # noqa: E402
from memdesk.core.embed.config import ModelConfig, write_config  # noqa: E402
from memdesk.core.embed.quantize import quantize_int8  # noqa: E402

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo.jsonl"


def bench_texts(n: int = 300) -> tuple[list[str], list[str]]:
    """(memory texts, query texts), English."""
    if LOCOMO.is_file():
        with open(LOCOMO, encoding="utf-8") as fh:
            store = json.loads(fh.readline())
        return [m["content"] for m in store["memories"][:n]], [q["text"] for q in store["queries"][:100]]
    rng = random.Random(0)
    words = (
        "the user prefers dark mode in editors and likes short answers with code examples "
        "about python rust and databases while travelling to meetings in the morning"
    ).split()
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(6, 60))) for _ in range(n)]
    return texts, texts[:100]


# -- speed ---------------------------------------------------------------------------


def cmd_speed(args) -> None:
    texts, _ = bench_texts(args.n)
    for batch in args.batch:
        emb = load_embedder(args.model, threads=args.threads, batch_size=batch)
        emb.load()
        emb.embed(texts[:16])  # warm-up
        start = time.perf_counter()
        emb.embed(texts)
        took = time.perf_counter() - start
        print(
            f"{Path(args.model).name}  batch {batch or 'auto':>4}  threads {args.threads or 'all'}  "
            f"{len(texts) / took:7.1f} sentences/s  ({len(texts)} texts)"
        )


# -- the whole pipeline vs onnxruntime alone ------------------------------------------------


def cmd_pipeline(args) -> dict:
    """Memories/s through MemDesk (store → re-embed job → vectors stored) vs onnxruntime alone
    (tokenize + session.run) on the same texts in the same batches, in the same run."""
    from memdesk.core.domain.embedding import embed_text
    from memdesk.core.embed.onnx_embedder import length_batches
    from memdesk.core.embed.reembed import reembed
    from memdesk.core.store import Store

    texts, _ = bench_texts(args.n)
    emb = load_embedder(args.model, threads=args.threads)
    emb.load()
    emb.embed(texts[:8])  # warm-up both paths alike
    work = Path(tempfile.mkdtemp(prefix="memdesk-embed-"))
    pipeline, alone = [], []
    for _ in range(args.repeat):
        store = Store.open(work / f"p{len(pipeline)}.db")
        store.add_many([{"content": t} for t in texts])
        start = time.perf_counter()
        done = reembed(store, emb, batch_size=max(emb.batch_size, 32))
        pipeline.append(done / (time.perf_counter() - start))
        store.close()

        session, tokenizer = emb._session, emb._tokenizer  # the very same session and tokenizer
        same = [embed_text("", t) for t in texts]
        start = time.perf_counter()
        for chunk_start in range(0, len(same), max(emb.batch_size, 32)):
            chunk = same[chunk_start : chunk_start + max(emb.batch_size, 32)]
            encodings = tokenizer.encode_batch(chunk)
            lengths = [len(e.ids) for e in encodings]
            for batch in length_batches(lengths, emb.batch_size):
                width = max(lengths[i] for i in batch)
                ids = np.zeros((len(batch), width), np.int64)
                mask = np.zeros((len(batch), width), np.int64)
                for row, i in enumerate(batch):
                    ids[row, : lengths[i]] = encodings[i].ids
                    mask[row, : lengths[i]] = 1
                feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
                session.run(None, {name: feed[name] for name in emb._inputs})
        alone.append(len(same) / (time.perf_counter() - start))
    shutil.rmtree(work, ignore_errors=True)
    result = {
        "model": Path(args.model).name,
        "memories": len(texts),
        "batch_size": emb.batch_size,
        "pipeline_per_s": round(max(pipeline), 1),
        "onnxruntime_per_s": round(max(alone), 1),
    }
    result["ratio"] = round(result["pipeline_per_s"] / result["onnxruntime_per_s"], 3)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['model']}: {result['memories']} memories, batch {result['batch_size']}, best of {args.repeat}")
        print(f"  MemDesk pipeline (store → re-embed → vectors saved): {result['pipeline_per_s']} memories/s")
        print(f"  onnxruntime alone (tokenize + run, same batches):   {result['onnxruntime_per_s']} memories/s")
        print(f"  ratio {result['ratio']:.1%} (goal ≥ 90 %)")
    return result


# -- an fp32 BERT from safetensors --------------------------------------------------------


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    kinds = {"F32": np.float32, "I64": np.int64, "F16": np.float16}
    with open(path, "rb") as fh:
        size = struct.unpack("<Q", fh.read(8))[0]
        header = json.loads(fh.read(size))
        blob = fh.read()
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        a, b = meta["data_offsets"]
        out[name] = (
            np.frombuffer(blob[a:b], dtype=kinds[meta["dtype"]])
            .reshape(meta["shape"])
            .astype(np.float32 if meta["dtype"] == "F16" else kinds[meta["dtype"]])
        )
    return out


def build_bert(weights_dir: Path, out_path: Path) -> None:
    """BertModel's forward pass (absolute positions, erf GELU) as an ONNX graph."""
    from onnx import TensorProto, helper, numpy_helper, save

    cfg = json.loads((weights_dir / "config.json").read_text())
    w = read_safetensors(weights_dir / "model.safetensors")
    w = {k.removeprefix("bert."): v for k, v in w.items()}
    hidden, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    head_dim, eps = hidden // heads, cfg.get("layer_norm_eps", 1e-12)
    nodes, inits = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def linear(x, prefix, out):
        wt = const(prefix + ".wT", w[prefix + ".weight"].T.copy())
        return node("Add", [node("MatMul", [x, wt], out + "_mm"), const(prefix + ".b", w[prefix + ".bias"])], out)

    def layer_norm(x, prefix, out):
        return node(
            "LayerNormalization",
            [x, const(prefix + ".g", w[prefix + ".weight"]), const(prefix + ".beta", w[prefix + ".bias"])],
            out,
            axis=-1,
            epsilon=eps,
        )

    # Embeddings: word + position(0..seq-1) + token type, then LayerNorm.
    seq_len = node("Gather", [node("Shape", ["input_ids"], "shape"), const("one_i", np.array(1, np.int64))], "seq_len")
    positions = node("Range", [const("zero_i", np.array(0, np.int64)), seq_len, "one_i"], "positions")
    emb = node(
        "Add",
        [
            node("Gather", [const("word", w["embeddings.word_embeddings.weight"]), "input_ids"], "we"),
            node("Gather", [const("pos", w["embeddings.position_embeddings.weight"]), positions], "pe"),
        ],
        "wpe",
    )
    emb = node(
        "Add",
        [emb, node("Gather", [const("type", w["embeddings.token_type_embeddings.weight"]), "token_type_ids"], "te")],
        "emb",
    )
    x = layer_norm(emb, "embeddings.LayerNorm", "x0")
    # Additive mask [batch, 1, 1, seq]: 0 for tokens, -1e4 for padding (as BERT).
    maskf = node("Cast", ["attention_mask"], "maskf", to=TensorProto.FLOAT)
    mask4 = node("Unsqueeze", [maskf, const("ax12", np.array([1, 2], np.int64))], "mask4")
    bias = node(
        "Mul",
        [
            node("Sub", [const("onef", np.array(1, np.float32)), mask4], "inv"),
            const("neg", np.array(-10000.0, np.float32)),
        ],
        "mask_bias",
    )
    split = const("split_shape", np.array([0, 0, heads, head_dim], np.int64))
    merge = const("merge_shape", np.array([0, 0, hidden], np.int64))
    scale = const("scale", np.array(1 / np.sqrt(head_dim), np.float32))
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}"

        def heads_of(kind, perm, x=x, p=p, i=i):  # called at once, in this iteration
            y = linear(x, f"{p}.attention.self.{kind}", f"l{i}_{kind}")
            return node("Transpose", [node("Reshape", [y, split], f"l{i}_{kind}_r")], f"l{i}_{kind}_t", perm=perm)

        q, k, v = heads_of("query", [0, 2, 1, 3]), heads_of("key", [0, 2, 3, 1]), heads_of("value", [0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k], f"l{i}_qk"), scale], f"l{i}_qks"), bias], f"l{i}_sc")
        probs = node("Softmax", [scores], f"l{i}_p", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], f"l{i}_ctx")], f"l{i}_ctx_t", perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merge], f"l{i}_ctx_m")
        attn = linear(ctx, f"{p}.attention.output.dense", f"l{i}_ao")
        x = layer_norm(node("Add", [attn, x], f"l{i}_res1"), f"{p}.attention.output.LayerNorm", f"l{i}_x1")
        inter = linear(x, f"{p}.intermediate.dense", f"l{i}_in")
        sqrt2 = const("sqrt2", np.array(np.sqrt(2), np.float32))
        erf = node("Erf", [node("Div", [inter, sqrt2], f"l{i}_d")], f"l{i}_erf")
        gelu = node(
            "Mul",
            [
                node("Mul", [inter, const("half", np.array(0.5, np.float32))], f"l{i}_h"),
                node("Add", [erf, "onef"], f"l{i}_e1"),
            ],
            f"l{i}_gelu",
        )
        out = linear(gelu, f"{p}.output.dense", f"l{i}_out")
        last = "last_hidden_state" if i == cfg["num_hidden_layers"] - 1 else f"l{i}_x2"
        x = layer_norm(node("Add", [out, x], f"l{i}_res2"), f"{p}.output.LayerNorm", last)
    ints = [
        helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"])
        for n in ("input_ids", "attention_mask", "token_type_ids")
    ]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", hidden])
    model = helper.make_model(
        helper.make_graph(nodes, "bert", ints, [output], inits), opset_imports=[helper.make_opsetid("", 17)]
    )
    model.ir_version = 8
    save(model, str(out_path))


def cmd_build(args) -> None:
    src, out = Path(args.weights), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    build_bert(src, out / "model.onnx")
    shutil.copyfile(src / "tokenizer.json", out / "tokenizer.json")
    pooling = "mean"
    pool_cfg = src / "1_Pooling" / "config.json"
    if pool_cfg.is_file() and json.loads(pool_cfg.read_text()).get("pooling_mode_cls_token"):
        pooling = "cls"
    hidden = json.loads((src / "config.json").read_text())["hidden_size"]
    write_config(
        out,
        ModelConfig(
            name=args.name, dimension=hidden, pooling=pooling, max_tokens=args.max_tokens, source=f"built from {src}"
        ),
    )
    print(f"wrote {out} ({(out / 'model.onnx').stat().st_size / 1e6:.1f} MB, {pooling} pooling)")


# -- int8 fidelity ------------------------------------------------------------------


def neighbour_overlap(ref_docs, ref_q, docs, q, k=10) -> float:
    top_ref = np.argsort(-(ref_q @ ref_docs.T), axis=1)[:, :k]
    top = np.argsort(-(q @ docs.T), axis=1)[:, :k]
    return float(np.mean([len(set(a) & set(b)) / k for a, b in zip(top_ref, top)]))


def cmd_quant(args) -> None:
    docs, queries = bench_texts(args.n)
    fp32 = load_embedder(args.fp32)
    ref_d, ref_q = fp32.embed(docs), fp32.embed(queries, query=True)
    work = Path(tempfile.mkdtemp(prefix="quant-"))
    variants = []
    for label, per_channel in (("int8 per-channel", True), ("int8 per-tensor", False)):
        folder = work / label.replace(" ", "-")
        folder.mkdir()
        quantize_int8(Path(args.fp32) / "model.onnx", folder / "model.onnx", per_channel=per_channel)
        shutil.copyfile(Path(args.fp32) / "tokenizer.json", folder / "tokenizer.json")
        write_config(folder, fp32.config.with_changes(files={}, calibration=None))
        variants.append((label, folder))
    if args.ref:
        variants.append(("given int8 (--ref)", Path(args.ref)))
    print(f"{len(docs)} texts, {len(queries)} queries; cosine to fp32 and top-10 neighbours kept")
    for label, folder in variants:
        emb = load_embedder(folder)
        d, q = emb.embed(docs), emb.embed(queries, query=True)
        cos = np.sum(d * ref_d, axis=1)
        size = (folder / "model.onnx").stat().st_size / 1e6
        print(
            f"  {label:20} mean {cos.mean():.4f}  min {cos.min():.4f}  "
            f"top-10 kept {neighbour_overlap(ref_d, ref_q, d, q):.3f}  ({size:.1f} MB)"
        )
    shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1].startswith("--"):
        # `embed_speed.py --model DIR [--json]`: the pipeline comparison.
        parser = argparse.ArgumentParser(description=cmd_pipeline.__doc__)
        parser.add_argument("--model", required=True)
        parser.add_argument("--n", type=int, default=300)
        parser.add_argument("--threads", type=int, default=0)
        parser.add_argument("--repeat", type=int, default=3)
        parser.add_argument("--json", action="store_true")
        cmd_pipeline(parser.parse_args())
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--model", required=True)
    p.add_argument("--batch", type=int, nargs="+", default=[0, 1, 8, 32], help="0 = automatic")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--n", type=int, default=256)
    p.set_defaults(run=cmd_speed)
    p = sub.add_parser("build-fp32")
    p.add_argument("--weights", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--name", default="all-MiniLM-L6-v2")
    p.add_argument("--max-tokens", type=int, default=256)
    p.set_defaults(run=cmd_build)
    p = sub.add_parser("quant")
    p.add_argument("--fp32", required=True)
    p.add_argument("--ref", help="an int8 model folder to compare as well")
    p.add_argument("--n", type=int, default=300)
    p.set_defaults(run=cmd_quant)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
