"""The memory table at 100k memories: scrolling, sorting, and what the window weighs.

    python bench/browser_table.py [--count 100000] [--step-pages 1] [--step-ms 33] [--json]

The window opens (no embedding model) on bench/gui_speed.py's store, in a child process
so that its RSS is the window's own. Once the tree and the titles' pinyin keys are in:

- scroll_max_stall_ms: the longest gap between ticks of a 5 ms UI timer (ui_stall.py)
  while the table scrolls from its first row to its last, a page (PageDown) at a time, a
  page every 33 ms as a held key repeats (--step-ms 5 keeps the UI thread busy without a
  break), each page painted with its snippets read from the store as a user would see
  them; scroll_drag_max_stall_ms the same for 200 jumps of the scroll bar, one every 16 ms
  (a drag). Beside each,
  _ui_cpu_ms: the most CPU time the UI thread spent on one step (its own work, which a
  stall on a loaded machine exceeds by the time it waited to run; load_average says how
  loaded the machine was). idle_max_stall_ms: the same timer for 30 s before the scroll,
  with the window doing nothing: the stalls the machine itself makes.
- window_rss_mb / window_peak_rss_mb: the window's resident memory after the scroll, and
  its peak since start.
- sort_ms: per column, the longest of an ascending and a descending sort of every row,
  each from a shuffled order (Qt's sort call: keys, argsort, the view's relayout), the
  content column's keys already in; content_keys_s: the content column's first sort,
  from the click to its keys in (every content start read and keyed on the work lane).
- search_sort: per query matching ~50k of the 100k memories, shown in rank order (the
  first page), then sorted by a column as a header click does: all_rows_ms from the
  click to every match's row in, sorted (the search lane: ids, their rows; the UI
  thread: add_matches); add_matches_ms its UI-thread part; max_stall_ms the longest UI
  stall meanwhile; then resort_ms per column: sorting all those rows again, by title,
  content, group and heat (Qt's sort call, as sort_ms).
- title_keys_s: the titles' pinyin keys worked out once (the work lane does it at load);
  qcollator_keys_s: the same titles' ICU keys (QCollator.sortKey, zh_CN), for the choice
  in core/search/language/collation.py.
- search_total / search_page_ms: a search's count of every match and the time of the
  next page of 200 hits, as the table fetches it at its end.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui_speed import database, idle, wait  # noqa: E402  (bench/ is on sys.path)
from ui_stall import StallMeter  # noqa: E402

IDLE_MS = 30_000
SEARCHES = ("咖啡 OR 跑步 OR 猫", "group:工作 OR group:健康")  # 57k and 50k of bench/gui_speed.py's 100k
DRAG_MS = 16  # a dragged scroll bar moves at the screen's rate


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class _Meter(StallMeter):
    """A StallMeter that also says, for its longest stall, how much CPU the UI thread and the
    whole process had in it: little of both is a thread that waited to run."""

    def __init__(self) -> None:
        super().__init__()
        self.worst: tuple = ()
        self._cpu = (time.thread_time(), time.process_time())

    def _tick(self) -> None:
        before = self.longest_ms
        super()._tick()
        cpu = (time.thread_time(), time.process_time())
        if self.longest_ms > before:
            self.worst = tuple(round((now - then) * 1000, 1) for now, then in zip(cpu, self._cpu))
        self._cpu = cpu


def scroll(qt_app, view, jumps: int | None, step_pages: int, step_ms: int) -> tuple:
    """(the longest UI stall, the most CPU the UI thread spent between two steps, the UI
    thread's and the process's CPU in that longest stall) while the view scrolls to its
    last row. The CPU tells the UI's own work from waiting to run on a loaded machine."""
    from PySide6.QtCore import QTimer

    bar = view.verticalScrollBar()
    bar.setValue(0)
    idle(qt_app, 200)
    step = max(1, bar.maximum() // jumps) if jumps else bar.pageStep() * step_pages
    meter = _Meter()
    timer = QTimer()
    timer.setInterval(step_ms)
    cpu = [time.thread_time(), 0.0]

    def advance() -> None:
        now = time.thread_time()
        cpu[1], cpu[0] = max(cpu[1], now - cpu[0]), now
        bar.setValue(min(bar.maximum(), bar.value() + step))

    timer.timeout.connect(advance)
    meter.start()
    timer.start()
    wait(qt_app, lambda: bar.value() >= bar.maximum(), 1800)
    timer.stop()
    idle(qt_app, 100)  # the last page painted
    return meter.stop(), cpu[1] * 1000, meter.worst


def sort_times(qt_app, pane) -> dict:
    import numpy as np
    from PySide6.QtCore import Qt

    from memdesk.gui.browser.table_model import COLUMNS, UNSORTABLE

    out = {}
    shuffled = np.random.default_rng(1)
    for column, name in enumerate(COLUMNS):
        if name in UNSORTABLE:
            continue
        worst = 0.0
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            pane.model.rows = shuffled.permutation(pane.model.rows)  # from no order in particular
            started = time.perf_counter()
            pane.model.sort(column, order)
            worst = max(worst, (time.perf_counter() - started) * 1000)
            idle(qt_app, 50)
        out[name] = round(worst, 1)
    return out


def content_keys_s(qt_app, pane) -> float:
    """The content column's first sort: from the click to its keys in (work lane)."""
    from memdesk.gui.browser.table_model import COLUMNS

    started = time.perf_counter()
    pane.model.sort(COLUMNS.index("snippet"))
    wait(qt_app, lambda: pane.model.keys.contents.ready, 600)
    return round(time.perf_counter() - started, 2)


def search_sort(qt_app, window, query: str) -> dict:
    """A search of ~50k matches sorted by a column (updated), then by others (see the docstring)."""
    from PySide6.QtCore import Qt

    from memdesk.gui.browser.table_model import COLUMNS

    table = window.browser.table
    model = table.model
    window.search_bar.set_text(query)
    wait(qt_app, lambda: model.outcome is not None and model.outcome.query == query, 600)
    idle(qt_app, 300)
    shown, total = model.rowCount(), model.total
    spent = []
    add = model.add_matches

    def timed(*args) -> None:
        started = time.perf_counter()
        add(*args)
        spent.append((time.perf_counter() - started) * 1000)

    model.add_matches = timed
    meter = StallMeter()
    meter.start()
    started = time.perf_counter()
    table.sort_by("updated")
    wait(qt_app, lambda: model.complete and not model.fetching, 600)
    all_rows = (time.perf_counter() - started) * 1000
    stall = meter.stop()
    model.add_matches = add
    rows = model.rowCount()
    resort = {}
    for name in ("title", "snippet", "group", "heat"):
        started = time.perf_counter()
        model.sort(COLUMNS.index(name), Qt.SortOrder.DescendingOrder)
        resort[name] = round((time.perf_counter() - started) * 1000, 1)
        idle(qt_app, 50)
    window.search_bar.set_text("")
    idle(qt_app, 300)
    return {
        "query": query,
        "first_page_rows": shown,
        "matches": total,
        "rows_after_sort": rows,
        "all_rows_ms": round(all_rows, 1),
        "add_matches_ms": round(sum(spent), 1),
        "max_stall_ms": round(stall, 1),
        "resort_ms": resort,
    }


def key_times(table) -> dict:
    from PySide6.QtCore import QCollator, QLocale

    from memdesk.gui.browser.table_keys import title_ranks

    started = time.perf_counter()
    title_ranks(table)
    ours = time.perf_counter() - started
    titles = [table.title(row) for row in range(table.size())]
    collator = QCollator(QLocale("zh_CN"))
    started = time.perf_counter()
    keys = [collator.sortKey(t) for t in titles]
    sorted(range(len(keys)), key=keys.__getitem__)
    return {"title_keys_s": round(ours, 2), "qcollator_keys_s": round(time.perf_counter() - started, 2)}


def child(db: str, step_pages: int, step_ms: int) -> None:
    from PySide6.QtCore import QSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from memdesk.gui.browser.search_backend import PAGE, SearchBackend
    from memdesk.gui.main import App, application

    SearchBackend.embedder_factory = staticmethod(lambda: (None, "no model in this bench"))
    qt_app = application()
    app = App(maintenance_delay_ms=10**9)
    app.open(db)
    window = app.window
    window.resize(1280, 800)
    browser, pane = window.browser, window.browser.table
    wait(qt_app, lambda: not browser.tree.building and pane.model.rowCount() > 0, 600)
    wait(qt_app, lambda: pane.model.keys.titles.ready and not app.session.taskman.tasks(), 600)
    figures: dict = {"rows": pane.model.rowCount()}
    meter = StallMeter()  # the control: the same window doing nothing, for as long as a scroll takes
    meter.start()
    idle(qt_app, IDLE_MS)
    figures["idle_max_stall_ms"] = round(meter.stop(), 1)
    for name, jumps, every in (("scroll", None, step_ms), ("scroll_drag", 200, DRAG_MS)):
        stall, cpu, worst = scroll(qt_app, pane.view, jumps, step_pages, every)
        figures[f"{name}_max_stall_ms"], figures[f"{name}_max_ui_cpu_ms"] = round(stall, 1), round(cpu, 1)
        figures[f"{name}_worst_stall_cpu_ms"] = worst  # [UI thread, process]
    figures["load_average"] = round(os.getloadavg()[0], 1)
    figures["window_rss_mb"] = round(rss_mb(), 1)
    figures["window_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    figures["content_keys_s"] = content_keys_s(qt_app, pane)
    figures["sort_ms"] = sort_times(qt_app, pane)
    figures["sort_max_ms"] = max(figures["sort_ms"].values())
    outcome = browser.backend.search("咖啡", persona=browser.persona)
    started = time.perf_counter()
    browser.backend.search("咖啡", persona=browser.persona, limit=PAGE, offset=len(outcome.hits))
    figures["search_total"] = outcome.total
    figures["search_page_ms"] = round((time.perf_counter() - started) * 1000, 1)
    figures["search_sort"] = [search_sort(qt_app, window, query) for query in SEARCHES]
    figures.update(key_times(pane.model.table))
    print(json.dumps(figures), flush=True)
    os._exit(0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--step-pages", type=int, default=1)
    parser.add_argument(
        "--step-ms", type=int, default=33, help="between pages: a held PageDown repeats ~30 times a second"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("DB", "PAGES", "MS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return 0
    db = database(args.count)
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(db), str(args.step_pages), str(args.step_ms)],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=str(ROOT),
    )
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("{")), None)
    if line is None:
        raise RuntimeError(f"the window's child failed: {out.stderr[-3000:]}")
    figures = {"memories": args.count, **json.loads(line)}
    print(json.dumps(figures, indent=None if args.json else 2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
