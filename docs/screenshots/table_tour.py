"""The memory table at 3,000 real Chinese memories, at 1280×800 and 800×600, zh and en.

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python docs/screenshots/table_tour.py [zh_CN|en]

The store: 2,434 memories of MemDaily (../shared/bench/memdaily.jsonl, every third
trajectory) and the 566 Chinese chat lines of MemoryBank (distractors-zh.jsonl), with
groups by the kind of trajectory and a few tags by the words they contain. Screens:
table (every memory, titles in pinyin order) and table-search (规模: more than 100 hits,
the count of all of them, tag and group matches marked). Writes tour/table-*.png (zh)
and tour/en/table-*.png (en, not committed).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]
BENCH = ROOT.parent / "shared" / "bench"
COUNT = 3000
GROUPS = {"events": "工作/活动", "roles": "人际/人物", "items": "生活/物品", "places": "出行/地点", "hybrid": "生活"}
QUERY = "规模"  # 100+ hits in this store
TAGS = ("北京", "上海", "论坛", "会议", "朋友", "家人", "医院", "旅行", "招聘")


def items() -> list[dict]:
    chat = json.loads((BENCH / "distractors-zh.jsonl").read_text(encoding="utf-8").splitlines()[0])["memories"]
    out = [_item(m, "聊天") for m in chat]
    with (BENCH / "memdaily.jsonl").open(encoding="utf-8") as lines:
        for n, line in enumerate(lines):
            if n % 3:
                continue
            store = json.loads(line)
            group = GROUPS[store["store"].rsplit("-", 1)[0].rsplit("_", 1)[-1]]
            out += [_item(m, group) for m in store["memories"]]
            if len(out) >= COUNT:
                break
    return out[:COUNT]


def _item(memory: dict, group: str) -> dict:
    content = memory["content"]
    return {
        "content": content,
        "group": group,
        "tags": [t for t in TAGS if t in content][:2],
        "created_at": memory.get("created_at"),
        "importance": 3 + len(content) % 6,
    }


def shoot(language: str) -> None:
    from PySide6.QtCore import QSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )
    from scenes import wait
    from tour import SIZES, save

    from memdesk.core.store import Store
    from memdesk.gui.main import App, application

    application()
    path = Path(tempfile.mkdtemp()) / "memdesk.db"
    store = Store.open(path)
    store.add_many(items(), source="import:memdaily")
    store.close()
    app = App(maintenance_delay_ms=10**9)
    app.open(path)
    window = app.window
    window.show()
    browser = window.browser
    wait(lambda: browser.backend.engine_ready and not browser.tree.building and not app.session.taskman.tasks())
    out = HERE / "tour" if language == "zh_CN" else HERE / "tour" / "en"
    out.mkdir(parents=True, exist_ok=True)
    browser.table.sort_by("title")

    def shot(name: str) -> None:
        window.grab()  # a first paint asks for the snippets on screen; they are read on a worker
        wait(lambda: not app.session.taskman.tasks())
        save(window.grab().toImage(), out / name)

    for width, height in SIZES:
        window.resize(width, height)
        browser.search("")
        browser.table.view.setCurrentIndex(browser.table.model.index(3, 0))
        shot(f"table-{width}x{height}.png")
        window.search_bar.set_text(QUERY)
        wait(lambda: browser.table.model.searching and not app.session.taskman.tasks())
        browser.table.view.setCurrentIndex(browser.table.model.index(0, 0))
        shot(f"table-search-{width}x{height}.png")
        window.search_bar.set_text("")
    app.shutdown()


def main() -> int:
    languages = sys.argv[1:] or ["zh_CN", "en"]
    if len(languages) > 1:
        for language in languages:
            subprocess.run([sys.executable, __file__, language], check=True)
        return 0
    shoot(languages[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
