"""Three writers on one database at once: the window's writer, the CLI and the MCP server.

    python bench/concurrency.py [--writes 1000] [--backend sqlite|postgresql|both] [--url URL] [--json]

--backend postgresql runs them on a fresh database of a PostgreSQL server: --url, else a
throwaway cluster (bench/_pg.py); `both` prints the two side by side.

The window's writer is the GUI's own write path (memdesk.core.ops, as
its task manager runs it) in this process; the CLI is `memdesk add`
processes, two at a time; the MCP server is `memdesk mcp` driven by the mcp
SDK client with memory_save calls. Afterwards every write must be present,
and no writer may have reported "database is locked" (nor any other error).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._pg import pg_database  # noqa: E402
from memdesk.core.store import Store  # noqa: E402


def window_writer(db, n: int, errors: list) -> None:
    """What the window does for each new memory, on its worker thread."""
    store = Store.open(db)
    try:
        from memdesk.core import ops as operations

        add = getattr(operations, "add_memory", None)
    except ImportError:
        add = None
    for i in range(n):
        try:
            if add is not None:
                add(store, fields={"content": f"窗口写入 {i}", "tags": ["window"]})
            else:
                store.add(content=f"窗口写入 {i}", tags=["window"])
        except Exception as exc:  # noqa: BLE001 - a bench counts every failure
            errors.append(f"window: {exc}")
        time.sleep(0.03)  # a person's pace, so the window's writes overlap the others' whole run


def cli_writer(db, n: int, errors: list) -> None:
    def one(i):
        result = subprocess.run(
            [sys.executable, "-m", "memdesk", "--db", str(db), "add", "--content", f"命令行写入 {i}", "--tags", "cli"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if result.returncode != 0:
            errors.append(f"cli: {result.stderr.strip()}")

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, range(n)))


def mcp_writer(db, n: int, errors: list) -> None:
    async def run():
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "memdesk", "--db", str(db), "mcp"], cwd=str(ROOT)
        )
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for i in range(n):
                    result = await session.call_tool("memory_save", {"content": f"助手写入 {i}", "tags": ["mcp"]})
                    if result.is_error:
                        errors.append(f"mcp: {result.content[0].text}")

    anyio.run(run)


def run(db, writes: int) -> dict:
    """The three writers at once on ``db`` (a path or a URL, schema created); what they left."""
    Store.open(db).close()
    errors: list[str] = []
    timings = {}

    def timed(name, func):
        start = time.perf_counter()
        func(db, writes, errors)
        timings[name] = round(time.perf_counter() - start, 1)

    threads = [
        threading.Thread(target=timed, args=(name, func))
        for name, func in (("window", window_writer), ("cli", cli_writer), ("mcp", mcp_writer))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store = Store.open(db)
    counts = {tag: store.count(tag=tag) for tag in ("window", "cli", "mcp")}
    store.close()
    return {
        "writes_each": writes,
        "present": counts,
        "total": sum(counts.values()),
        "expected": 3 * writes,
        "errors": len(errors),
        "locked_errors": sum("locked" in e for e in errors),
        "first_errors": errors[:5],
        "seconds": timings,
        "ok": sum(counts.values()) == 3 * writes and not errors,
    }


def show(backend: str, result: dict) -> None:
    print(f"{backend}: 3 writers × {result['writes_each']} writes: {result['total']} of {result['expected']} present")
    print(f"  per writer: {result['present']}; time (s): {result['seconds']}")
    print(f'  errors: {result["errors"]} ("database is locked": {result["locked_errors"]})')
    for e in result["first_errors"]:
        print("   ", e)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="sqlite")
    parser.add_argument("--url", help="PostgreSQL server where a database may be created (default: a throwaway one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    if args.backend in ("sqlite", "both"):
        results["sqlite"] = run(Path(tempfile.mkdtemp(prefix="memdesk-conc-")) / "shared.db", args.writes)
    if args.backend in ("postgresql", "both"):
        with pg_database(args.url, "memdesk_concurrency") as (url, _cluster):
            results["postgresql"] = run(url, args.writes)
    if args.json:
        print(json.dumps(results if len(results) > 1 else next(iter(results.values()))))
    else:
        for backend, result in results.items():
            show(backend, result)
    return 0 if all(r["ok"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
