"""What a store's vectors cost a fresh process at start: bge-small-zh-shaped (512 dims, float32).

    python bench/vector_load.py [--count 100000] [--json]

A copy of gui_speed's cached store gets a random unit vector for every memory, stored under a
bench model id exactly as the re-embed job stores them (text hash included). A fresh child
process then opens the store and its search index (as the window does), and loads the vectors:
resident memory before and after (peak), and the seconds the load took. The "before" index is
a second one without vectors, dropped after: "after" minus "before" is what vectors add.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
MODEL, DIM = "bench-bge-shaped", 512


def with_vectors(source: Path, target: Path | None = None, model: str = MODEL, dim: int = DIM) -> Path:
    """A copy of ``source`` with a random unit vector of ``dim`` for every memory under
    ``model``, text hash included, as the re-embed job stores them (cold_start.py's
    --vectors uses it too, with a real model's id)."""
    import numpy as np

    target = target or Path(tempfile.mkdtemp()) / "vectors.db"
    shutil.copy(source, target)
    conn = sqlite3.connect(target)
    docs = conn.execute("SELECT memory_id, ehash FROM search_doc WHERE ehash IS NOT NULL").fetchall()
    rng = np.random.default_rng(7)
    with conn:
        for start in range(0, len(docs), 5000):
            block = rng.standard_normal((len(docs[start : start + 5000]), dim)).astype("<f4")
            block /= np.linalg.norm(block, axis=1, keepdims=True)
            conn.executemany(
                "INSERT OR REPLACE INTO memory_vector VALUES (?, ?, ?, ?, ?)",
                [
                    (mid, model, ehash, dim, row.tobytes())
                    for (mid, ehash), row in zip(docs[start : start + 5000], block)
                ],
            )
    conn.close()
    return target


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def child(db: str) -> None:
    from memdesk.core.search.index.stored import StoredIndex
    from memdesk.core.search.language.tokenize import shared_tokenizer
    from memdesk.core.store import Store

    store = Store.open(db)
    plain = StoredIndex(store, shared_tokenizer(), None, None)
    plain.load()  # the index without vectors: what the window holds without a model
    before = rss_mb()
    index = StoredIndex(store, shared_tokenizer(), None, (MODEL, DIM))
    started = time.perf_counter()
    index.load()  # columns again (shared strings aside) and the vectors, as a window with a model does
    seconds = time.perf_counter() - started
    del plain
    loaded = len(index.vectors)
    print(
        json.dumps(
            {
                "vectors": loaded,
                "index_with_vectors_load_s": round(seconds, 3),
                "rss_before_mb": round(before, 1),
                "rss_after_mb": round(rss_mb(), 1),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "matrix_mb": round(loaded * DIM * 4 / 2**20, 1),
            }
        )
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    sys.path.insert(0, str(ROOT / "bench"))
    from gui_speed import database

    db = with_vectors(database(args.count))
    out = (
        subprocess.run([sys.executable, __file__, "--child", str(db)], check=True, capture_output=True, text=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    figures = json.loads(out)
    shutil.rmtree(db.parent)
    print(
        json.dumps(figures)
        if args.json
        else f"{figures['vectors']} vectors of {DIM} dims ({figures['matrix_mb']} MB) loaded "
        f"in {figures['index_with_vectors_load_s']} s; "
        f"RSS {figures['rss_before_mb']} → {figures['rss_after_mb']} MB, peak {figures['peak_rss_mb']} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
