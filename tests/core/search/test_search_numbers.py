"""A number written one way finds it written another (numbers.py), over real memories."""

import pytest

from memdesk.core.search import SearchEngine
from memdesk.core.search.index.keyword import KeywordIndex, KeywordSettings
from memdesk.core.search.language.numbers import chinese_value, other_spellings, values


@pytest.mark.parametrize(
    ("numeral", "value"),
    [("八", 8), ("十", 10), ("十二", 12), ("二十三", 23), ("一百零五", 105), ("三千五百", 3500), ("两万", 20000)],
)
def test_chinese_numerals_read_as_their_value(numeral, value):
    assert chinese_value(numeral) == value


def test_only_numbers_count_not_words_made_of_numerals():
    assert values("我们一起去，万一下雨，千万别忘了伞") == []
    assert values("他的生日是哪一天？买一个蛋糕") == []  # 一 + measure word: the article "a"
    assert values("八月份有几个朋友过生日") == [("八", 8)]
    assert values("规模超过一千人") == [("一千", 1000)]
    assert other_spellings("03月04日") == ["3", "4"]
    assert other_spellings("3月4号") == ["03", "04"]
    assert other_spellings("电话是13912345678") == []  # ids and phone numbers are written one way
    assert other_spellings("邮箱是wanglin0821@bjzyyx.com，手机是Mate60") == []


def test_a_lone_ten_counts_only_before_a_unit():
    assert values("我十分喜欢这首歌，信心十足") == []  # 十分: very; 十足: fully
    assert values("等了十分钟，来了十个人") == [("十", 10), ("十", 10)]
    assert values("十月去了哪里？") == [("十", 10)]


def test_a_month_in_chinese_numerals_finds_it_in_digits(store, tokenizer):
    august = store.add(content="张明是我的室友，他的生日是08月19日。").added[0]
    store.add(content="我父亲的生日是09月14日，生日那天全家一起吃饭。")  # more birthday words
    store.add(content="李娜是我的表妹，她的生日是02月11日。")
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    result = engine.search("八月份过生日的有几个人？")
    assert result.ids[0] == august
    assert "08" in result.hits[0].explain.matched_words
    off = SearchEngine(store, tokenizer=tokenizer, keyword=KeywordSettings(number_weight=0.0))
    off.build()
    assert off.search("八月份过生日的有几个人？").ids[0] != august


def test_a_padded_date_finds_the_unpadded_one_first(store, tokenizer):
    boss = store.add(content="我室友过生日是在3月4号。").added[0]
    store.add(content="我同事的生日是4月13号。")
    store.add(content="我表妹的生日是12月3号。")
    engine = SearchEngine(store, tokenizer=tokenizer)
    engine.build()
    assert engine.search("03月04日是哪个人的生日？").ids[0] == boss


def test_spellings_nobody_stored_add_nothing(tokenizer):
    index = KeywordIndex(tokenizer)
    assert "08" not in index.analyse(["八月份有什么安排？"]).words  # an empty index holds no 08
