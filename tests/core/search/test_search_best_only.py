"""Only the first results ordered (search/rank/best_only.py): the same hits, scores and
explanations as ordering every match, when thousands of memories match."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.rank import best_only

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)
WORDS = ["咖啡", "绿茶", "杭州", "西湖", "跑步", "早上", "项目", "会议", "周末", "家人", "coffee", "tea", "travel"]


@pytest.fixture(scope="module")
def engine(tmp_path_factory, tokenizer):
    from memdesk.core.store import Store

    store = Store.open(tmp_path_factory.mktemp("best") / "best.db")
    store.tokenizer = tokenizer
    rng = random.Random(4)
    rows = []
    for i in range(3300):
        if i % 3:  # two thirds alike, word for word: equal keyword scores, the tie-breaks decide
            content = "周末 和 家人 喝 咖啡 tea 拿铁"
        else:
            content = " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 24)))
        created = NOW - timedelta(days=rng.randint(0, 400))
        rows.append({"content": content, "importance": rng.randint(1, 10), "created_at": created})
    store.add_many(rows)
    yield SearchEngine(store, tokenizer=tokenizer)
    store.close()


def explained(hits):
    # Without a limit the substring fallback runs too: its empty rank for these hits is left out.
    return [(h.id, h.score, replace(h.explain, ranks={k: v for k, v in h.explain.ranks.items() if v})) for h in hits]


@pytest.mark.parametrize("query", ["咖啡", "周末 家人", "tea travel", "kafei", "杭州 跑步 咖啡", "zhoumo"])
@pytest.mark.parametrize("limit", [1, 20, 150])
def test_first_results_equal_the_whole_ordering(engine, query, limit):
    taken = engine.search(query, limit=limit, now=NOW)
    assert taken.total > best_only.TOP_MIN  # the case it is for
    whole = engine.search(query, limit=None, now=NOW)  # no limit: every match ordered
    assert explained(taken.hits) == explained(whole.hits[:limit])
    ranked = [h for h in whole.hits if "substring" not in h.explain.found_by]
    assert taken.total == len(ranked)


def test_ties_beyond_the_first_candidates_are_still_weighed(engine):
    # 2,200 memories score the same for 拿铁: importance, heat and freshness order them, so
    # the first candidates taken cannot prove the order and more are taken.
    taken = engine.search("拿铁", limit=20, now=NOW)
    whole = engine.search("拿铁", limit=None, now=NOW)
    assert taken.total > best_only.TOP_MIN
    assert explained(taken.hits) == explained(whole.hits[:20])
    assert len({h.explain.keyword_score for h in taken.hits}) == 1


@pytest.mark.parametrize("query", ["咖啡", "周末 家人", "kafei"])
def test_pages_join_into_the_whole_ordering(engine, query):
    """The window's table fetches hits a page at a time (offset): together they are the
    ordering of every match, scores and places in it included."""
    whole = engine.search(query, limit=None, now=NOW)
    pages = []
    for offset in range(0, 450, 150):
        page = engine.search(query, limit=150, offset=offset, now=NOW)
        assert len(page.hits) <= page.total <= whole.total
        pages += page.hits
    assert [(h.id, h.score) for h in pages] == [(h.id, h.score) for h in whole.hits[:450]]
    assert [h.explain.position for h in pages] == list(range(1, 451))
