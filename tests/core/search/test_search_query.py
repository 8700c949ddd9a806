"""The query language: parsing, rendering back, and errors with positions."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdesk.core.domain.errors import MemDeskError
from memdesk.core.domain.times import now_utc
from memdesk.core.search.query.query import (
    FIELD_NAMES,
    VALUE_NAMES,
    And,
    Everything,
    Filter,
    Not,
    Or,
    Phrase,
    QuerySyntaxError,
    Word,
    parse,
    parse_date,
    render,
)


@pytest.mark.parametrize(
    "text, tree",
    [
        ("", Everything()),
        ("   ", Everything()),
        ("coffee", Word("coffee")),
        ("coffee tea", And((Word("coffee"), Word("tea")))),
        ("coffee OR tea", Or((Word("coffee"), Word("tea")))),
        ('"support group" -tea', And((Phrase("support group"), Not(Word("tea"))))),
        ("tag:健康 group:偏好/饮食", And((Filter("tag", ":", "健康"), Filter("group", ":", "偏好/饮食")))),
        (
            "importance>=7 created>2024-05 updated<=7d",
            And((Filter("importance", ">=", "7"), Filter("created", ">", "2024-05"), Filter("updated", "<=", "7d"))),
        ),
        ("importance:5", Filter("importance", "=", "5")),
        ('tag:"two words"', Filter("tag", ":", "two words")),
        ("is:deleted TYPE:Fact", And((Filter("is", ":", "deleted"), Filter("type", ":", "fact")))),
        ("-(a OR b) c", And((Not(Or((Word("a"), Word("b")))), Word("c")))),
        ("meeting at 10:30 http://x.org", And((Word("meeting"), Word("at"), Word("10:30"), Word("http://x.org")))),
        ("e-mail", Word("e-mail")),
    ],
)
def test_parse(text, tree):
    assert parse(text) == tree


def test_full_width_forms_and_chinese_quotes():
    # Full-width colon, parentheses, minus and quotes, as a Chinese IME types them.
    tree = parse("persona：工作助手 （tag：健康 OR tag:饮食） －咖啡 “每天 喝茶”")
    assert tree == And(
        (
            Filter("persona", ":", "工作助手"),
            Or((Filter("tag", ":", "健康"), Filter("tag", ":", "饮食"))),
            Not(Word("咖啡")),
            Phrase("每天 喝茶"),
        )
    )


@pytest.mark.parametrize(
    "text",
    [
        "coffee",
        "a b OR c",
        '"x y" -z tag:"two words" persona:""',
        "(a OR b) (c OR d)",
        "-(a b) importance<3 created>=2024-01-31",
        "is:expired id:abc* scope:short_term tier:cold",
    ],
)
def test_render_round_trips(text):
    tree = parse(text)
    assert parse(render(tree)) == tree


def test_render_normalises():
    assert render(parse("persona：Bob   a  AND b")) == "persona:Bob a b"


@pytest.mark.parametrize(
    "text, position, fragment",
    [
        ('cat "support group', 4, "never closed"),
        ("cat OR", 4, "OR needs a term"),
        ("OR cat", 0, "OR needs a term"),
        ("(cat dog", 0, "never closed"),
        ("cat dog)", 7, "no matching"),
        ("cat - dog", 4, "'-'"),
        ("importance>=11", 12, "1 to 10"),
        ("created>2024-13", 8, "not a real date"),
        ("updated<yesterday", 8, "not a date"),
        ("type:foo", 5, "type:foo is unknown"),
        ("tag:", 4, "needs a value"),
        ("a ()", 2, "empty parentheses"),
        ('a ""', 2, "empty quotes"),
    ],
)
def test_errors_name_the_position(text, position, fragment):
    with pytest.raises(QuerySyntaxError) as caught:
        parse(text)
    assert caught.value.position == position
    assert fragment in str(caught.value)
    assert f"character {position + 1}" in str(caught.value)
    assert isinstance(caught.value, MemDeskError)


@pytest.mark.parametrize(
    "chinese, english",
    [
        ("类型:偏好", "type:preference"),
        ("类型:事实", "type:fact"),
        ("类型:项目", "type:project"),
        ("类型:任务", "type:task"),
        ("类型:笔记", "type:note"),
        ("类型:preference", "type:preference"),  # English values after a Chinese name
        ("type:偏好", "type:preference"),  # and Chinese values after an English one
        ("标签:健康", "tag:健康"),
        ("分组:工作/项目", "group:工作/项目"),
        ("角色:工作助手", "persona:工作助手"),
        ("范围:短期", "scope:short_term"),
        ("范围:长期", "scope:long_term"),
        ("层级:热", "tier:hot"),
        ("层级:温", "tier:warm"),
        ("层级:冷", "tier:cold"),
        ("层级:归档", "tier:archive"),
        ("层级:HOT", "tier:hot"),
        ("重要性>=7", "importance>=7"),
        ("重要性<3", "importance<3"),
        ("重要性:5", "importance=5"),
        ("已删除", "is:deleted"),
        ("已过期", "is:expired"),
        ("已被取代", "is:superseded"),
        ("状态:已删除", "is:deleted"),
        ("状态:有效", "is:active"),
        ("创建时间>2024-05", "created>2024-05"),
        ("更新<7d", "updated<7d"),
        ("编号:af8d77ed", "id:af8d77ed"),
        ("类型：偏好　层级：热", "type:preference tier:hot"),  # full-width colon and space
        ('标签:"两个 词"', 'tag:"两个 词"'),
        ("-标签:旧 咖啡", "-tag:旧 咖啡"),
    ],
)
def test_chinese_filter_words_mean_the_english_ones(chinese, english):
    assert parse(chinese) == parse(english)
    assert render(parse(chinese)) == render(parse(english))


def test_a_quoted_state_word_is_a_word_again():
    assert parse('"已删除"') == Phrase("已删除")
    assert parse("已删除的记忆") == Word("已删除的记忆")


@pytest.mark.parametrize(
    "text, position, field, value",
    [
        ("类型:不存在", 3, "type", "不存在"),
        ("type:xyz", 5, "type", "xyz"),
        ("咖啡 层级:很热", 6, "tier", "很热"),
        ("范围:永久", 3, "scope", "永久"),
        ("状态:丢了", 3, "is", "丢了"),
    ],
)
def test_an_unknown_filter_value_says_where_and_what(text, position, field, value):
    with pytest.raises(QuerySyntaxError) as caught:
        parse(text)
    error = caught.value
    assert (error.position, error.code, error.params["field"], error.params["value"]) == (
        position,
        "query_unknown_value",
        field,
        value,
    )
    assert error.params["typed"] == text[position - 1 - len(error.params["typed"]) : position - 1]
    assert f"character {position + 1}" in str(error)


@pytest.mark.parametrize(
    "text, typed, suggestion",
    [
        ("tags:健康", "tags", "tag"),
        ("咖啡 类别:偏好", "类别", "类型"),
        ("热度:高", "热度", "层级"),
        ("人设:工作助手", "人设", "角色"),
    ],
)
def test_a_near_miss_filter_name_is_an_error_that_names_the_right_one(text, typed, suggestion):
    with pytest.raises(QuerySyntaxError) as caught:
        parse(text)
    error = caught.value
    assert (error.code, error.params["typed"], error.params["suggestion"]) == (
        "query_unknown_filter",
        typed,
        suggestion,
    )
    assert error.position == text.index(typed)
    assert parse(text, lenient=True)  # an assistant's sentence still searches
    assert parse("10:30 http://x.org 标签库:x") == And((Word("10:30"), Word("http://x.org"), Word("标签库:x")))


@pytest.mark.parametrize(
    "text, code",
    [
        ("类型:", "query_needs_value"),
        ("重要性>=", "query_needs_value"),
        ("重要性>=11", "query_importance"),
        ("创建时间>昨天", "query_not_date"),
        ("created>2024-13", "query_unreal_date"),
        ('"咖啡', "query_quote_open"),
        ("(咖啡", "query_paren_open"),
        ("咖啡)", "query_paren_unmatched"),
        ("咖啡 OR", "query_or_sides"),
        ("咖啡 - 茶", "query_minus_alone"),
        ("a ()", "query_empty_parens"),
        ('a ""', "query_empty_quotes"),
    ],
)
def test_every_error_carries_a_code(text, code):
    with pytest.raises(QuerySyntaxError) as caught:
        parse(text)
    assert caught.value.code == code


def test_error_positions_count_what_the_user_typed():
    # "ｍ" (full-width) becomes one ASCII letter; the quote is the 8th character typed.
    with pytest.raises(QuerySyntaxError) as caught:
        parse("咖啡 ｍｅｍｏ “未闭合")
    assert caught.value.position == 8


def test_lenient_never_raises_and_keeps_filters():
    assert parse('He said "hi (there', lenient=True) == And((Word("He"), Word("said"), Word("hi"), Word("there")))
    assert parse("tag:x OR", lenient=True) == Filter("tag", ":", "x")
    assert parse('- ( " ', lenient=True) == Everything()


def test_dates_name_intervals():
    now = now_utc()
    start, end = parse_date("2024-02", now)
    assert (start.month, end.month, start.day, end.day) == (2, 3, 1, 1)
    start, end = parse_date("2024-12-31", now)
    assert (end - start).days == 1
    start, end = parse_date("7d", now)
    assert start == end and 6.9 < (now - start).total_seconds() / 86400 < 7.1


@given(
    st.lists(
        st.tuples(
            st.sampled_from(sorted(FIELD_NAMES.items())),
            st.booleans(),  # the value in Chinese, where the field has Chinese values
            st.integers(0, 9),
            st.booleans(),  # negated
        ),
        min_size=1,
        max_size=4,
    )
)
def test_any_mix_of_chinese_and_english_filter_words_means_the_same(parts):
    """Each filter typed by its Chinese or its English name, its value in either language: one tree."""
    chinese, english = [], []
    for (name, field), chinese_value, pick, negated in parts:
        values = VALUE_NAMES.get(field)
        if values:
            word, value = sorted(values.items())[pick % len(values)]
            typed = word if chinese_value else value
        elif field == "importance":
            typed = value = str(pick + 1)
        elif field in ("created", "updated"):
            typed = value = f"{pick + 1}d"
        else:
            typed = value = f"工作{pick}"
        op = ">=" if field in ("importance", "created", "updated") else ":"
        sign = "-" if negated else ""
        chinese.append(f"{sign}{name}{op}{typed}")
        english.append(f"{sign}{field}{op}{value}")
    now = now_utc()
    assert parse(" ".join(chinese), now=now) == parse(" ".join(english), now=now)
