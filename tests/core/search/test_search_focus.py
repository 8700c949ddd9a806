"""A chatty message's focus cue ("我真正想问的是……") marks its question (focus.py)."""

import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.keyword import KeywordSettings
from memdesk.core.search.language.focus import split_focus


@pytest.mark.parametrize(
    ("text", "questions"),
    [
        (
            "晚上要不要去菜市场买点青菜呢？对了，我想问，那个职位是车间主任的人，工作地是什么？",
            ["那个职位是车间主任的人，工作地是什么？"],
        ),
        (
            "昨天的电影真好看。实际上，我真正的问题是：那个邮箱地址是a@b.com的人，年龄是什么？",
            ["那个邮箱地址是a@b.com的人，年龄是什么？"],
        ),
        ("哎呀，我其实是想搞清楚，我住的小区叫什么", ["我住的小区叫什么"]),
        # A stretch without a cue keeps its question; 另外 starts the next one.
        (
            "我新买的伞好看吗？另外，中午吃什么呢？我真正想问的是：那个活动在哪里？",
            ["我新买的伞好看吗？", "那个活动在哪里？"],
        ),
        # The last cue of a stretch corrects the earlier ones.
        ("我想问天气怎么样？不对，我真正想问的是：我的猫叫什么？", ["我的猫叫什么？"]),
        ("The party was fun. Anyway, my actual question is: where does Priya work?", ["where does Priya work?"]),
    ],
)
def test_the_cue_marks_the_question(text, questions):
    found = split_focus(text)
    assert found is not None
    assert found[0] == questions


def test_the_rest_is_chatter_and_messages_without_a_cue_are_untouched():
    questions, chatter = split_focus("晚上要不要去超市买点水果呢？对了，我想问，我的猫叫什么？")
    assert questions == ["我的猫叫什么？"]
    assert "超市" in chatter and "猫" not in chatter
    assert split_focus("我的猫叫什么？另外，我住在哪里？") is None
    assert split_focus("我室友的电话号码是多少？") is None
    assert split_focus("我想问") is None  # a cue with nothing after it asks nothing
    assert split_focus("What did Priya actually say about the trip?") is None


def test_a_chatter_question_no_longer_takes_the_first_place(store, tokenizer):
    target = store.add(content="我表姐工作的地方是福建福州。").added[0]
    store.add(content="晚上我想去超市买点水果，最近天气真好。")
    store.add(content="今天我打算和几个朋友一起出去吃饭聊天。")
    store.add(content="我叔叔在湖南长沙上班。")
    query = "今天天气真好啊。晚上要不要去超市买点水果呢？不好意思，我真正想问的是：那个工作地是福建福州的人是谁？"
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    assert engine.search(query, lenient=True).ids[0] == target
    # Without the cue's reading the chatter's question is ranked as a question of its own,
    # and the fruit memory it matches takes a place ahead of the one asked for.
    off = SearchEngine(store, tokenizer=tokenizer, keyword=KeywordSettings(focus_cues=False))
    off.build()
    assert off.search(query, lenient=True).ids[0] != target
