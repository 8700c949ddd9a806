"""Kill -9 a MemDesk process at random moments and check nothing is half-written.

    python bench/crash_safety.py [--kills 20] [--memories 10000] [--scenario import|maintenance|merge] [--json]

For each kill: PRAGMA integrity_check must be ok, and the interrupted operation
must be wholly there or wholly absent:
- import: 0 or N new memories; the memories that were there before are untouched.
- maintenance (every task has work: expiry, old trash, stale heat, automatic
  importance, duplicates, near-duplicates): each task commits in its own
  transaction, so the file must equal the state after a whole number of tasks
  (computed task by task beforehand with the same clock), and every memory in
  use before is still there (in use, or moved to the trash by a finished expiry).
- merge: the child applies the consolidation inbox's proposals one by one; each
  proposal is wholly merged (merged memory, every original superseded by it,
  one 'merge' revision each, proposal gone) or wholly absent.
Kills fall at random moments within the measured length of an uninterrupted run
(maintenance: within each task's measured length after it starts, task by task in
turn, so the short tasks are hit too).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memdesk.core.domain.times import now_utc  # noqa: E402
from memdesk.core.maintenance.consolidation import PROPOSALS_KEY  # noqa: E402
from memdesk.core.storage.backup import check_integrity  # noqa: E402
from memdesk.core.store import Store  # noqa: E402

CHILD = {
    "import": "from memdesk.core.store import Store\nfrom memdesk.core.io.plan import import_file\n"
    "import sys\ns = Store.open(sys.argv[1])\nprint('go', flush=True)\nimport_file(s, sys.argv[2])\n"
    "print('done', flush=True)\n",
    # argv: db, the run's clock (ISO), task names
    "maintenance": "import sys\nfrom datetime import datetime\nfrom memdesk.core.store import Store\n"
    "from memdesk.core.maintenance import run_maintenance\n"
    "s = Store.open(sys.argv[1])\nprint('go', flush=True)\n"
    "run_maintenance(s, sys.argv[3].split(','), now=datetime.fromisoformat(sys.argv[2]),\n"
    "                on_task=lambda name: print('task', name, flush=True))\n"
    "print('done', flush=True)\n",
    # argv: db; answers every open proposal with 'merge', one after another
    "merge": "import sys\nfrom memdesk.core.store import Store\n"
    "from memdesk.core.maintenance import merge_proposal\n"
    "from memdesk.core.maintenance.consolidation import PROPOSALS_KEY\n"
    "s = Store.open(sys.argv[1])\nids = [p['id'] for p in s.setting(PROPOSALS_KEY, [])]\n"
    "print('go', flush=True)\nfor pid in ids:\n    merge_proposal(s, pid)\n"
    "print('done', flush=True)\n",
}


def make_import_file(path: Path, n: int, tag: str) -> None:
    memories = [
        {
            "id": f"{tag}-{i}",
            "content": f"第 {i} 条导入的记忆：用户喜欢 item{i}",
            "tags": ["导入", tag],
            "group": f"组{i % 17}",
            "createdAt": 1700000000000 + i,
        }
        for i in range(n)
    ]
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
    subprocess.run(
        [sys.executable, "-c", CHILD["import"], str(scratch), str(timing_file)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    full = time.perf_counter() - started
    outcomes = {"absent": 0, "complete": 0, "broken": 0}
    details = []
    for k in range(kills):
        tag = f"run{k}"
        source = work / f"{tag}.json"
        make_import_file(source, n, tag)
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD["import"], str(db), str(source)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
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
    return {
        "scenario": "import",
        "kills": kills,
        "memories": n,
        "full_import_s": round(full, 2),
        "outcomes": outcomes,
        "ok": outcomes["broken"] == 0,
        "runs": details,
    }


# ---- shared by the maintenance and merge scenarios ----------------------------------
def _copy_db(template: Path, target: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(template, target)
    return target


def _timed_child(script: str, args: list[str]) -> float:
    """Seconds from the child's 'go' to its exit: the span the kills are spread over."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True
    )
    proc.stdout.readline()
    started = time.perf_counter()
    _, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"the uninterrupted run failed:\n{err}")
    return time.perf_counter() - started


