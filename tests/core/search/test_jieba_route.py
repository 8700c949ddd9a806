"""jieba_route's loops give exactly jieba's own word graph, route and cuts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdesk.core.search.language import dictionary
from memdesk.core.search.language.jieba_route import best_route, tagged, word_graph


@pytest.fixture(scope="module")
def jieba_pair():
    ours = dictionary.segmenter()
    jieba = dictionary.import_jieba()
    theirs = jieba.Tokenizer()  # jieba's own loops, over the same loaded dictionary
    theirs.FREQ, theirs.total, theirs.initialized = ours.FREQ, ours.total, True
    return ours, theirs


# Characters that make words with each other (so the graph has branches), plus letters,
# digits, punctuation and a rare character that no word starts with.
ALPHABET = "中华人民共和国北京大学生活动会议周三项目进度咖啡记忆饮料喜欢不是的了在我们他abcXY 12，。！？的地得龘"
SENTENCES = [
    "我来到北京清华大学",
    "他来到了网易杭研大厦",
    "小明硕士毕业于中国科学院计算所，后在日本京都大学深造",
    "下周三要和小王去上海签200万的合同",
    "我挺喜欢松下那个牌子的洗碗机。",
    "iPhone15和MacBook Pro 2023",
    "",
    "龘",
]


@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_graph_the_route_and_the_cuts_are_jiebas(jieba_pair, sentence):
    ours, theirs = jieba_pair
    assert type(ours).get_DAG is not type(theirs).get_DAG  # the fast loops are really in use
    assert ours.get_DAG(sentence) == theirs.get_DAG(sentence)
    if sentence:
        mine, jiebas = {}, {}
        ours.calc(sentence, ours.get_DAG(sentence), mine)
        theirs.calc(sentence, theirs.get_DAG(sentence), jiebas)
        assert mine == jiebas  # the very same floats and ends
    for hmm in (True, False):
        assert list(ours.cut(sentence, HMM=hmm)) == list(theirs.cut(sentence, HMM=hmm))
        assert list(ours.cut_for_search(sentence, HMM=hmm)) == list(theirs.cut_for_search(sentence, HMM=hmm))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, min_size=1, max_size=40))
def test_any_text_routes_as_jieba_routes_it(jieba_pair, sentence):
    ours, theirs = jieba_pair
    graph = word_graph(ours.FREQ, sentence)
    assert graph == theirs.get_DAG(sentence)
    mine, jiebas = {}, {}
    best_route(ours.FREQ, ours.total, sentence, graph, mine)
    theirs.calc(sentence, graph, jiebas)
    assert mine == jiebas
    assert list(ours.cut(sentence)) == list(theirs.cut(sentence))


def test_ties_go_where_max_sends_them():
    """Two ways with the same probability: max keeps the larger end (tuples compare whole)."""
    freq = {"a": 1, "ab": 1, "b": 1}
    route_ours: dict = {}
    best_route(freq, 1, "ab", word_graph(freq, "ab"), route_ours)
    # log(1) - log(1) = 0 everywhere: ("a","b") and ("ab",) tie on score; the larger end wins.
    assert route_ours[0] == (0.0, 1)
    assert word_graph(freq, "ab") == {0: [0, 1], 1: [1]}
    assert word_graph({"x": 0}, "xy") == {0: [0], 1: [1]}  # a bare prefix is no word


@pytest.fixture(scope="module")
def taggers(jieba_pair):
    ours, _ = jieba_pair
    return ours, dictionary.pos_tagger(ours)


@pytest.mark.parametrize(
    "text",
    [
        *SENTENCES,
        "下周三 10:30 和 Alice 去 3.5 号馆\r\n签 iPhone15 的单，预算 $200！",
        "a1 b_c 中文x.y+z#w&v 。。 \t\n末尾",
        "2024-06-01 张经理说：OK",
    ],
)
def test_tagging_is_posseg_without_its_hmm(taggers, text):
    segmenter, posseg = taggers
    theirs = [(w.word, w.flag) for w in posseg.cut(text, HMM=False)]
    assert tagged(segmenter.FREQ, segmenter.total, posseg.word_tag_tab, text) == theirs
    assert theirs or not text  # the comparison had something in it


TAG_ALPHABET = ALPHABET + "aZ09._+#&-%:\t\r\n 张王小经理上海"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=TAG_ALPHABET, max_size=50))
def test_any_text_tags_as_posseg_tags_it(taggers, text):
    segmenter, posseg = taggers
    assert tagged(segmenter.FREQ, segmenter.total, posseg.word_tag_tab, text) == [
        (w.word, w.flag) for w in posseg.cut(text, HMM=False)
    ]
