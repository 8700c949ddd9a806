"""Kill -9 a MemDesk process at random moments and check nothing is half-written.

    python bench/crash_safety.py [--kills 20] [--memories 10000] [--scenario import|maintenance|merge] [--json]

For each kill: PRAGMA integrity_check must be ok, and the interrupted operation
must be wholly there or wholly absent (import: 0 or N new memories; the
memories that were there before are untouched).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memdesk.core.backup import check_integrity  # noqa: E402
from memdesk.core.store import Store  # noqa: E402

CHILD = {
    "import": "from memdesk.core.store import Store\nfrom memdesk.core.io.plan import import_file\n"
              "import sys\ns = Store.open(sys.argv[1])\nprint('go', flush=True)\nimport_file(s, sys.argv[2])\n"
              "print('done', flush=True)\n",
}


def make_import_file(path: Path, n: int, tag: str) -> None:
    memories = [{"id": f"{tag}-{i}", "content": f"第 {i} 条导入的记忆：用户喜欢 item{i}", "tags": ["导入", tag],
                 "group": f"组{i % 17}", "createdAt": 1700000000000 + i} for i in range(n)]
    path.write_text(json.dumps({"memories": memories}, ensure_ascii=False), encoding="utf-8")


def run_import_scenario(kills: int, n: int, seed: int) -> dict:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="memdesk-crash-"))
    db = work / "crash.db"
    store = Store.open(db)
    store.add_many([{"content": f"原有记忆 {i}", "id": f"old-{i}"} for i in range(200)])
    store.close()
    # Time one full import to know where "random moments" fall.
    timing_file = work / "timing.json"
    make_import_file(timing_file, n, "timing")
    scratch = work / "timing.db"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", CHILD["import"], str(scratch), str(timing_file)], check=True,
                   capture_output=True, cwd=ROOT)
    full = time.perf_counter() - started
    outcomes = {"absent": 0, "complete": 0, "broken": 0}
    details = []
    for k in range(kills):
        tag = f"run{k}"
        source = work / f"{tag}.json"
        make_import_file(source, n, tag)
        proc = subprocess.Popen([sys.executable, "-c", CHILD["import"], str(db), str(source)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
        proc.stdout.readline()  # 'go': the store is open, the import starts
        delay = rng.uniform(0, full)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        integrity = check_integrity(db)
        store = Store.open(db)
        got = store.count(tag=tag, state="all")
        old = store.count(tag=None, state="all", ids=[f"old-{i}" for i in range(200)])
        store.close()
        state = "complete" if got == n else "absent" if got == 0 else "broken"
        if integrity != "ok" or old != 200:
            state = "broken"
        outcomes[state] += 1
        details.append({"kill_after_s": round(delay, 3), "integrity": integrity, "imported": got, "state": state})
        source.unlink()
    return {"scenario": "import", "kills": kills, "memories": n, "full_import_s": round(full, 2),
            "outcomes": outcomes, "ok": outcomes["broken"] == 0, "runs": details}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--memories", type=int, default=10000)
    parser.add_argument("--scenario", choices=sorted(CHILD), default="import")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run_import_scenario(args.kills, args.memories, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['scenario']}: {result['kills']} kills during a {result['memories']}-memory import "
              f"(full import {result['full_import_s']} s)")
        print(f"  wholly absent: {result['outcomes']['absent']}, wholly there: {result['outcomes']['complete']}, "
              f"broken: {result['outcomes']['broken']}")
        print("  integrity_check ok after every kill" if result["ok"] else "  FAILED")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