def _kill_child(script: str, args: list[str], delay: float, anchor: str = "go") -> bool:
    """Start the child, kill -9 it ``delay`` s after it prints ``anchor``; True if it finished first."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True
    )
    while (line := proc.stdout.readline()) and line.strip() != anchor:
        pass
    time.sleep(delay)
    finished = proc.poll() is not None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return finished


def _texts(rng: random.Random, n: int) -> list[str]:
    """Distinct texts that share few bigrams, so only the planted pairs look alike."""
    starts = [
        "用户喜欢",
        "下周三和小王去上海签合同，",
        "记得提醒用户",
        "用户的密码提示是",
        "User prefers ",
        "项目截止日期是",
    ]
    return [
        rng.choice(starts) + "".join(chr(0x4E00 + rng.randrange(6000)) for _ in range(14)) + f" {i}" for i in range(n)
    ]


def _alike(text: str) -> str:
    """One character changed: a near-duplicate (bigram Jaccard ~0.8)."""
    cut = len(text) // 2
    return text[:cut] + ("甲" if text[cut] != "甲" else "乙") + text[cut + 1 :]


def _live_ids(db: Path) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        return {r[0] for r in conn.execute("SELECT id FROM memory WHERE deleted_at IS NULL AND superseded_by IS NULL")}
    finally:
        conn.close()


# ---- maintenance ---------------------------------------------------------------------
MAINTENANCE_TASKS = ("expire", "purge_trash", "heat", "importance", "duplicates", "consolidate", "optimize")
SNAPSHOT_TABLES = ("memory", "memory_tag", "revision", "memory_vector", "persona", "setting", "change_log")


def _maintenance_store(db: Path, n: int, now: datetime, rng: random.Random) -> dict:
    """~n memories with work for every task; returns how many of each kind."""
    kinds = {
        "expired": n * 15 // 100,
        "old_trash": n * 15 // 100,
        "stale_heat": n * 30 // 100,
        "exact_pairs": n * 3 // 100,
        "near_pairs": n * 2 // 100,
    }
    plain = n - sum(kinds.values()) - kinds["exact_pairs"] - kinds["near_pairs"]
    texts = iter(_texts(rng, n))
    items = [
        {"id": f"exp-{i}", "content": next(texts), "scope": "short_term", "expires_at": now - timedelta(hours=1)}
        for i in range(kinds["expired"])
    ]
    items += [
        {"id": f"bin-{i}", "content": next(texts), "deleted_at": now - timedelta(days=40)}
        for i in range(kinds["old_trash"])
    ]
    items += [
        {
            "id": f"old-{i}",
            "content": next(texts),
            "created_at": now - timedelta(days=100),
            "heat": 100.0,
            "tier": "hot",
        }
        for i in range(kinds["stale_heat"])
    ]
    for i in range(kinds["exact_pairs"]):
        text = next(texts)
        items += [{"id": f"dup-{i}-a", "content": text}, {"id": f"dup-{i}-b", "content": text}]
    for i in range(kinds["near_pairs"]):
        text = next(texts)
        items += [{"id": f"near-{i}-a", "content": text}, {"id": f"near-{i}-b", "content": _alike(text)}]
    items += [{"id": f"plain-{i}", "content": next(texts)} for i in range(plain)]  # automatic importance
    store = Store.open(db)
    store.add_many(items)
    store.close()
    return dict(kinds, plain=plain, total=len(items))


def _snapshot(db: Path) -> dict:
    """A digest per table of what maintenance may write (the run reports aside: they hold clock times)."""
    conn = sqlite3.connect(db)
    try:
        digests = {}
        for table in SNAPSHOT_TABLES:
            where = " WHERE key != 'maintenance.last_reports'" if table == "setting" else ""
            rows = conn.execute(f'SELECT * FROM "{table}"{where} ORDER BY 1, 2').fetchall()
            digests[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
        return digests
    finally:
        conn.close()


def _has_report(db: Path) -> bool:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT COUNT(*) FROM setting WHERE key = 'maintenance.last_reports'").fetchone()[0] > 0
    finally:
        conn.close()


def _states_after_each_task(template: Path, work: Path, now: datetime) -> tuple[list[dict], dict]:
    """Snapshots before and after each task (one task per run, same clock), and what each did."""
    from memdesk.core.maintenance import run_maintenance  # local: pulls in jieba and friends

    db = _copy_db(template, work / "steps.db")
    states, did = [_snapshot(db)], {}
    for name in MAINTENANCE_TASKS:
        store = Store.open(db)
        task = run_maintenance(store, [name], now=now, save=False).task(name)
        store.close()
        if task.status != "done":
            raise SystemExit(f"maintenance task {name} did not finish: {task.message}")
        did[name] = {k: v for k, v in task.counts.items()}
        states.append(_snapshot(db))
    return states, did


def _task_windows(db: Path, full: float) -> list[tuple[str, str, float]]:
    """(task aimed at, task whose start anchors the kill, seconds) from the uninterrupted run's report.

    Importance scoring takes most of a run, and a shared machine's speed varies
    by a quarter from run to run: kills spread over the whole run by the clock
    would seldom land in the short tasks. So each kill aims at one task in
    turn, at a random moment within that task's measured length after the
    child announces it; 'save_report' is the end of the run after 'optimize' starts.
    """
    from memdesk.core.maintenance import last_reports

    store = Store.open(db)
    tasks = last_reports(store)[0]["tasks"]
    store.close()
    windows = [(t["name"], t["name"], t["seconds"]) for t in tasks]
    last = tasks[-1]["name"]
    return windows + [("save_report", last, max(full - sum(t["seconds"] for t in tasks[:-1]), 0.0))]


def _tasks_done(found: dict, states: list[dict]) -> list[int]:
    """How many tasks' writes the file holds: every prefix length whose state it equals."""
    return [j for j, state in enumerate(states) if state == found]


