"""The engine over a real Store: scope, hidden states, fallback, fusion, explain, updates."""

from datetime import timedelta

import numpy as np
import pytest

from memdesk.core.domain.changes import Changes
from memdesk.core.domain.times import now_utc
from memdesk.core.search import FUSION_ONLY, NO_EMBEDDER, SEED_004, HashingEmbedder, SearchEngine, SearchWeights
from memdesk.core.search.query.query import QuerySyntaxError
from memdesk.core.search.rank.fusion import rrf


@pytest.fixture
def filled(store, tokenizer):
    work, _ = store.create_persona(name="工作助手")
    life, _ = store.create_persona(name="生活助手")
    ids = {
        "coffee": store.add(
            content="用户下午后不喝含咖啡因的饮品", title="不喝咖啡因", tags=("习惯", "健康"), group="偏好/饮食"
        ).added[0],
        "trading": store.add(
            content="在做量化交易系统，用 Python 和 PostgreSQL", persona_id=work, importance=8, group="工作"
        ).added[0],
        "cats": store.add(content="家里有三只猫，都喜欢喝水", persona_id=life, tags=("宠物",)).added[0],
        "ticket": store.add(content="Bug ticket ABC-1234 about the export dialog", persona_id=work).added[0],
        "support": store.add(
            content="Caroline went to an LGBTQ support group yesterday", created_at=now_utc() - timedelta(days=400)
        ).added[0],
    }
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    return engine, store, work, life, ids


def test_keyword_search_finds_mixed_language(filled):
    engine, _, _, _, ids = filled
    assert engine.search("咖啡因").ids[0] == ids["coffee"]
    assert engine.search("postgresql python").ids[0] == ids["trading"]
    assert engine.search("supporting groups").ids == [ids["support"]]  # stemmed
    assert engine.search("tag:健康").ids == [ids["coffee"]]
    assert engine.search("group:偏好").ids == [ids["coffee"]]  # a group covers its sub-groups


def test_empty_query_lists_everything_in_scope(filled):
    engine, _, work, _, ids = filled
    assert set(engine.search("").ids) == set(ids.values())
    assert set(engine.search("", persona=work).ids) == {ids["coffee"], ids["trading"], ids["ticket"], ids["support"]}
    assert set(engine.search("", persona="").ids) == {ids["coffee"], ids["support"]}
    assert engine.search("", limit=2).total == 5 and len(engine.search("", limit=2).hits) == 2


def test_persona_scope_and_filter(filled):
    engine, _, work, life, ids = filled
    assert engine.search("猫", persona=work).ids == []
    assert engine.search("猫", persona=life).ids == [ids["cats"]]
    assert set(engine.search("persona:工作助手").ids) == {ids["trading"], ids["ticket"]}
    assert set(engine.search("persona:global").ids) == {ids["coffee"], ids["support"]}
    assert engine.search("persona:nobody").ids == []


def test_hidden_states_only_on_request(filled):
    engine, store, _, _, ids = filled
    engine.apply(store.delete([ids["cats"]]))
    added = store.add(content="家里有四只猫")
    new_id = added.added[0]
    engine.apply(added | store.supersede(ids["coffee"], new_id=new_id))
    expiring = store.add(content="明天猫要打疫苗", expires_at=now_utc() - timedelta(hours=1))
    engine.apply(expiring)
    assert engine.search("猫").ids == [new_id]
    assert engine.search("is:deleted").ids == [ids["cats"]]
    assert engine.search("猫 is:expired").ids == [expiring.added[0]]
    assert engine.search("is:superseded").ids == [ids["coffee"]]
    assert set(engine.search("猫 -is:deleted is:expired OR is:active").ids) >= {new_id}


def test_substring_fallback_follows_ranked_hits(filled, tokenizer):
    engine, store, _, _, ids = filled
    extra = store.add(content="the exporter handles ABC-12 style ids").added[0]
    engine.apply(Changes(added=(extra,)))
    # "abc-12" is a word fragment of ABC-1234: only the substring ranking holds it.
    result = engine.search("ABC-12")
    assert result.ids[:2] == [extra, ids["ticket"]] or set(result.ids) == {extra, ids["ticket"]}
    ticket = next(h for h in result.hits if h.id == ids["ticket"])
    assert ticket.explain.found_by in (("keyword",), ("substring",))
    # A fragment BM25 cannot see at all:
    fragment = engine.search("xport")
    assert set(fragment.ids) == {ids["ticket"], extra}
    assert all(h.explain.found_by == ("substring",) for h in fragment.hits)
    # Ranked hits come first even when a substring-only memory scores higher on metadata.
    engine.apply(store.update(extra, expected_version=None, importance=10))
    mixed = engine.search("exporter dialog")
    assert mixed.hits[0].explain.ranks["keyword"] is not None


