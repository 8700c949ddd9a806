"""Hybrid score fusion, conversation context and natural-language quotes, over a real Store."""

from datetime import timedelta

import numpy as np
import pytest

from memdesk.core.domain.times import now_utc
from memdesk.core.search import HashingEmbedder, SearchEngine, SearchWeights
from memdesk.core.search.rank.fusion import context_lift, hybrid, standardised


def add_conversation(store, lines, start):
    """Lines saved one after another, as an assistant does during one chat."""
    return [
        store.add(content=line, created_at=start + timedelta(seconds=20 * i)).added[0] for i, line in enumerate(lines)
    ]


def test_the_reply_after_the_match_is_found(store, tokenizer):
    start = now_utc() - timedelta(days=2)
    ids = add_conversation(
        store,
        [
            "I finally finished my first full screenplay!",
            "It's a mix of drama and romance.",
            "The weather at the beach was lovely today.",
        ],
        start,
    )
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    result = engine.search("What genre is my first screenplay?")
    assert result.ids[0] == ids[0]
    assert ids[1] in result.ids  # next to the match: context
    explained = {h.id: h.explain for h in result.hits}
    assert explained[ids[1]].found_by == ("context",)
    assert ids[2] not in result.ids  # two lines away: not context
    # Short keyword queries stay literal: no context lines.
    assert engine.search("screenplay").ids == [ids[0]]
    # Without the lift the reply is not found at all.
    plain = SearchEngine(store, tokenizer=tokenizer, weights=SearchWeights(context=0.0))
    plain.build()
    assert ids[1] not in plain.search("What genre is my first screenplay?").ids


def test_context_needs_the_same_conversation(store, tokenizer):
    day = now_utc() - timedelta(days=5)
    match = store.add(content="我报名了下个月的马拉松", created_at=day).added[0]
    later = store.add(content="周末去超市买了水果", created_at=day + timedelta(hours=3)).added[0]
    other = store.add(content="用户的猫叫团团", created_at=day + timedelta(seconds=30), persona_id=None)
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    found = engine.search("我报名的马拉松是哪一天？").ids
    assert found[0] == match
    assert later not in found  # hours later: another conversation
    assert other.added[0] in found  # saved 30 s after it


def test_neighbours_follow_storage_order_and_persona(store):
    now = now_utc()
    work, _ = store.create_persona(name="工作")
    same_time = [store.add(content=f"第{i}句", created_at=now).added[0] for i in range(4)]
    store.delete([same_time[2]])  # in the trash: it no longer separates 1 and 3
    del same_time[2]
    elsewhere = store.add(content="别的助手", created_at=now, persona_id=work).added[0]
    engine = SearchEngine(store)
    engine.build()
    table = engine._index.table
    previous, following = table.neighbours(600.0)
    slot = {i: table.slot(i) for i in [*same_time, elsewhere]}
    assert previous[slot[same_time[1]]] == slot[same_time[0]]
    assert following[slot[same_time[1]]] == slot[same_time[2]]
    assert previous[slot[same_time[0]]] == -1
    assert previous[slot[elsewhere]] == -1 and following[slot[elsewhere]] == -1


def test_iter_records_keeps_storage_order(store):
    ids = [store.add(content=f"m{i}", id=f"D1:{i}").added[0] for i in (1, 2, 10, 3)]
    assert [r.id for r in store.iter_records(batch=2)] == ids  # not "D1:1, D1:10, D1:2, D1:3"


def test_context_lift_lends_only_from_lenders():
    fused = np.array([1.0, 0.0, 0.5, 0.0, 0.2])
    previous = np.array([-1, 0, 1, 2, 3])
    following = np.array([1, 2, 3, 4, -1])
    lenders = np.array([True, False, False, False, False])
    allowed = np.array([True, True, True, True, False])
    lifted = context_lift(fused, lenders, allowed, previous, following, 0.3)
    assert lifted.tolist() == pytest.approx([1.0, 0.3, 0.5, 0.0, 0.2])


