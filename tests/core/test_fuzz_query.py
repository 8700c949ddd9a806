"""Fuzzing the search-language parser: any text gives a tree or a QuerySyntaxError that
points into the text, never another exception; lenient parsing never raises.

Normal runs try ~100 queries; HYPOTHESIS_PROFILE=fuzz (bench/fuzz.sh) runs 10,000,
FUZZ_EXAMPLES any other count.
"""

import os
import re
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memdesk.core.search.query.query import QuerySyntaxError, parse

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or (10_000 if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else 100))
fuzz = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
NOW = datetime(2026, 1, 15, 12, 0, tzinfo=timezone.utc)
AT = re.compile(r"\(at character (\d+)\)$")

# Pieces the grammar gives meaning to, in ASCII, full-width and CJK quoting forms.
syntax = st.sampled_from(
    [
        '"',
        "“",
        "”",
        "「",
        "」",
        "『",
        "』",
        "„",
        "＂",
        "(",
        ")",
        "（",
        "）",
        "-",
        "－",
        "--",
        " - ",
        "OR",
        "AND",
        "or",
        " OR ",
        ":",
        "：",
        ">",
        ">=",
        "<",
        "<=",
        "=",
        "＞＝",
        " ",
        "\t",
        "\n",
        "\u3000",
    ]
)
fields = st.sampled_from(
    [
        "persona",
        "group",
        "tag",
        "type",
        "scope",
        "tier",
        "is",
        "id",
        "importance",
        "created",
        "updated",
        "Tag",
        "IMPORTANCE",
        "ｔａｇ",
        "persona：",
        "tag:",
    ]
)
values = st.one_of(
    st.sampled_from(
        [
            "7",
            "10",
            "0",
            "11",
            "-3",
            "07",
            "٣",
            "𐩀",
            "²",
            "７",
            "2024",
            "2024-05",
            "2024-02-30",
            "2024-05-31T10:30",
            "0000",
            "9999-12",
            "7d",
            "2w",
            "99999y",
            "99999d",
            "3m",
            "1y",
            "x",
            "active",
            "deleted",
            "long_term",
            "hot",
            "",
            '""',
            '"a b"',
            "“工作”",
            "咖啡",
            "家人",
        ]
    ),
    st.text(max_size=8),
)
filters = st.builds(
    lambda f, op, v: f"{f}{op}{v}", fields, st.sampled_from([":", ">", ">=", "<", "<=", "=", "："]), values
)
words = st.one_of(
    st.sampled_from(["coffee", "咖啡", "用户喜欢", "ｃｏｆｆｅｅ", "喜欢喝咖啡", "a", "ß", "ﬁ", "é"]),
    st.text(min_size=1, max_size=6),
)
pieces = st.one_of(syntax, filters, words, st.builds(lambda w: "-" + w, st.one_of(words, filters)))
queries = st.one_of(
    st.lists(pieces, max_size=12).map(" ".join), st.lists(pieces, max_size=12).map("".join), st.text(max_size=40)
)


def _strict(text):
    try:
        return parse(text, now=NOW)
    except QuerySyntaxError as exc:
        found = AT.search(str(exc))
        assert found, f"no position in {exc}"
        assert 0 <= exc.position <= len(text) and int(found.group(1)) == exc.position + 1
        return None


@pytest.mark.slow  # fuzzing: `make test-all` runs it, bench/fuzz.sh at full size
@fuzz
@given(text=queries)
@example(text="created>99999y")
@example(text="importance>=𐩀")
def test_parse_gives_a_tree_or_a_positioned_syntax_error(text):
    tree = _strict(text)
    if tree is not None:
        assert tree.render() is not None


@pytest.mark.slow  # fuzzing: `make test-all` runs it, bench/fuzz.sh at full size
@fuzz
@given(text=queries)
def test_lenient_parse_never_raises(text):
    assert parse(text, lenient=True, now=NOW) is not None


def test_what_fuzzing_found_is_a_syntax_error_not_a_crash():
    # int() cannot read every character isdigit() accepts; 99999y reaches before year 1
    for text, position in (("importance>=𐩀", 12), ("created>99999y", 8)):
        try:
            parse(text, now=NOW)
        except QuerySyntaxError as exc:
            assert exc.position == position
        else:
            raise AssertionError(f"{text!r} parsed")
        assert parse(text, lenient=True, now=NOW) is not None
