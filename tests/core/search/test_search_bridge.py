"""A question that picks its subject by a clause ("那个29岁的人……") takes the expansion's
feedback from the memory that clause finds (bridge.py)."""

import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.keyword import KeywordSettings
from memdesk.core.search.language.bridge import bridge_clause


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        ("那个年龄是41岁的人，他的职业主要做些什么？", "年龄是41岁的人"),
        ("那个27岁的人是在哪家公司上班的？", "27岁的人"),
        ("另外，那个来自吉林长春的，他是在哪个单位工作来着？", "来自吉林长春的"),
        ("我表哥多大了？那位名叫周若雨的人，她的生日是哪天？", "名叫周若雨的人"),
        ("那个主要内容是户外登山的活动，其时间是什么？", "主要内容是户外登山的活动"),
        # 那个 after a modifier is a demonstrative, not the start of a clause.
        ("我昨天去的那个公园是啥公园啊？", None),
        ("那是什么？", None),
        # Words 那 begins, and 那 before a pronoun ("then you…"), open no clause; 那么 "so," does.
        ("那你的老家是哪儿的，在哪里工作？", None),
        ("周末好无聊。那天我看到的新餐厅，叫什么？", None),
        ("那么多喜欢猫的人，都住在哪？", None),
        ("那么住在城东的人，他们在哪上班？", "住在城东的人"),
        ("那些爱钓鱼的人，住在哪？", "爱钓鱼的人"),
        ("What is the job of the person who is 33?", None),
    ],
)
def test_bridge_clause(question, clause):
    assert bridge_clause(question) == clause


MEMORIES = [
    "我同事26岁。",
    "我表姐的单位叫苏州明远设计所。",
    "舅妈的单位叫成都恒信会计事务所。",
    "我同事的单位叫厦门海湾实验小学。",
    "我表姐今年31岁。",
    "我舅妈喜欢跳广场舞。",
    "我同事特别喜欢跑步。",
    "我表姐的工作是设计师。",
    "舅妈今年52岁。",
]


@pytest.fixture
def engines(store, tokenizer):
    ids = [store.add(content=text).added[0] for text in MEMORIES]
    on = SearchEngine(store, tokenizer=tokenizer)
    off = SearchEngine(store, tokenizer=tokenizer, keyword=KeywordSettings(bridge_weight=0))
    on.build()
    off.build()
    return ids, on, off


def test_the_feedback_is_the_subject_the_clause_finds(engines):
    _, on, off = engines
    question = "那个年龄是26岁的人，其单位叫什么？"
    assert on.search(question, lenient=True).expanded_with == ("同事",)
    # From the best two hits of the whole question, the feedback mixes in another
    # person's memory (表姐's or 舅妈's 单位 matches the asked attribute).
    assert len(off.search(question, lenient=True).expanded_with) > 1


def test_the_subjects_attribute_ranks_higher(engines):
    ids, on, off = engines
    answer = ids[3]  # 我同事的单位叫厦门海湾实验小学。
    question = "那个26岁的人在哪个单位工作？"
    found, plain = on.search(question, lenient=True).ids, off.search(question, lenient=True).ids
    assert found.index(answer) < plain.index(answer)
    assert found.index(answer) < found.index(ids[2])  # ahead of 舅妈's 单位
