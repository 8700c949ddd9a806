"""The same core operations on SQLite and PostgreSQL, side by side.

    python bench/backends.py [--memories 2000] [--pg URL]

PostgreSQL: --pg (a URL to a server where a database may be created), else
MEMDESK_TEST_PG, else a throwaway local cluster (tests/pg_cluster.py; fsync off, as
the tests run it, so commit latency is the server's and the socket's, not the
disk's). Prints per backend: opening an empty store (schema created), opening it
again, one add (median of 200, each its own transaction with the index update),
add_many of N, a keyword search in a fresh engine (first query, then the median of
20), one FeedReader poll with nothing new, and the NOTIFY / data_version wake-up
delay for another connection's write.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from memdesk.core.feed.reader import FeedReader  # noqa: E402
from memdesk.core.search import SearchEngine  # noqa: E402
from memdesk.core.store import Store  # noqa: E402

WORDS = "咖啡 绿茶 杭州 西湖 跑步 早上 项目 会议 周三 用户 喜欢 不喝 coffee tea meeting".split()


def _text(i: int) -> str:
    return " ".join(WORDS[(i * k) % len(WORDS)] for k in (1, 3, 5, 7)) + f" 第{i}条"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def run(target, n: int) -> dict:
    out = {}
    t = time.perf_counter()
    store = Store.open(target)
    out["open (create)"] = time.perf_counter() - t
    store.close()
    t = time.perf_counter()
    store = Store.open(target)
    out["open (again)"] = time.perf_counter() - t
    single = []
    for i in range(200):
        t = time.perf_counter()
        store.add(content=_text(i))
        single.append(time.perf_counter() - t)
    out["add, median"] = statistics.median(single)
    t = time.perf_counter()
    store.add_many([{"content": _text(i)} for i in range(n)])
    out[f"add_many {n}"] = time.perf_counter() - t
    engine = SearchEngine(store)
    t = time.perf_counter()
    engine.search("咖啡 西湖")
    out["search, first"] = time.perf_counter() - t
    times = []
    for word in WORDS * 2:
        t = time.perf_counter()
        engine.search(word)
        times.append(time.perf_counter() - t)
    out["search, median"] = statistics.median(times[:20])
    reader = FeedReader(store)
    reader.poll()
    t = time.perf_counter()
    reader.poll()
    out["idle poll"] = time.perf_counter() - t
    other = Store.open(target)
    threading.Timer(0.2, lambda: setattr(run, "wrote", (time.perf_counter(), other.add(content="别处写的")))).start()
    reader.wait(5.0)
    woke = time.perf_counter()
    time.sleep(0.3)
    written_at = run.wrote[0]  # type: ignore[attr-defined]
    out["wake-up after a commit"] = max(0.0, woke - written_at)
    other.close()
    store.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--pg")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memdesk-bench-") as folder:
        results = {"sqlite": run(Path(folder) / "b.db", args.memories)}
    url, cluster = args.pg or os.environ.get("MEMDESK_TEST_PG"), None
    if not url:
        from pg_cluster import Cluster, find_bin

        bindir = find_bin()
        if bindir is None:
            print("no PostgreSQL: give --pg URL or install postgresql", file=sys.stderr)
            return 1
        cluster = Cluster(bindir).start()
        url = cluster.url()
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS memdesk_bench WITH (FORCE)")
        admin.execute("CREATE DATABASE memdesk_bench")
    try:
        results["postgresql"] = run(url.rsplit("/", 1)[0] + "/memdesk_bench", args.memories)
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS memdesk_bench WITH (FORCE)")
        if cluster is not None:
            cluster.remove()
    print(f"{'':28}{'SQLite':>12}{'PostgreSQL':>14}")
    for key in results["sqlite"]:
        print(f"{key:28}{_ms(results['sqlite'][key]):>12}{_ms(results['postgresql'][key]):>14}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