def run_maintenance_scenario(kills: int, n: int, seed: int) -> dict:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="memdesk-crash-"))
    now = now_utc().replace(microsecond=0)
    template = work / "template.db"
    planted = _maintenance_store(template, n, now, rng)
    live_before = _live_ids(template)
    states, did = _states_after_each_task(template, work, now)
    expired = live_before - _live_ids(work / "steps.db")  # what a finished expiry may move to the trash
    args = lambda db: [str(db), now.isoformat(), ",".join(MAINTENANCE_TASKS)]  # noqa: E731
    full = _timed_child(CHILD["maintenance"], args(_copy_db(template, work / "timing.db")))
    windows = _task_windows(work / "timing.db", full)
    outcomes = {"absent": 0, "complete": 0, "whole_tasks": 0, "broken": 0}
    details = []
    for k in range(kills):
        db = _copy_db(template, work / "crash.db")
        aimed, anchor, length = windows[k % len(windows)]
        delay = rng.uniform(0, length)
        finished = _kill_child(CHILD["maintenance"], args(db), delay, anchor=f"task {anchor}")
        integrity = check_integrity(db)
        done = _tasks_done(_snapshot(db), states) if integrity == "ok" else []
        still = _live_ids(db) if integrity == "ok" else set()
        lost = sorted(live_before - still - (expired if done and max(done) >= 1 else set()))
        report = integrity == "ok" and _has_report(db)
        state = _maintenance_state(integrity, done, lost, report)
        outcomes[state] += 1
        details.append(
            {
                "kill_after_s": round(delay, 3),
                "aimed_at": aimed,
                "integrity": integrity,
                "finished_first": finished,
                "tasks_done": max(done) if done else None,
                "report_saved": report,
                "lost": lost[:5],
                "state": state,
            }
        )
    shutil.rmtree(work, ignore_errors=True)
    return {
        "scenario": "maintenance",
        "kills": kills,
        "memories": planted["total"],
        "planted": planted,
        "tasks": list(MAINTENANCE_TASKS),
        "task_counts": did,
        "full_run_s": round(full, 2),
        "windows": [(name, round(length, 3)) for name, _, length in windows],
        "outcomes": outcomes,
        "ok": outcomes["broken"] == 0,
        "runs": details,
    }


