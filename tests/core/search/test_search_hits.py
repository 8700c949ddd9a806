"""A hit's explanation is worked out when first asked (search/rank/hits.py), for the whole
result at once, and always about that hit's own memory."""

from __future__ import annotations

from memdesk.core.search import SearchEngine
from memdesk.core.search import engine as engine_module


def test_explanations_are_made_once_on_first_access_for_every_hit(store, monkeypatch):
    for text in ["早上喝咖啡", "下午喝咖啡", "咖啡豆放在冰箱"]:
        store.add(content=text)
    engine = SearchEngine(store)
    made = []
    real = engine_module.explain_hits
    monkeypatch.setattr(engine_module, "explain_hits", lambda *a: made.append(1) or real(*a))  # counts, runs it
    result = engine.search("咖啡")
    assert len(result.hits) == 3 and made == []  # an assistant's search stops here
    assert all("咖啡" in hit.explain.matched_words for hit in result.hits)
    assert made == [1]
    assert [hit.explain.position for hit in result.hits] == [1, 2, 3]


def test_an_explanation_asked_after_later_writes_is_about_its_own_memory(store):
    kept = store.add(content="周末去西湖跑步").added[0]
    gone = store.add(content="西湖边喝龙井茶").added[0]
    engine = SearchEngine(store)
    result = engine.search("西湖")
    store.delete([gone])
    store.purge([gone])
    store.add(content="完全无关的一条：买牛奶")  # may take the purged memory's place in the index
    engine.search("牛奶")  # the engine catches up with those writes
    by_id = {hit.id: hit for hit in result.hits}
    assert "西湖" in by_id[kept].explain.matched_words
    assert by_id[gone].explain.matched_words == ()  # purged: nothing left to name
