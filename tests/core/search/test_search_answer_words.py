"""A question also looks for the words its answer is written in (answer_words.py: 多大 ->
岁) and for the members of the kinds it names (kinds.py: 家电 -> 洗衣机)."""

import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.answer_words import answer_words
from memdesk.core.search.keyword import KeywordSettings
from memdesk.core.search.kinds import kind_members


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("我表哥今年多大了？", "岁"),
        ("那个喜欢阅读的人，多大年纪了啊？", "岁"),
        ("那个当厨师的人有多高来着？", "厘米"),
        ("我上司的老家是哪儿的来着？", "家乡"),
        ("他是哪里人？", "老家"),
        ("她是干啥的呀？", "职业"),
        ("那个喜欢戏剧的，是在哪儿工作的呀？", "上班"),
        ("舅舅的教育背景是怎样的呢？", "本科"),
    ],
)
def test_an_interrogative_names_its_answers_words(question, wanted):
    assert wanted in answer_words(question)


@pytest.mark.parametrize("question", ["今天天气怎么样？", "What is the job of the person who is 33?", ""])
def test_questions_that_ask_no_kind_of_answer_add_nothing(question):
    assert answer_words(question) == []


def test_kind_words_are_found_however_they_are_cut():
    assert "洗衣机" in kind_members("我用的那些家电都是啥来着？")
    assert "喷雾" in kind_members("我用的美妆品是什么来着？")
    assert kind_members("我用的手机是啥型号来着？") == []  # a member is not a kind


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
    "我表姐特别喜欢画画。",
    "我的同事是硕士学历。",
    "我爸爸学历是本科。",
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
        ("我表姐是啥学历来着？", 0, 3),  # 学历 is answered by 大专, behind others' 学历
        ("婶婶是在哪儿上班来着？", 6, 1),  # 上班 is answered by 工作
        ("同事的家乡是哪里的呀？", 12, 2),  # 家乡 is answered by 老家
    ],
)
def test_the_answer_in_other_words_is_found(store, tokenizer, question, answer, place):
    ids, on, plain = _engines(store, tokenizer, PEOPLE, answer_weight=0)
    found, before = on.search(question, lenient=True).ids, plain.search(question, lenient=True).ids
    assert ids[answer] in found[:place]
    assert ids[answer] not in before[:place]


APPLIANCES = [
    "我家用的空调是格力的。",
    "我用的手机是OPPOReno7。",
    "我表哥在广州工作呢。",
    "我平时用的是雅漾的舒护活泉水喷雾。",
    "OPPOReno7这款手机真心不错，拍照特别给力。",
    "我表哥的身高有185厘米呢。",
    "我表哥的名字叫王志宏。",
]


def test_a_kind_finds_its_members(store, tokenizer):
    ids, on, plain = _engines(store, tokenizer, APPLIANCES, kind_weight=0)
    for question, member in (("我用的家电是啥呀？", ids[0]), ("我用的美妆品是什么来着？", ids[3])):
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