def test_incremental_updates(filled):
    engine, store, _, _, ids = filled
    assert engine.search("蓝莓").ids == []
    added = store.add(content="最喜欢的水果是蓝莓")
    engine.apply(added)
    assert engine.search("蓝莓").ids == [added.added[0]]
    engine.apply(store.update(added.added[0], expected_version=None, content="最喜欢的水果是草莓"))
    assert engine.search("蓝莓").ids == [] and engine.search("草莓").ids == [added.added[0]]
    engine.apply(store.delete([added.added[0]]) | store.purge([added.added[0]]))
    assert engine.search("草莓").ids == []
    # The same index a full rebuild gives:
    rebuilt = SearchEngine(store, tokenizer=engine.tokenizer)
    rebuilt.build()
    for query in ("猫", "咖啡 健康", "python", ""):
        assert engine.search(query).ids == rebuilt.search(query).ids


def test_new_vocabulary_recuts_old_memories(filled):
    engine, store, _, _, _ = filled
    old = store.add(content="周末去参加星火读书会的活动").added[0]
    engine.apply(Changes(added=(old,)))
    assert "星火读书会" not in engine.search("星火读书会").hits[0].explain.matched_words
    engine.apply(store.add(content="读书会改到周日", tags=("星火读书会",)))
    hit = next(h for h in engine.search("星火读书会").hits if h.id == old)
    assert "星火读书会" in hit.explain.matched_words


def test_explain_hits(filled):
    engine, _, _, _, ids = filled
    hit = engine.search("咖啡因 饮品").hits[0]
    e = hit.explain
    assert hit.id == ids["coffee"] and e.position == 1
    assert "咖啡因" in e.matched_words and e.bm25 > 0 and e.keyword_score >= e.bm25
    assert e.ranks["keyword"] == 1 and e.vector_similarity is None
    assert 0 < e.fusion <= 1 and e.final == pytest.approx(hit.score)
    w = engine.weights
    expected = w.fusion * e.fusion + w.importance * e.importance + w.heat * e.heat + w.freshness * e.freshness
    assert e.final == pytest.approx(expected)
    assert "咖啡因" in e.describe()


def test_explain_missing(filled):
    engine, store, work, _, ids = filled
    assert engine.explain_missing("猫", ids["cats"], persona=work).reason == "scope"
    assert engine.explain_missing("猫", "no-such-id").reason == "unknown"
    assert engine.explain_missing("猫 tag:x", ids["cats"]).filter == "tag:x"
    assert engine.explain_missing("python", ids["cats"]).reason == "no_match"
    assert engine.explain_missing("猫", ids["cats"]).reason == "returned"
    engine.apply(store.add(content="猫粮买了两袋"))
    miss = engine.explain_missing("猫", ids["cats"], limit=1)
    assert miss.reason in ("below_limit", "returned") and miss.ranks["keyword"] in (1, 2)
    engine.apply(store.delete([ids["cats"]]))
    hidden = engine.explain_missing("猫", ids["cats"])
    assert hidden.reason == "hidden" and "is:deleted" in hidden.message


def test_record_access_updates_heat(filled):
    engine, store, _, _, ids = filled
    before = store.get(ids["support"]).access_count
    engine.search("support group")  # the GUI search bar: no access recorded
    assert store.get(ids["support"]).access_count == before
    result = engine.search("support group", record_access=True)
    assert store.get(ids["support"]).access_count == before + 1
    assert ids["support"] in result.changes.updated
    assert engine.search("support group").hits[0].explain.heat > 0.1  # re-read: 10 + 5 access