def _maintenance_state(integrity: str, done: list[int], lost: list[str], report: bool) -> str:
    if integrity != "ok" or not done or lost:
        return "broken"
    last = max(done)
    if report:  # the report is saved after the last task: all of the run must be there
        return "complete" if last == len(MAINTENANCE_TASKS) else "broken"
    return "absent" if last == 0 else "whole_tasks"


# ---- merge ---------------------------------------------------------------------------
def _merge_store(db: Path, n: int, pairs: int, rng: random.Random) -> list[dict]:
    """n memories, ``pairs`` of them near-duplicate pairs; returns the open proposals (as stored)."""
    from memdesk.core.maintenance import run_maintenance  # local: pulls in jieba and friends

    texts = _texts(rng, n - pairs)
    items = [{"id": f"m-{i}", "content": t, "tags": [f"t{i % 7}"], "access_count": i % 5} for i, t in enumerate(texts)]
    items += [
        {"id": f"m-{i}-twin", "content": _alike(texts[i]), "tags": ["twin"], "mention_count": 1} for i in range(pairs)
    ]
    store = Store.open(db)
    store.add_many(items)
    run_maintenance(store, ["consolidate"], save=False)
    raw = store.setting(PROPOSALS_KEY, [])
    store.close()
    return raw


def _merge_state(conn, proposal: dict, open_ids: set[str]) -> str:
    """'complete', 'absent' or 'broken' for one proposal in the file after the kill."""
    ids = proposal["memory_ids"]
    marks = ",".join("?" * len(ids))
    rows = {
        r[0]: r[1:] for r in conn.execute(f"SELECT id, superseded_by, version FROM memory WHERE id IN ({marks})", ids)
    }
    if len(rows) != len(ids):
        return "broken"  # an original vanished
    merged = {by for by, _ in rows.values()}
    bumped = all(rows[m][1] == proposal["versions"][m] + 1 for m in ids)
    if merged == {None}:
        untouched = all(rows[m][1] == proposal["versions"][m] for m in ids)
        revisions = conn.execute(f"SELECT COUNT(*) FROM revision WHERE memory_id IN ({marks})", ids).fetchone()[0]
        return "absent" if untouched and revisions == 0 and proposal["id"] in open_ids else "broken"
    if len(merged) != 1 or None in merged or not bumped or proposal["id"] in open_ids:
        return "broken"
    (merged_id,) = merged
    target = conn.execute("SELECT content, deleted_at, superseded_by FROM memory WHERE id = ?", (merged_id,)).fetchone()
    revisions = conn.execute(
        f"SELECT COUNT(*) FROM revision WHERE reason = 'merge' AND memory_id IN ({marks}) AND after LIKE ?",
        [*ids, f"%{merged_id}%"],
    ).fetchone()[0]
    whole = target is not None and target == (proposal["suggested_content"], None, None) and revisions == len(ids)
    return "complete" if whole else "broken"


def _check_merges(db: Path, raw: list[dict], before_total: int) -> dict:
    conn = sqlite3.connect(db)
    try:
        (value,) = conn.execute("SELECT value FROM setting WHERE key = ?", (PROPOSALS_KEY,)).fetchone()
        open_ids = {p["id"] for p in json.loads(value)}
        counts = {"absent": 0, "complete": 0, "broken": 0}
        for proposal in raw:
            counts[_merge_state(conn, proposal, open_ids)] += 1
        total = conn.execute("SELECT COUNT(*) FROM memory").fetchone()[0]
    finally:
        conn.close()
    if total != before_total + counts["complete"]:  # one new memory per finished merge, none lost
        counts["broken"] += 1
    return counts


