"""Every front door from a fresh process, as a user meets it: CLI, MCP server, window.

    python bench/cold_start.py [--sizes 10000,100000] [--query "周末 家人 旅行"] [--json]

Stores are built through the public import path (`memdesk import` of a
seed-000 JSON file, 100k memories a file) and cached in
$MEMDESK_BENCH_CACHE (default /tmp/memdesk-bench). Then, each in a new process:

- cli_search_s / cli_rss_mb: `memdesk --db X search QUERY`, spawn to exit, and its peak RSS;
- fts5_fresh_s: the anchor, SQLite FTS5 over the same memories' jieba tokens
  (index built once, cached): a fresh Python that loads jieba, cuts the query
  and runs one MATCH, spawn to exit;
- mcp_first_search_s: `memdesk mcp` spawned and initialized, then one memory_search,
  from the initialize answer to the search answer (as bench/mcp_startup.py times
  it); mcp_spawn_to_answer_s: the same from the spawn;
- window_ready_s / window_rss_mb / window_max_stall_ms: the window opened on
  the store (offscreen), spawn to the first search result from the engine,
  its peak RSS then, and the longest gap of a 5 ms UI timer until then;
- window_settled_s / _rss_mb / _max_stall_ms: the same window kept open until its
  start-up has settled (tree loaded, change feed read, no start-up job for a second):
  when, its peak RSS over the whole start, and the longest UI gap after the first
  result (what a user who keeps the window open meets; the figures above stop at it);
- with --vectors, window_vectors_ready_s / _rss_mb / _max_stall_ms: the same window
  with a bge-small-zh-shaped model active (bench/bge_shaped.py: its shapes, random
  weights) and a 512-dim vector for every memory, until the first result that vectors
  took part in (no notice of keyword-only search);
- db_mb: the database file; text_mb: the memories' text; index_mb: the
  search tables (dbstat);
- search_p50_ms / search_p95_ms: 200 new 1-3 word queries in one running
  process after the fresh-process figures (what search-as-you-type meets).

Every child runs from compiled bytecode, as an installed MemDesk does
(compiled_bytecode: PYTHONDONTWRITEBYTECODE is lifted and MemDesk compiled
once first); figures before 2026-12-01 07:30 UTC included the compiler.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from ui_stall import StallMeter  # noqa: E402

CACHE = Path(os.environ.get("MEMDESK_BENCH_CACHE", "/tmp/memdesk-bench"))
FILE_SIZE = 100_000


def memdesk(*args: str) -> list[str]:
    return [sys.executable, "-m", "memdesk", *args]


def build_store(count: int) -> Path:
    """A store of ``count`` memories imported from seed-000 files (gui_speed's memories)."""
    from gui_speed import memory_items

    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"cold-{count}.db"
    done = CACHE / f"cold-{count}.done"
    if path.exists() and done.exists():
        return path
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    items = memory_items(count)
    started = time.perf_counter()
    for start in range(0, count, FILE_SIZE):
        chunk = [
            {
                "id": f"c{start + i:07d}",
                "title": m["title"],
                "content": m["content"],
                "group": m["group"],
                "tags": m["tags"],
                "type": m["type"],
                "importance": m["importance"],
                "createdAt": 1_700_000_000_000 + (start + i) * 1000,
            }
            for i, m in enumerate(items[start : start + FILE_SIZE])
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
            json.dump({"memories": chunk}, handle, ensure_ascii=False)
        subprocess.run(
            memdesk("--db", str(path), "--create", "import", handle.name),
            check=True,
            cwd=str(ROOT),
            stdout=subprocess.DEVNULL,
        )
        os.unlink(handle.name)
        print(
            f"  imported {min(start + FILE_SIZE, count)} of {count} ({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
        )
    done.write_text("ok")
    return path


def fts5_store(db: Path, path: Path | None = None, *, optimize: bool = False) -> Path:
    """The anchor: FTS5 over jieba tokens of the same memories, built once (at ``path``, beside
    ``db`` by default); ``optimize`` merges its segments, as a size comparison wants."""
    path = path or db.with_suffix(".fts5")
    if path.exists():
        return path
    import jieba

    jieba.setLogLevel(60)
    source = sqlite3.connect(str(db))
    target = sqlite3.connect(str(path))
    target.execute("CREATE VIRTUAL TABLE doc USING fts5(body)")
    rows = source.execute("SELECT rowid, title || ' ' || content FROM memory")
    target.executemany(
        "INSERT INTO doc (rowid, body) VALUES (?, ?)",
        ((r, " ".join(w for w in jieba.cut_for_search(t) if w.strip())) for r, t in rows),
    )
    if optimize:
        target.execute("INSERT INTO doc (doc) VALUES ('optimize')")
    target.commit()
    target.close()
    source.close()
    return path


FTS5_CHILD = """
import sqlite3, sys, jieba
jieba.setLogLevel(60)
jieba.initialize()
q = " OR ".join('"' + w.replace('"', '') + '"' for w in jieba.cut_for_search(sys.argv[2]) if w.strip())
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY rank LIMIT 20", (q,)).fetchall()
print(len(rows))
"""


def timed(command: list[str], **kwargs) -> tuple[float, float, str]:
    """(seconds spawn to exit, peak RSS MB, stdout) of one child process."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, **kwargs)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)  # reaps it with its own rusage
    elapsed = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"{command[:6]} exited with {child.returncode}")
    return elapsed, usage.ru_maxrss / 1024, out


def mcp_first_search(db: Path, query: str) -> tuple[float, float]:
    """(initialize answered -> first memory_search answered, spawn -> that answer)."""
    import anyio
    from mcp_startup import one_run

    init, search = anyio.run(one_run, db, query)
    return search, init + search


def vector_store(count: str) -> str:
    """A copy of the store with a vector for every memory under the bge-shaped model, which
    is installed and active in its own models folder: (store, models folder) as JSON."""
    from bge_shaped import build
    from vector_load import with_vectors

    from memdesk.core.embed.install import install_model
    from memdesk.core.embed.registry import active_embedder

    models = CACHE / "models-bge-shaped"
    if not (models / "bge-shaped").exists():
        install_model(build(CACHE / "bge-shaped-src"), name="bge-shaped", pooling="cls", make_active=True, root=models)
    embedder, why = active_embedder(root=models)
    if embedder is None:
        raise RuntimeError(why)
    target, done = CACHE / f"cold-{count}-vectors.db", CACHE / f"cold-{count}-vectors.done"
    if not (target.exists() and done.exists() and done.read_text() == embedder.model_id):
        with_vectors(build_store(int(count)), target, embedder.model_id, embedder.dim)
        done.write_text(embedder.model_id)
    return json.dumps([str(target), str(models)])


SETTLE_TICK_MS, SETTLE_TICKS, SETTLE_MAX_S = 100, 10, 60


def window_child(db: str, t0: float, query: str, full: bool = False) -> None:
    from PySide6.QtCore import QSettings, QTimer

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from memdesk.gui.main import App, application

    qt_app = application()
    app = App(maintenance_delay_ms=10**9)
    meter = StallMeter()
    meter.start(from_first_tick=True)
    app.open(db, create=True)
    browser = app.window.browser

    def finished(outcome):
        if full and outcome.notice:  # not yet with vectors (or some missing): not full quality
            QTimer.singleShot(20, lambda: browser.search(query))
            return
        if outcome.engine == "engine" and outcome.hits and not figures:
            figures.update(
                window_ready_s=time.time() - t0,
                window_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                window_max_stall_ms=meter.longest_ms,
                hits=len(outcome.hits),
            )
            meter.longest_ms = 0.0  # from here on: the settled figures' stall
            settle()

    def settle():
        # Settled: the tree is loaded, the change feed read, and no start-up job (the index,
        # the embedding check) has run for a second; the feed's own polls have no label.
        busy = [t for t in app.session.taskman.tasks() if t.label]
        quiet[0] = 0 if busy or browser.tree.building or not app.session.feed.started else quiet[0] + 1
        if quiet[0] < SETTLE_TICKS and time.time() - t0 < SETTLE_MAX_S:
            QTimer.singleShot(SETTLE_TICK_MS, settle)
            return
        figures.update(
            window_settled_s=time.time() - t0,
            window_settled_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            window_settled_max_stall_ms=meter.longest_ms,
        )
        print(json.dumps(figures), flush=True)
        os._exit(0)

    figures: dict = {}
    quiet = [0]  # settle's ticks in a row with nothing starting up
    browser.search_finished.connect(finished)
    QTimer.singleShot(0, lambda: browser.search(query))
    qt_app.exec()


def window_ready(db: Path, query: str, models: str = "") -> dict:
    """The window child's figures; with ``models`` (a models folder whose active model
    has vectors in ``db``), until the first result that vectors took part in."""
    env = {**os.environ, "MEMDESK_MODELS_DIR": models} if models else None
    t0 = time.time()
    out = subprocess.run(
        [sys.executable, __file__, "--window-child", str(db), str(t0), query, "full" if models else ""],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=str(ROOT),
        env=env,
    )
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("{")), None)
    if line is None:
        raise RuntimeError(f"window child failed: {out.stderr[-3000:]}")
    return json.loads(line)


def sizes_mb(db: Path) -> dict:
    conn = sqlite3.connect(str(db))
    text = (
        conn.execute(
            "SELECT SUM(LENGTH(CAST(title AS BLOB)) + LENGTH(CAST(content AS BLOB)) + "
            "LENGTH(CAST(summary AS BLOB)) + LENGTH(CAST(tags AS BLOB)) + "
            "LENGTH(CAST(group_name AS BLOB))) FROM memory"
        ).fetchone()[0]
        or 0
    )
    try:
        index = (
            conn.execute(
                "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'search%' OR name LIKE 'sqlite_autoindex_search%'"
            ).fetchone()[0]
            or 0
        )
    except sqlite3.OperationalError:  # dbstat not compiled in
        index = None
    conn.close()
    return {
        "db_mb": round(db.stat().st_size / 1e6, 1),
        "text_mb": round(text / 1e6, 1),
        "index_mb": None if index is None else round(index / 1e6, 1),
    }


def warm_search(db: Path, count: int = 200) -> dict:
    """p50/p95 of searches in one running process (as the window and a server meet them):
    1-3 words from the stores' vocabulary, each query new."""
    import random
    import statistics

    from gui_speed import EN, ZH

    from memdesk.core.search import SearchEngine
    from memdesk.core.store import Store

    store = Store.open(db)
    engine = SearchEngine(store)
    engine.build()
    engine.warm_up()
    rng = random.Random(3)
    times = []
    for _ in range(count):
        words = [rng.choice(ZH + EN) for _ in range(rng.randint(1, 3))]
        started = time.perf_counter()
        engine.search(" ".join(words), limit=20)
        times.append((time.perf_counter() - started) * 1000)
    store.close()
    times.sort()
    return {
        "search_p50_ms": round(statistics.median(times), 2),
        "search_p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
    }


def in_child(name: str, *args: str) -> str:
    """Run one of this file's helpers in a child process: building and in-process
    searching grow this process, and a child spawned later would report this
    process's peak as its own (Linux carries the high-water mark over exec)."""
    out = subprocess.run(
        [sys.executable, __file__, "--helper", name, *args], capture_output=True, text=True, cwd=str(ROOT), timeout=7200
    )
    if out.returncode:
        raise RuntimeError(f"{name} failed: {out.stderr[-3000:]}")
    return out.stdout.strip().splitlines()[-1]


HELPERS = {
    "build": lambda count: str(build_store(int(count))),
    "fts5": lambda db: str(fts5_store(Path(db))),
    "warm": lambda db: json.dumps(warm_search(Path(db))),
    "mcp": lambda db, query: json.dumps(mcp_first_search(Path(db), query)),
    "vectors": vector_store,
}


def measure(count: int, query: str, vectors: bool = False) -> dict:
    db = Path(in_child("build", str(count)))
    anchor = Path(in_child("fts5", str(db)))
    out: dict = {}
    out["fts5_fresh_s"] = round(timed([sys.executable, "-c", FTS5_CHILD, str(anchor), query])[0], 3)
    seconds, rss, _ = timed(memdesk("--db", str(db), "search", query, "--keyword-only"), cwd=str(ROOT))
    out["cli_search_s"], out["cli_rss_mb"] = round(seconds, 3), round(rss, 1)
    first, whole = json.loads(in_child("mcp", str(db), query))
    out["mcp_first_search_s"], out["mcp_spawn_to_answer_s"] = round(first, 3), round(whole, 3)
    window = window_ready(db, query)
    out.update({k: round(v, 3 if k.endswith("_s") else 1) for k, v in window.items() if k != "hits"})
    if vectors:
        store, models = json.loads(in_child("vectors", str(count)))
        window = window_ready(Path(store), query, models)
        for key, value in window.items():
            if key.startswith("window_"):
                out[key.replace("window_", "window_vectors_")] = round(value, 3 if key.endswith("_s") else 1)
    out.update(sizes_mb(db))
    out.update(json.loads(in_child("warm", str(db))))
    out["cli_vs_fts5"] = round(out["cli_search_s"] / out["fts5_fresh_s"], 2)
    return out


def compiled_bytecode() -> None:
    """Let every child run from compiled bytecode, as an installed MemDesk does (pip and the
    bundle ship .pyc files). With PYTHONDONTWRITEBYTECODE set (the dev machine sets it) each
    fresh process compiled every MemDesk module it imported: the CLI and MCP figures timed
    the compiler, and the window's workers compiling their imports held the GIL for tens of
    milliseconds at a time, which window_max_stall_ms counted as UI stalls."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "memdesk")], check=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--query", default="周末 家人 旅行")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--vectors", action="store_true", help="also the window with a bge-shaped model and vectors")
    parser.add_argument("--window-child", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--helper", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.helper:
        print(HELPERS[args.helper[0]](*args.helper[1:]))
        return 0
    if args.window_child:
        db, t0, query, full = args.window_child
        window_child(db, float(t0), query, full == "full")
        return 1
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("MEMDESK_MODELS_DIR", tempfile.mkdtemp())  # keyword-only: no model is measured here
    compiled_bytecode()
    figures = {"query": args.query, "sizes": {}}
    for size in sorted(int(s) for s in args.sizes.split(",")):
        figures["sizes"][str(size)] = measure(size, args.query, args.vectors)
        if not args.json:
            print(size, json.dumps(figures["sizes"][str(size)]), flush=True)
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