def test_seed_004_weights_let_metadata_override_relevance(store, tokenizer):
    # Why the defaults changed: with seed 004's weights a fresh, barely
    # relevant memory beats an old exact one.
    old = now_utc() - timedelta(days=400)
    exact = store.add(content="budget budget review", created_at=old).added[0]
    store.add_many([{"content": f"budget plan number {i} for the team", "created_at": old} for i in range(4)])
    loose = store.add(content="notes from a long day with a budget question and more words").added[0]
    seed = SearchEngine(store, tokenizer=tokenizer, weights=SEED_004)
    seed.build()
    assert seed.search("budget").ids[0] == loose
    default = SearchEngine(store, tokenizer=tokenizer)
    default.build()
    ids = default.search("budget").ids
    assert ids[0] == exact and ids[-1] == loose


def test_importance_and_heat_order_equal_matches(store, tokenizer):
    old = now_utc() - timedelta(days=100)
    low = store.add(content="会议纪要：预算", importance=2, created_at=old).added[0]
    high = store.add(content="会议纪要：预算", importance=9, created_at=old).added[0]
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    assert engine.search("预算").ids == [high, low]
    # Equal on importance and age: the one used more often is hotter.
    twin = store.add(content="会议纪要：预算", importance=2, created_at=old)
    engine.apply(twin)
    engine.apply(store.touch([low]) | store.touch([low]))
    assert engine.search("预算").ids == [high, low, twin.added[0]]
    flat = SearchEngine(store, tokenizer=tokenizer, weights=SearchWeights(importance=0, heat=0, freshness=0))
    flat.build()
    hits = flat.search("预算").hits
    assert hits[0].explain.bm25 == pytest.approx(hits[1].explain.bm25)
    # Equal keyword scores share a rank, so they fuse equally.
    assert {h.explain.ranks["keyword"] for h in hits} == {1}
    assert hits[0].score == pytest.approx(0.9) == hits[1].score == hits[2].score


def test_rrf_fuses_by_rank():
    fused, ranks = rrf({"a": np.array([2, 0, 1]), "b": np.array([0, 2])}, 4, k=60)
    best = 2 / 61
    assert fused[0] == pytest.approx((1 / 62 + 1 / 61) / best)
    assert fused[2] == pytest.approx((1 / 61 + 1 / 62) / best)
    assert fused[1] == pytest.approx((1 / 63) / best) and fused[3] == 0
    assert ranks["a"].tolist() == [2, 3, 1, 0] and ranks["b"].tolist() == [1, 0, 2, 0]


def test_vectors_with_a_real_embedder(store, tokenizer):
    embedder = HashingEmbedder()
    a = store.add(content="Caroline paints sunsets by the lake").added[0]
    b = store.add(content="Melanie runs a marathon every spring").added[0]
    engine = SearchEngine(store, embedder, tokenizer=tokenizer)
    engine.build()
    engine.embed_missing()  # stores vectors too
    ids, matrix = store.load_vectors(embedder.model_id)
    assert set(ids) == {a, b} and np.allclose(np.linalg.norm(matrix, axis=1), 1.0)
    result = engine.search("painting sunset")
    assert result.semantic and result.notice == ""
    assert result.ids[0] == a
    assert result.hits[0].explain.vector_similarity > 0 and result.hits[0].explain.ranks["vector"] == 1
    # A word only the n-gram vectors can relate ("paintings" vs "paints" differ after stemming).
    vec_only = engine.search("paintsx")
    assert vec_only.ids and vec_only.hits[0].explain.found_by == ("vector",)
    # New memories are embedded on apply; a fresh engine loads stored vectors.
    c = store.add(content="Caroline adopted a puppy")
    engine.apply(c)
    reloaded = SearchEngine(store, embedder, tokenizer=tokenizer)
    reloaded.build()
    assert reloaded.search("puppy adoption").ids[0] == c.added[0]
    assert reloaded.search("puppy", semantic=False).semantic is False


def test_without_embedder_search_says_keyword_only(filled):
    engine = filled[0]
    result = engine.search("猫")
    assert not result.semantic and result.notice == NO_EMBEDDER


