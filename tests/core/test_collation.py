"""Pinyin order for Chinese text (core/search/language/collation.py): what a Chinese user expects a sorted
list of titles, groups and personas to look like."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from memdesk.core.search.language.collation import order, rank_of, sort_key


def test_cities_sort_by_their_reading():
    # 重 alone reads zhong; in 重庆 it reads chong: the phrase decides, as a reader would.
    assert sorted(["张", "重庆", "北", "安"], key=sort_key) == ["安", "北", "重庆", "张"]
    assert sorted(["重要", "张", "重庆"], key=sort_key) == ["重庆", "张", "重要"]
    assert sorted(["银行", "行长", "长城"], key=sort_key) == ["长城", "行长", "银行"]  # changcheng hangzhang yinhang


def test_latin_and_pinyin_interleave_and_case_folds():
    assert sorted(["bus", "北", "Apple", "安", "zoo"], key=sort_key) == ["安", "Apple", "北", "bus", "zoo"]


text = st.text(alphabet=st.sampled_from("安北重庆张行长银ab Z1·"), max_size=6)


@given(st.lists(text, max_size=30))
def test_the_order_is_total_and_ranks_follow_it(texts):
    ranked = rank_of(texts)
    assert sorted(ranked.values()) == list(range(len(set(texts))))  # one place per distinct text
    by_rank = sorted(set(texts), key=ranked.__getitem__)
    assert by_rank == sorted(set(texts), key=sort_key)
    assert len({sort_key(t) for t in texts}) == len(set(texts))  # the text breaks ties: no two equal


@given(st.lists(st.integers(0, 5), max_size=40))
def test_order_is_stable_both_ways(keys):
    array = np.array(keys, dtype=np.float64)
    up, down = order(array), order(array, descending=True)
    assert up.tolist() == sorted(range(len(keys)), key=lambda i: (keys[i], i))
    assert down.tolist() == sorted(range(len(keys)), key=lambda i: (-keys[i], i))
