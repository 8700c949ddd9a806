"""core.stats.overview: the figures of `memdesk stats` and the statistics view.

Every bar carries the search text that lists its memories; the search engine
run on that text must find exactly the bar's count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

from memdesk.core.domain.times import now_utc
from memdesk.core.search import SearchEngine
from memdesk.core.views.stats import comparable, overview, week_start


def fill(store):
    now = now_utc()
    pid, _ = store.create_persona(name="工作 助手")  # a space: the query must quote it
    store.create_persona(name="空角色")
    items = []
    for i in range(60):
        items.append(
            dict(
                content=f"记忆内容 {i}",
                title=f"标题 {i}",
                group=["", "工作", "工作/项目", "生活", "学习/英语"][i % 5],
                tags=[["咖啡"], ["咖啡", "茶"], [], ["work"]][i % 4],
                type=["fact", "note", "task", "preference"][i % 4],
                scope="short_term" if i % 7 == 0 else "long_term",
                persona_id=pid if i % 3 == 0 else None,
                source=["manual", "ai", "import:mem0"][i % 3],
                created_at=(now - timedelta(days=i * 9)).isoformat(),
                heat=float((i * 17) % 101),
                tier=["hot", "warm", "cold", "archive"][i % 4],
            )
        )
    ids = store.add_many(items).added
    store.delete(ids[:4])
    store.update(ids[5], expected_version=None, expires_at=(now - timedelta(days=1)).isoformat())
    store.supersede(ids[6], content="新的版本")
    return ids


def test_overview_counts_and_queries_agree_with_search(store):
    fill(store)
    now = now_utc()
    stats = overview(store, now=now)
    legacy = store.stats(now=now)  # the figures `memdesk stats` always gave, from peewee
    assert {k: stats[k] for k in legacy} == legacy
    charts = stats["charts"]
    assert stats["trash"] == 4 and stats["expired"] == 1 and stats["superseded"] == 1
    in_use = stats["active"]
    for name in ("persona", "type", "scope", "tier"):
        assert sum(b["count"] for b in charts[name]) == in_use, name
    assert sum(charts["heat"]["counts"]) == in_use
    assert [b["label"] for b in charts["type"]][:5] == ["fact", "preference", "project", "task", "note"]
    assert {b["label"]: b["count"] for b in charts["states"]} == {"trash": 4, "expired": 1, "superseded": 1}
    groups = {b["label"]: b["count"] for b in charts["group"]}
    assert groups["工作"] == groups.get("工作/项目", 0) + sum(
        1 for r in store.list(state="active") if r.group == "工作"
    )
    assert charts["ungrouped"] == sum(1 for r in store.list(state="active") if r.group == "")
    assert charts["tag"][0]["label"] == "咖啡"
    # weekly: 52 Monday-started weeks ending with this one; memories older than that are left out
    weekly = charts["weekly"]
    assert len(weekly["weeks"]) == 52 and weekly["weeks"][-1] == week_start(now_utc()).date().isoformat()
    recent = sum(1 for r in store.list(state="active") if r.created_at >= week_start(now_utc()) - timedelta(weeks=51))
    assert sum(weekly["manual"]) + sum(weekly["ai"]) + sum(weekly["import"]) == recent < in_use
    assert sum(weekly["import"]) > 0 and sum(weekly["ai"]) > 0

    engine = SearchEngine(store)
    engine.catch_up()
    bars = [b for name in ("persona", "group", "type", "scope", "tier", "tag", "states") for b in charts[name]]
    bars += [
        {"query": q, "count": m + a + i, "label": w}
        for q, m, a, i, w in zip(weekly["queries"], weekly["manual"], weekly["ai"], weekly["import"], weekly["weeks"])
    ]
    checked = 0
    for bar in bars:
        if bar["query"] is None:
            continue
        found = engine.search(bar["query"], limit=None).total
        assert found == bar["count"], (bar["label"], bar["query"], found, bar["count"])
        checked += 1
    assert checked > 40
    assert any(b["label"] == "工作 助手" and b["query"] == 'persona:"工作 助手"' for b in charts["persona"])


def test_heat_histogram_bins(store):
    store.add_many([dict(content=f"x{i}", heat=h) for i, h in enumerate([0.0, 9.99, 10.0, 55.0, 99.0, 100.0])])
    counts = overview(store)["charts"]["heat"]["counts"]
    assert counts == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]


def test_empty_store(store):
    stats = overview(store)
    assert stats["total"] == 0 and stats["charts"]["tag"] == [] and sum(stats["charts"]["heat"]["counts"]) == 0
    assert [b["count"] for b in stats["charts"]["type"]] == [0, 0, 0, 0, 0]


def test_cli_json_is_the_same_call(store, db_path):
    fill(store)
    out = subprocess.run(
        [sys.executable, "-m", "memdesk", "stats", "--db", str(db_path), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert comparable(json.loads(out)) == comparable(overview(store))
    text = subprocess.run(
        [sys.executable, "-m", "memdesk", "stats", "--db", str(db_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert "by tag" in text and "咖啡" in text and "added in the last 52 weeks" in text