def test_an_asking_lender_lends_its_reply_more():
    fused = np.array([1.0, 0.0, 0.0, 0.5, 0.0])
    previous = np.array([-1, 0, 1, -1, 3])
    following = np.array([1, 2, -1, 4, -1])
    lenders = np.array([True, False, False, True, False])
    allowed = np.ones(5, dtype=bool)
    asking = np.array([True, False, False, False, False])
    lifted = context_lift(fused, lenders, allowed, previous, following, 0.3, asking, 0.8)
    # Slot 0 asks: the line after it gets 0.8 of it; slot 3 does not: its next line 0.3.
    assert lifted.tolist() == pytest.approx([1.0, 0.8, 0.0, 0.5, 0.15])
    # A line before an asking lender is not its answer: it keeps the plain share.
    one = np.ones(2, dtype=bool)
    lifted = context_lift(
        np.array([0.0, 1.0]), np.array([False, True]), one, np.array([-1, 0]), np.array([1, -1]), 0.3, one, 0.8
    )
    assert lifted.tolist() == pytest.approx([0.3, 1.0])


def test_the_answer_to_a_matching_question_ranks_above_weaker_matches(store, tokenizer):
    start = now_utc() - timedelta(days=3)
    lines = [
        ("Wow, what a lovely family photo! How long have you been married?", 0),
        ("Five years already! Time flies.", 20),
        ("My sister got married last spring.", 90_000),
        ("We watched a long film about a married couple.", 190_000),
    ]
    asked, answer, sister, _ = (
        store.add(content=t, created_at=start + timedelta(seconds=s)).added[0] for t, s in lines
    )
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    found = engine.search("How long has she been married?").ids
    assert found.index(answer) == found.index(asked) + 1
    assert found.index(answer) < found.index(sister)
    # With the plain neighbour share only, the answer ranks below the weaker match.
    plain = SearchEngine(store, tokenizer=tokenizer, weights=SearchWeights(reply=0.0))
    plain.build()
    found = plain.search("How long has she been married?").ids
    assert found.index(answer) > found.index(sister)


def test_quotes_in_a_sentence_do_not_exclude_lenient_results(store, tokenizer):
    event = store.add(content="骑行观鸟之旅的主要内容是骑自行车结合观鸟，边骑车边看鸟。").added[0]
    joined = store.add(content="我打算参加骑行观鸟之旅。").added[0]
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    question = '那个主要内容是"骑自行车结合观鸟"的活动，我要参加的活动是什么？'
    assert engine.search(question, lenient=True).ids[:2] == [event, joined]
    # Typed into the search bar, a phrase is required.
    assert engine.search('"骑自行车结合观鸟"').ids == [event]


def test_standardised_and_hybrid_are_scale_free():
    values = np.array([3.0, 1.0, 2.0, 0.0])
    pool = np.array([True, True, True, False])
    z = standardised(values, pool)
    assert z[pool].mean() == pytest.approx(0.0) and z[pool].std() == pytest.approx(1.0) and z[3] == 0
    assert standardised(np.ones(4), pool).tolist() == [0, 0, 0, 0]
    keyword = np.array([0.0, 8.0, 1.0, 0.0])
    similarity = np.array([0.9, 0.2, 0.3, np.nan])
    scope = np.ones(4, dtype=bool)
    members = np.array([True, True, True, False])
    # Scaling either signal changes nothing: no per-model threshold.
    a = hybrid(keyword, similarity, scope, members, 0.4)
    b = hybrid(keyword * 10, similarity * 0.5, scope, members, 0.4)
    assert np.allclose(a, b) and a[members].max() == 1.0 and a[members].min() == 0.0
    assert a[3] == 0.0
    assert np.argmax(hybrid(keyword, similarity, scope, members, 0.9)) == 1
    assert np.argmax(hybrid(keyword, similarity, scope, members, 0.1)) == 0


def test_hybrid_search_mixes_keyword_and_vector_evidence(store, tokenizer):
    embedder = HashingEmbedder()
    both = store.add(content="Caroline paints sunsets by the lake").added[0]
    word_only = store.add(content="sunsets are nice, said Melanie about the weather").added[0]
    engine = SearchEngine(store, embedder, tokenizer=tokenizer)
    engine.build()
    engine.embed_missing()
    result = engine.search("painting sunsets by a lake")
    assert result.semantic and result.ids[0] == both and word_only in result.ids
    top = result.hits[0].explain
    assert top.fusion == pytest.approx(1.0) and top.ranks["vector"] == 1 and top.ranks["keyword"] == 1