def test_fusion_only_weights_rank_by_relevance(store, tokenizer):
    old = store.add(content="budget meeting budget", created_at=now_utc() - timedelta(days=900), importance=1).added[0]
    new = store.add(content="budget notes from the long planning session", importance=10).added[0]
    relevance = SearchEngine(store, tokenizer=tokenizer, weights=FUSION_ONLY)
    relevance.build()
    assert relevance.search("budget").ids == [old, new]
    # A clear relevance gap survives the default weights (scores, not just
    # ranks, reach the fusion), but not seed 004's.
    default = SearchEngine(store, tokenizer=tokenizer)
    default.build()
    assert default.search("budget").ids == [old, new]
    seed = SearchEngine(store, tokenizer=tokenizer, weights=SEED_004)
    seed.build()
    assert seed.search("budget").ids == [new, old]


def test_related_term_hit_does_not_beat_the_match_on_importance(store, tokenizer):
    # The brief's case: the tea memory is reached only through expansion ("用户").
    cat = store.add(content="用户家里有三只猫", importance=3).added[0]
    tea = store.add(content="用户喜欢喝乌龙茶", importance=9).added[0]
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    assert engine.search("我的猫最近不吃东西").ids in ([cat], [cat, tea])


def test_bad_query_raises_unless_lenient(filled):
    engine = filled[0]
    with pytest.raises(QuerySyntaxError):
        engine.search('"unclosed')
    assert engine.search('"unclosed support', lenient=True).ids


def test_each_question_of_a_message_gets_a_place(store, tokenizer):
    facts = ["我刚才路过的那个商场是万达。", "医疗招聘会的地点是浙江宁波。", "医疗招聘会的时间是5月9日上午10点。"]
    # Chatter that matches the first question's words many times over.
    chatter = [f"商场{i}号店今天打折，路过的人很多，商场里还有活动。" for i in range(8)]
    ids = store.add_many([{"content": c} for c in facts + chatter]).added
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    result = engine.search("我路过的商场叫什么？另外，地点是浙江宁波的招聘会，时间是什么？", limit=4)
    assert ids[1] in result.ids[:2]  # the second question is not crowded out
    assert ids[2] in result.ids  # found through the first hit's name (related-term expansion)
    assert "招聘会" in result.expanded_with or "招聘" in result.expanded_with


def test_keyword_queries_are_not_expanded(filled):
    engine = filled[0]
    assert engine.search("咖啡 健康 饮品").expanded_with == ()


def test_interleave_gives_each_ranking_turns():
    from memdesk.core.search.rank.rankings import interleave

    merged = interleave([np.array([5, 6, 7, 8]), np.array([9, 6])])
    assert merged.tolist() == [5, 9, 6, 7, 8]


def test_matching_hands_out_every_match_as_ids_in_rank_order(store, tokenizer):
    from memdesk.core.search.index.stored_table import IDS_READ_ALL

    work, _ = store.create_persona(name="工作助手")
    count = IDS_READ_ALL + 100  # past it the ids are read in one pass
    many = store.add_many([{"content": f"第{i}杯咖啡", "importance": i % 10 + 1} for i in range(count)]).added
    own = store.add(content="工作时的咖啡", persona_id=work).added[0]
    store.add(content="一杯茶")
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    everything = engine.search("咖啡", limit=None).ids
    assert engine.matching("咖啡") == everything and set(everything) == {*many, own}
    few = engine.matching("咖啡 importance>=9")
    assert few == engine.search("咖啡 importance>=9", limit=None).ids and len(few) == len(many) // 5
    assert own not in engine.matching("咖啡", persona="") and own in engine.matching("咖啡", persona=work)
    picked = [everything[4000], everything[7], "no-such-id", many[0]]
    hits = engine.hits_of("咖啡", picked)
    assert [h.id for h in hits] == [everything[4000], everything[7], many[0]]  # what matches, as asked
    assert [h.explain.position for h in hits] == [4001, 8, everything.index(many[0]) + 1]
    assert hits[1].explain.final == pytest.approx(engine.search("咖啡", limit=10).hits[7].score)
    assert engine.hits_of("茶", [many[0]]) == []


def test_matching_without_a_store(tokenizer):
    from tests.record_factory import make_record

    engine = SearchEngine(tokenizer=tokenizer)
    engine.put([make_record(f"m{i}", f"每天喝咖啡 {i}") for i in range(5)] + [make_record("tea", "喝茶")])
    assert engine.matching("咖啡") == engine.search("咖啡", limit=None).ids and len(engine.matching("咖啡")) == 5
