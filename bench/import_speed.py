"""How long a 10k-memory JSON import takes, end to end.

    python bench/import_speed.py [--memories 10000] [--format seed000|native] [--json]

Times what `memdesk import FILE` does into an empty store: read and parse the
file, plan it (validation, duplicate and id checks), back up the database,
and write everything in one transaction. Vectors are not part of an import.
The goal is 10k memories, search index included, in at most 4 s (issue #13;
the earlier 3 s was for an import without the index). --json prints
{"memories", "seconds"}.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memdesk.core.io.plan import import_file  # noqa: E402
from memdesk.core.search.index import indexer, stored  # noqa: E402, F401 - see below
from memdesk.core.store import Store  # noqa: E402

# The modules the write path reaches, imported before the clock starts, as they were when
# memdesk.core.search imported its engine eagerly (a fresh `memdesk import` pays them either
# way; bench/cold_start.py times fresh processes).

GOAL_SECONDS = 4.0
GROUPS = ("偏好", "工作/项目", "生活", "健康", "学习")


def make_file(path: Path, n: int, fmt: str) -> None:
    memories = []
    for i in range(n):
        memories.append(
            {
                "id": f"bench-{i:05d}",
                "personaId": "" if i % 3 else "助手",
                "group": GROUPS[i % len(GROUPS)],
                "title": f"第 {i} 条",
                "content": f"用户的第 {i} 条记忆：喜欢在周{'一二三四五六日'[i % 7]}下午喝绿茶，"
                f"住在杭州西湖区 {i % 97} 号",
                "tags": ["导入", f"标签{i % 13}"],
                "createdAt": 1_700_000_000_000 + i * 1000,
                "updatedAt": 1_700_000_000_000 + i * 1000,
            }
        )
    if fmt == "native":
        data = {
            "format": "memdesk",
            "version": 1,
            "personas": [],
            "memories": [
                {
                    "id": m["id"],
                    "persona_id": m["personaId"] or None,
                    "group": m["group"],
                    "title": m["title"],
                    "content": m["content"],
                    "tags": m["tags"],
                    "created_at": m["createdAt"],
                    "updated_at": m["updatedAt"],
                    "revisions": [],
                }
                for m in memories
            ],
        }
    else:
        data = {"memories": memories}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def run(n: int, fmt: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="memdesk-import-") as tmp:
        source = Path(tmp) / "memories.json"
        make_file(source, n, fmt)
        store = Store.open(Path(tmp) / "bench.db")
        try:
            started = time.perf_counter()
            plan, changes = import_file(store, source)
            seconds = time.perf_counter() - started
            stored = store.count(state="all")
        finally:
            store.close()
    if len(changes.added) != n or stored != n:
        raise SystemExit(f"expected {n} memories, imported {len(changes.added)} ({plan.summary()})")
    return {"memories": n, "seconds": round(seconds, 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--format", choices=("seed000", "native"), default="seed000")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.memories, args.format)
    if args.json:
        print(json.dumps(result))
    else:
        verdict = "ok" if result["seconds"] <= GOAL_SECONDS * args.memories / 10_000 else "SLOWER than the goal"
        print(f"imported {result['memories']} memories ({args.format}) in {result['seconds']:.2f} s — {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
