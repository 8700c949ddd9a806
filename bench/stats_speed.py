"""How long Tools › Statistics and `memdesk stats` take on a large store.

    python bench/stats_speed.py [--memories 100000] [--json]

A fresh store of N memories (40 groups of 3 subgroups, 50 tags, one an hour back in time,
heats 0-99) is read by core.stats.overview twice: the first after the writes, the second as a
window's or a second command's would be, with the file in the page cache. Prints both, and
the elapsed_ms the command line reports for the same store. The goal is under 300 ms at 100k
(what the statistics dialog and `memdesk stats --json` answer in).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memdesk.core.domain.times import now_utc  # noqa: E402
from memdesk.core.store import Store  # noqa: E402
from memdesk.core.views.stats import overview  # noqa: E402


def fill(store: Store, count: int) -> None:
    now = now_utc()
    for start in range(0, count, 10_000):
        store.add_many(
            [
                dict(
                    content=f"m{i}",
                    group=f"g{i % 40}/s{i % 3}",
                    tags=[f"t{i % 50}"],
                    created_at=(now - timedelta(hours=i)).isoformat(),
                    heat=float(i % 100),
                )
                for i in range(start, min(count, start + 10_000))
            ]
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "stats.db"
        store = Store.open(path)
        fill(store, args.memories)
        started = time.perf_counter()
        first = overview(store)
        first_ms = (time.perf_counter() - started) * 1000
        again = overview(store)
        store.close()
        assert first["active"] == again["active"] == args.memories
        out = subprocess.run(
            [sys.executable, "-m", "memdesk", "stats", "--db", str(path), "--json"],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
    figures = {
        "memories": args.memories,
        "overview_first_ms": round(first_ms, 1),
        "overview_cached_ms": again["elapsed_ms"],
        "cli_elapsed_ms": json.loads(out)["elapsed_ms"],
        "goal_ms": 300,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:22}{value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
