"""Time from starting `memdesk mcp` to its answer to initialize, and to the first search.

    python bench/mcp_startup.py [--runs 5] [--memories 10000] [--json]

Uses the mcp SDK's stdio client, as an assistant would. The goal is initialize
≤ 1 s: jieba, numpy and the ONNX model must load after the handshake.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from memdesk.core.store import Store  # noqa: E402


async def one_run(db: Path, query: str = "用户喜欢什么运动") -> tuple[float, float]:
    """(spawn -> initialize answered, initialize answered -> first memory_search answered)."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memdesk", "--db", str(db), "mcp"], cwd=str(ROOT)
    )
    started = time.perf_counter()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            init = time.perf_counter() - started
            t = time.perf_counter()
            result = await session.call_tool("memory_search", {"query": query})
            if getattr(result, "is_error", False) or getattr(result, "isError", False):
                raise RuntimeError(str(result.content))
            return init, time.perf_counter() - t


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--memories", type=int, default=10000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp(prefix="memdesk-mcp-")) / "bench.db"
    store = Store.open(db)
    store.add_many(
        [{"content": f"用户第 {i} 条记忆：喜欢 sport{i % 50} 和 城市{i % 30}"} for i in range(args.memories)]
    )
    store.close()
    inits, searches = [], []
    for _ in range(args.runs):
        init, search = anyio.run(one_run, db)
        inits.append(init)
        searches.append(search)
    result = {
        "memories": args.memories,
        "runs": args.runs,
        "initialize_median_s": round(statistics.median(inits), 3),
        "initialize_max_s": round(max(inits), 3),
        "first_search_median_s": round(statistics.median(searches), 3),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"memdesk mcp with {args.memories} memories, {args.runs} runs:")
        print(
            f"  process start → initialize answered: median {result['initialize_median_s']} s, "
            f"max {result['initialize_max_s']} s (goal ≤ 1 s)"
        )
        print(
            "  first search after initialize (the index is in the store; jieba loads meanwhile): "
            f"median {result['first_search_median_s']} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
