"""One write at a time into a large store, index included: what a person or an assistant waits for.

    python bench/write_speed.py [--memories 100000] [--writes 200] [--json]

A copy of bench/cold_start.py's store (built and cached there) takes, one
transaction each and timed whole: window-style adds and edits (the Store
calls the window's operations make) and an assistant's memory_save and
memory_update tool calls (MCP's path, with the tool-call log). jieba is
loaded first, as in a running window or server. The goal is p95 ≤ 20 ms.
A title whose every character pair holds a particle (的, 了 …) cannot be
narrowed by pairs: its new vocabulary term scans the texts (~25 ms at 100k).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

WORDS = "咖啡 早上 跑步 项目 会议 周三 报告 阅读 旅行 计划 杭州 生日 医生 周末 家人 朋友 火车 酒店".split()


def p95(values: list[float]) -> float:
    return sorted(values)[int(round(0.95 * (len(values) - 1)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from cold_start import build_store

    from memdesk.core.store import Store
    from memdesk.core.tools.service import MemoryTools

    source = build_store(args.memories)
    folder = Path(tempfile.mkdtemp(prefix="memdesk-writes-"))
    path = folder / "store.db"
    shutil.copyfile(source, path)
    store = Store.open(path)
    store.tokenizer.warm_up()
    rng = random.Random(5)

    def text() -> str:
        return "".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14)))

    def timed(fn) -> float:
        started = time.perf_counter()
        fn()
        return (time.perf_counter() - started) * 1000

    added: list[str] = []
    # Titles as people write them (two words, most new to the store: each becomes vocabulary,
    # and the memories containing it are found through its rarest character pair).
    adds = [
        timed(
            lambda: added.extend(
                store.add(
                    title=rng.choice(WORDS) + rng.choice(WORDS) + rng.choice(WORDS), content=text(), tags=["习惯"]
                ).added
            )
        )
        for _ in range(args.writes)
    ]
    ids = [
        row[0] for row in store.connection().execute("SELECT id FROM memory ORDER BY random() LIMIT ?", (args.writes,))
    ]
    edits = [timed(lambda i=i: store.update(i, expected_version=None, content=text())) for i in ids]
    tools = MemoryTools(store, client="bench")
    saves = [timed(lambda: tools.call("memory_save", {"content": text()})) for _ in range(args.writes)]
    updates = (
        [timed(lambda i=i: tools.call("memory_update", {"id": i, "content": text()})) for i in ids[:50]]
        if "memory_update" in {t["function"]["name"] for t in tools.list_tools()}
        else []
    )
    store.close()
    shutil.rmtree(folder, ignore_errors=True)
    out = {"memories": args.memories}
    for name, values in (("add", adds), ("edit", edits), ("tool_save", saves), ("tool_update", updates)):
        if values:
            out[f"{name}_p50_ms"] = round(statistics.median(values), 2)
            out[f"{name}_p95_ms"] = round(p95(values), 2)
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
