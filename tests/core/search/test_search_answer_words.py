"""A question also looks for the words its answer is written in (answer_words.py: 多大 ->
岁) and for the members of the kinds it names (kinds.py: 家电 -> 洗衣机)."""

import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.keyword import KeywordSettings
from memdesk.core.search.language.answer_words import answer_words
from memdesk.core.search.language.kinds import kind_members


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("我表弟今年多大了？", "岁"),
        ("那个爱下棋的人，多大年纪了？", "岁"),
        ("那个开出租车的人有多高？", "厘米"),
        ("我室友的老家是哪儿的？", "家乡"),
        ("他是哪里人？", "老家"),
        ("她是干啥的呀？", "职业"),
        ("这趟旅行一共玩了几天？", "天"),
        ("那个爱跑步的，是在哪儿工作的？", "上班"),
        ("我姑父的教育背景是怎样的？", "本科"),
    ],
)
def test_an_interrogative_names_its_answers_words(question, wanted):
    assert wanted in answer_words(question)


@pytest.mark.parametrize(
    "question",
    [
        "今天天气怎么样？",
        "What is the job of the person who is 33?",
        "",
        "这几天我都去了哪儿？",  # 这几天 says when (these days): no duration asked
        "前几天买的书放哪了？",
    ],
)
def test_questions_that_ask_no_kind_of_answer_add_nothing(question):
    assert answer_words(question) == []


def _cut(tokenizer, sentence: str) -> list[str]:
    return tokenizer.words(sentence, subwords=KeywordSettings().query_subwords)


def test_kind_words_are_found_however_they_are_cut(tokenizer):
    assert "洗衣机" in kind_members(_cut(tokenizer, "我常用的那些家电都是什么牌子？"))
    assert "喷雾" in kind_members(_cut(tokenizer, "我平时用的美妆品有哪些？"))  # 美妆品: one word
    assert "口红" in kind_members(_cut(tokenizer, "她送我的美妆产品是什么？"))  # 美妆 + 产品
    assert kind_members(_cut(tokenizer, "我的手机是什么型号？")) == []  # a member is not a kind


@pytest.mark.parametrize("question", ["我家电视是什么牌子的？", "我的水果刀放在哪儿了？", "常去的宠物店叫什么？"])
def test_a_kind_inside_another_word_names_no_kind(tokenizer, question):
    # 家电 in 我家|电视 (my home's TV), 水果 in 水果刀 (a fruit knife), 宠物 in 宠物店 (a pet shop)
    assert kind_members(_cut(tokenizer, question)) == []


def test_a_kind_inside_another_word_adds_no_members_to_a_search(store, tokenizer):
    memories = ["我家电视是索尼的。", "我家的冰箱是西门子的。", "客厅的空调有点吵。", "周末看了一部电影。"]
    _, on, plain = _engines(store, tokenizer, memories, kind_weight=0)
    question = "我家电视是什么牌子的？"
    assert on.search(question, lenient=True).ids == plain.search(question, lenient=True).ids


def _engines(store, tokenizer, memories, **off):
    # A day apart: memories saved together would also lift each other as one conversation.
    ids = [
        store.add(content=text, created_at=f"2024-03-{day + 1:02d}T09:00:00").added[0]
        for day, text in enumerate(memories)
    ]
    on = SearchEngine(store, tokenizer=tokenizer)
    plain = SearchEngine(store, tokenizer=tokenizer, keyword=KeywordSettings(**off))
    on.build()
    plain.build()
    return ids, on, plain


PEOPLE = [
    "我的表姐上的是大专。",
    "我表姐身高160厘米。",
    "我表姐特别喜欢养花。",
    "我的同事是硕士学历。",
    "我爸爸的学历是本科。",
    "我表姐的家乡在湖北武汉。",
    "我婶婶在南京工作呢。",
    "我上司在北京上班呢。",
    "我舅妈在福建厦门上班呢。",
    "我婶婶是做会计的。",
    "我的婶婶叫刘梅。",
    "我的婶婶今年58岁。",
    "同事老家在四川成都。",
    "同事特别喜欢学外语。",
    "同事的名字叫李强。",
]


@pytest.mark.parametrize(
    ("question", "answer", "place"),
    [
        ("我表姐是什么学历？", 0, 3),  # 学历 is answered by 大专, behind others' 学历
        ("婶婶在哪儿上班啊？", 6, 1),  # 上班 is answered by 工作
        ("同事的家乡是哪里？", 12, 2),  # 家乡 is answered by 老家
    ],
)
def test_the_answer_in_other_words_is_found(store, tokenizer, question, answer, place):
    ids, on, plain = _engines(store, tokenizer, PEOPLE, answer_weight=0)
    found, before = on.search(question, lenient=True).ids, plain.search(question, lenient=True).ids
    assert ids[answer] in found[:place]
    assert ids[answer] not in before[:place]


APPLIANCES = [
    "我家装的空调是美的的。",
    "我用的手机是小米13。",
    "我表哥在杭州工作。",
    "我平常用的是理肤泉的保湿喷雾。",
    "小米13这款手机真不错，拍照很清楚。",
    "我表哥的身高有178厘米。",
    "我表哥的名字叫陈立。",
]


def test_a_kind_finds_its_members(store, tokenizer):
    ids, on, plain = _engines(store, tokenizer, APPLIANCES, kind_weight=0)
    for question, member in (("我用的家电都是啥？", ids[0]), ("我用的美妆品是什么牌子？", ids[3])):
        found, before = on.search(question, lenient=True).ids, plain.search(question, lenient=True).ids
        # Behind "我用的手机", which matches 我用的 as written, but ahead of the phone's review.
        assert member in found[:2], question
        assert member not in before[:2], question


def test_the_kind_word_itself_still_ranks_first(store, tokenizer):
    ids, on, _ = _engines(store, tokenizer, ["我家的冰箱是西门子的。", "我家的家电都是海尔的。"], kind_weight=0)
    assert on.search("我家的家电是什么牌子的？", lenient=True).ids == [ids[1], ids[0]]


def test_a_kind_typed_as_a_keyword_finds_only_itself(store, tokenizer):
    # A typed keyword is not a question: 家电 in the search bar finds what says 家电.
    ids, on, _ = _engines(store, tokenizer, ["我家的冰箱是西门子的。", "我家的家电都是海尔的。"], kind_weight=0)
    assert on.search("家电").ids == [ids[1]]
