"""Tools → Statistics: the same figures as `memdesk stats --json`, and a click on a bar filters the browser."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

from PySide6.QtCore import Qt

from memdesk.core.domain.times import now_utc
from memdesk.core.views.stats import comparable


def fill(store):
    now = now_utc()
    pid, _ = store.create_persona(name="工作助手")
    items = [
        dict(
            content=f"记忆 {i}",
            title=f"记忆 {i}",
            group=["工作", "工作/项目", "生活", ""][i % 4],
            tags=[["咖啡"], ["茶", "咖啡"], []][i % 3],
            type=["fact", "note", "task"][i % 3],
            persona_id=pid if i % 2 else None,
            source=["manual", "ai", "import:mem0"][i % 3],
            created_at=(now - timedelta(days=i * 5)).isoformat(),
            heat=float(i * 7 % 100),
        )
        for i in range(30)
    ]
    ids = store.add_many(items).added
    store.delete(ids[:2])


def open_stats(window, qtbot):
    window.acts.statistics.trigger()
    dialog = window.statistics_dialog
    qtbot.waitUntil(lambda: dialog.stats is not None, timeout=10000)
    qtbot.waitExposed(dialog)
    return dialog


def test_numbers_equal_the_cli(launch, db_path, qtbot, store):
    fill(store)
    window = launch(db_path)
    dialog = open_stats(window, qtbot)
    out = subprocess.run(
        [sys.executable, "-m", "memdesk", "stats", "--db", str(db_path), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    cli = json.loads(out)
    assert comparable(dialog.stats) == comparable(cli)
    c = cli["charts"]
    # what is drawn is those numbers
    assert dialog.charts["type"].counts == [b["count"] for b in c["type"]]
    assert dialog.charts["tag"].counts == [b["count"] for b in c["tag"]]
    assert dialog.charts["heat"].counts == c["heat"]["counts"]
    assert dialog.charts["weekly"].counts == [
        m + a + i for m, a, i in zip(c["weekly"]["manual"], c["weekly"]["ai"], c["weekly"]["import"])
    ]
    assert dialog.state_buttons["deleted"].text() == "In the trash: 2"
    assert f"{cli['active']} memories in use" in dialog.summary.text()
    # (how long it takes at 100k: bench/stats_speed.py)
    dialog.reject()


def test_clicking_a_bar_filters_the_browser(launch, db_path, qtbot, store):
    fill(store)
    window = launch(db_path, wait_index=True)
    dialog = open_stats(window, qtbot)
    window.set_persona(store.personas()[0].id)  # the click lists every persona's memories
    chart = dialog.charts["tag"]
    index = [b["label"] for b in dialog.stats["charts"]["tag"]].index("茶")
    qtbot.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=chart.bar_centre(index))
    assert window.search_bar.text() == "tag:茶"
    expected = dialog.stats["charts"]["tag"][index]["count"]
    qtbot.waitUntil(lambda: window.browser.table.model.rowCount() == expected, timeout=10000)
    assert window.persona_combo.currentData() == "__all__"  # every persona, as the figures count

    chart = dialog.charts["type"]
    qtbot.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=chart.bar_centre(0))  # fact
    assert window.search_bar.text() == "type:fact"
    want = dialog.stats["charts"]["type"][0]["count"]
    qtbot.waitUntil(lambda: window.browser.table.model.rowCount() == want, timeout=10000)

    dialog.state_buttons["deleted"].click()
    assert window.search_bar.text() == "is:deleted"
    qtbot.waitUntil(lambda: window.browser.table.model.rowCount() == 2, timeout=10000)
    # a click beside the bars does nothing
    chart = dialog.charts["heat"]
    qtbot.mouseClick(chart.viewport(), Qt.MouseButton.LeftButton, pos=chart.bar_centre(0))
    assert window.search_bar.text() == "is:deleted"
    dialog.reject()