def run_merge_scenario(kills: int, n: int, seed: int) -> dict:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="memdesk-crash-"))
    template = work / "template.db"
    raw = _merge_store(template, n, min(200, n // 10), rng)
    if not raw:
        raise SystemExit("consolidation proposed no merges; nothing to interrupt")
    full = _timed_child(CHILD["merge"], [str(_copy_db(template, work / "timing.db"))])
    outcomes = {"absent": 0, "some_merged": 0, "complete": 0, "broken": 0}  # per kill
    merges = {"absent": 0, "complete": 0, "broken": 0}  # per proposal, summed over the kills
    details = []
    for _kill in range(kills):
        db = _copy_db(template, work / "crash.db")
        delay = rng.uniform(0, full)
        finished = _kill_child(CHILD["merge"], [str(db)], delay)
        integrity = check_integrity(db)
        counts = _check_merges(db, raw, n) if integrity == "ok" else {"absent": 0, "complete": 0, "broken": 1}
        for key, value in counts.items():
            merges[key] += value
        state = (
            "broken"
            if integrity != "ok" or counts["broken"]
            else "complete"
            if counts["absent"] == 0
            else "absent"
            if counts["complete"] == 0
            else "some_merged"
        )
        outcomes[state] += 1
        details.append(
            {
                "kill_after_s": round(delay, 3),
                "integrity": integrity,
                "finished_first": finished,
                "merges": counts,
                "state": state,
            }
        )
    shutil.rmtree(work, ignore_errors=True)
    return {
        "scenario": "merge",
        "kills": kills,
        "memories": n,
        "proposals": len(raw),
        "full_run_s": round(full, 2),
        "outcomes": outcomes,
        "merges": merges,
        "ok": outcomes["broken"] == 0,
        "runs": details,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--memories", type=int, default=10000)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="import")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = SCENARIOS[args.scenario](args.kills, args.memories, args.seed)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        _print_summary(result)
    return 0 if result["ok"] else 1


def _print_summary(result: dict) -> None:
    name, out = result["scenario"], result["outcomes"]
    if name == "import":
        print(
            f"import: {result['kills']} kills during a {result['memories']}-memory import "
            f"(full import {result['full_import_s']} s)"
        )
        print(f"  wholly absent: {out['absent']}, wholly there: {out['complete']}, broken: {out['broken']}")
    elif name == "maintenance":
        print(
            f"maintenance: {result['kills']} kills during a full run on {result['memories']} memories "
            f"(uninterrupted run {result['full_run_s']} s; tasks {', '.join(result['tasks'])})"
        )
        print(f"  work planted: {result['task_counts']}")
        print(
            f"  nothing done: {out['absent']}, whole run: {out['complete']}, "
            f"a whole number of tasks: {out['whole_tasks']}, broken: {out['broken']}"
        )
        print(
            "  kill aimed at → tasks kept: " + ", ".join(f"{r['aimed_at']}→{r['tasks_done']}" for r in result["runs"])
        )
    else:
        merges = result["merges"]
        print(
            f"merge: {result['kills']} kills while merging {result['proposals']} proposals one by one "
            f"in a {result['memories']}-memory store (uninterrupted {result['full_run_s']} s)"
        )
        print(f"  kills: {out}")
        print(
            f"  proposals after the kills: wholly merged {merges['complete']}, wholly absent {merges['absent']}, "
            f"half-written {merges['broken']}"
        )
    print("  integrity_check ok and nothing half-written after every kill" if result["ok"] else "  FAILED")


SCENARIOS = {"import": run_import_scenario, "maintenance": run_maintenance_scenario, "merge": run_merge_scenario}

if __name__ == "__main__":
    sys.exit(main())
