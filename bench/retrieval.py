"""Retrieval quality of MemDesk's search on benchmark files (bench README format).

    python bench/retrieval.py FILE [--distractors FILE] [--model DIR] [--json] [--limit-stores N]

Each store of FILE is loaded into a fresh MemDesk store through the public
Store API (ids and created_at kept), indexed by the real SearchEngine with
the product's default settings, and every query is run with limit 10.
Metrics follow the bench README: R@1/5/10 (share of a query's relevant ids
in the top k), MRR@10, nDCG@10, per category and overall.

Analysis options (not product settings): --as-of latest replays the store
as if "now" were a day after its newest memory, so heat and freshness act
as they would in daily use; --weights F,I,H,R overrides the final-score
weights. The figures behind the default weights are in the docstring of
memdesk.core.search.rank.fusion.SearchWeights.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memdesk.core.domain.times import now_utc, parse_time  # noqa: E402
from memdesk.core.search import SearchEngine, SearchWeights, Tokenizer  # noqa: E402
from memdesk.core.store import Store  # noqa: E402

KEYS = ("R@1", "R@5", "R@10", "MRR@10", "nDCG@10")


def read_stores(path: str):
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def metrics(ranked: list[str], relevant: list[str]) -> dict[str, float]:
    rel = set(relevant)
    out = {f"R@{k}": len(rel & set(ranked[:k])) / len(rel) for k in (1, 5, 10)}
    first = next((i for i, memory_id in enumerate(ranked[:10]) if memory_id in rel), None)
    out["MRR@10"] = 0.0 if first is None else 1.0 / (first + 1)
    dcg = sum(1.0 / math.log2(i + 2) for i, memory_id in enumerate(ranked[:10]) if memory_id in rel)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(rel), 10)))
    out["nDCG@10"] = dcg / ideal if ideal else 0.0
    return out


def load_embedder(folder: str | None):
    if not folder:
        return None
    try:
        from memdesk.core.embed import load_embedder as load  # built by another engineer
    except ImportError as exc:
        raise SystemExit(f"--model needs memdesk.core.embed ({exc})") from None
    embedder = load(folder)
    if hasattr(embedder, "load"):
        embedder.load()
    return embedder


def run_store(
    store_data: dict,
    distractors: list[dict],
    embedder,
    tokenizer: Tokenizer,
    workdir: Path,
    weights: SearchWeights | None,
    as_of: str,
) -> list[tuple[str, dict]]:
    path = workdir / f"bench-{time.monotonic_ns()}.db"
    store = Store.open(path)
    try:
        items = []
        for memory in store_data["memories"] + distractors:
            item = {"id": str(memory["id"]), "content": memory["content"]}
            if memory.get("created_at"):
                item["created_at"] = memory["created_at"]
            items.append(item)
        store.add_many(items)
        engine = SearchEngine(store, embedder, tokenizer=tokenizer, weights=weights)
        engine.build()
        if embedder is not None:
            engine.embed_missing()
        now = None
        if as_of == "latest":
            times = [parse_time(m["created_at"]) for m in store_data["memories"] if m.get("created_at")]
            now = (max(times) if times else now_utc()) + timedelta(days=1)
        out = []
        for query in store_data.get("queries", []):
            result = engine.search(query["text"], limit=10, lenient=True, now=now)
            out.append((query.get("category") or "all", metrics(result.ids, [str(i) for i in query["relevant"]])))
        return out
    finally:
        store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)


def summarise(rows: list[tuple[str, dict]]) -> dict:
    sums: dict = defaultdict(lambda: defaultdict(float))
    counts: dict = defaultdict(int)
    for category, values in rows:
        for name in (category, "__overall__"):
            counts[name] += 1
            for key in KEYS:
                sums[name][key] += values[key]

    def block(name):
        n = counts[name]
        return {"n": n, **{k: round(sums[name][k] / n, 4) if n else 0.0 for k in KEYS}}

    categories = {name: block(name) for name in sorted(counts) if name != "__overall__"}
    return {"overall": block("__overall__"), "categories": categories}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--distractors", help="JSONL whose memories are added to every store")
    parser.add_argument("--model", help="folder of an ONNX embedding model (hybrid search)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--limit-stores", type=int, help="only the first N stores")
    parser.add_argument("--as-of", choices=("real", "latest"), default="real", help=argparse.SUPPRESS)
    parser.add_argument("--weights", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    distractors = [m for s in read_stores(args.distractors) for m in s["memories"]] if args.distractors else []
    embedder = load_embedder(args.model)
    weights = None
    if args.weights:
        f, i, h, r = (float(x) for x in args.weights.split(","))
        weights = SearchWeights(fusion=f, importance=i, heat=h, freshness=r)
    # One jieba for all stores (loading it per store costs ~0.5 s); the cache
    # saves re-cutting the distractors for every store. Neither changes results.
    tokenizer = Tokenizer(cache_size=200_000)
    tokenizer.warm_up()
    rows: list = []
    started = time.perf_counter()
    # Stores in RAM where there is a RAM disk: per-store fsyncs, not search,
    # otherwise dominate the run time.
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="memdesk-bench-", dir=shm if shm.is_dir() else None) as tmp:
        for number, store_data in enumerate(read_stores(args.file), 1):
            if args.limit_stores and number > args.limit_stores:
                break
            rows.extend(run_store(store_data, distractors, embedder, tokenizer, Path(tmp), weights, args.as_of))
    report = summarise(rows)
    if args.json:
        print(json.dumps(report))
        return 0
    label = Path(args.file).name + (f" + {Path(args.distractors).name}" if args.distractors else "")
    mode = f"hybrid ({embedder.model_id})" if embedder is not None else "keyword only"
    print(f"{label}: {report['overall']['n']} queries, {mode}, {time.perf_counter() - started:.0f} s")
    print(f"{'category':<18}{'n':>6}" + "".join(f"{k:>9}" for k in KEYS))
    for name, block in list(report["categories"].items()) + [("overall", report["overall"])]:
        print(f"{name:<18}{block['n']:>6}" + "".join(f"{block[k]:>9.3f}" for k in KEYS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
