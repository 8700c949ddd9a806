"""`memdesk copy` round trip: SQLite -> PostgreSQL -> SQLite of a store with history and vectors.

    python bench/copy_roundtrip.py [--memories 10000] [--url postgresql://…] [--json]

Builds a SQLite store of N memories in 3 personas (a fifth of them edited twice, so with
revisions; a few in the trash or superseded; a 384-dim float32 vector each under one model;
settings; logged tool calls), copies it to a fresh PostgreSQL database (a throwaway cluster
unless --url) and from there to a new SQLite file, with the core's copy_store, the code
`memdesk copy` runs. Prints each leg's time and the three content checksums, which must be
identical; exit 1 if not.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._pg import pg_database  # noqa: E402
from memdesk.core.io.transfer import copy_store, summarise  # noqa: E402
from memdesk.core.store import Store  # noqa: E402
from memdesk.core.tools.service import MemoryTools  # noqa: E402

WORDS = "绿茶 咖啡 杭州 西湖 跑步 早上 项目 会议 周三 数据库 迁移 备份 Python PostgreSQL 喜欢 不喜欢 学习 日语".split()
GROUPS = ("偏好", "工作/项目", "生活", "健康", "")


def build(path: Path, n: int, seed: int = 7) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    store = Store.open(path)
    personas = [store.create_persona(name=name)[0] for name in ("工作助手", "生活助手", "学习助手")]
    items = [
        {
            "id": f"bench-{i:05d}",
            "persona_id": personas[i % 4] if i % 4 < 3 else None,
            "group": GROUPS[i % len(GROUPS)],
            "title": f"第 {i} 条",
            "content": "".join(rng.choice(WORDS) for _ in range(12)) + f" #{i}",
            "tags": rng.sample(WORDS[:8], 2),
            "importance": 1 + i % 10,
        }
        for i in range(n)
    ]
    store.add_many(items)
    for i in range(0, n, 5):  # history: two edits each
        for round_ in range(2):
            mid = f"bench-{i:05d}"
            store.update(
                mid, expected_version=store.get(mid).version, content=f"改过 {round_} 次：{items[i]['content']}"
            )
    store.delete([f"bench-{i:05d}" for i in range(3, n, 97)])
    store.supersede("bench-00001", content="取代了第 1 条")
    for start_at in range(0, n, 2000):
        vectors = [
            (f"bench-{i:05d}", f"h{i}", [rng.uniform(-1, 1) for _ in range(384)])
            for i in range(start_at, min(n, start_at + 2000))
        ]
        store.put_vectors("bench-minilm-384", vectors)
    store.set_setting("search.weights", {"fusion": 0.6, "heat": 0.2})
    tools = MemoryTools(store, persona="工作助手", client="bench")
    for i in range(50):
        tools.call("memory_save", {"content": f"助手记下的第 {i} 件事"})
    store.close()
    return time.perf_counter() - start


def leg(source, target) -> tuple[float, str, dict]:
    src, dst = Store.open(source), Store.open(target)
    try:
        report = copy_store(src, dst)
        return report.seconds, report.target_summary.checksum, report.copied
    finally:
        dst.close()
        src.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--url", help="a PostgreSQL server where a database may be created (default: a throwaway one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="memdesk-copy-"))
    built = build(folder / "source.db", args.memories)
    src = Store.open(folder / "source.db")
    original = summarise(src.connection())
    src.close()
    with pg_database(args.url, "memdesk_copy_bench") as (url, _cluster):
        to_pg, pg_sum, copied = leg(folder / "source.db", url)
        back, back_sum, _ = leg(url, folder / "back.db")
    result = {
        "memories": args.memories,
        "rows": copied,
        "build_seconds": round(built, 1),
        "sqlite_to_postgresql_seconds": round(to_pg, 2),
        "postgresql_to_sqlite_seconds": round(back, 2),
        "checksums": {"source": original.checksum, "postgresql": pg_sum, "back": back_sum},
        "identical": original.checksum == pg_sum == back_sum,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"store of {args.memories:,} memories built in {built:.1f} s; rows: {copied}")
        print(f"  SQLite -> PostgreSQL: {to_pg:.2f} s (copy, check, search index rebuilt)")
        print(f"  PostgreSQL -> SQLite: {back:.2f} s")
        for name, value in result["checksums"].items():
            print(f"  checksum {name:<10} {value}")
        print("  identical" if result["identical"] else "  DIFFERENT")
    return 0 if result["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
