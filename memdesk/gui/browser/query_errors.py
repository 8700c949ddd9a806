"""A search the core cannot read, said in the user's words: where, and what is wrong.

The core's QuerySyntaxError carries a code and its parts; the sentence is built
here. The values offered are in the words the filter was typed in: 类型:不存在 lists
事实、偏好…, type:xyz lists fact, preference… (both are typed as written).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def _problems() -> dict[str, str]:
    return {
        "unclosed_quote": translate("QueryErrors", "this quotation mark is never closed"),
        "lone_minus": translate("QueryErrors", "a minus sign must be followed by what to leave out"),
        "unmatched_close": translate("QueryErrors", "“)” has no “(” before it"),
        "or_sides": translate("QueryErrors", "OR needs something on both sides"),
        "and_sides": translate("QueryErrors", "AND needs something on both sides"),
        "expected_term": translate("QueryErrors", "something to search for is missing here"),
        "empty_brackets": translate("QueryErrors", "the brackets are empty"),
        "unclosed_bracket": translate("QueryErrors", "this “(” is never closed"),
        "empty_quotes": translate("QueryErrors", "the quotation marks are empty"),
        "needs_value": translate("QueryErrors", "{field} needs a value after it"),
        "importance_range": translate("QueryErrors", "importance is a whole number from 1 to 10, not “{value}”"),
        "unknown_value": translate("QueryErrors", "{field} has no value “{value}”; use one of {allowed}"),
        "unknown_filter": translate("QueryErrors", "there is no filter “{typed}”; did you mean {suggestion}:?"),
        "not_date": translate("QueryErrors", "“{value}” is not a date; write 2024, 2024-05, 2024-05-31 or 7d"),
        "unreal_date": translate("QueryErrors", "“{value}” is not a real date"),
        "before_year_one": translate("QueryErrors", "“{value}” reaches back before year 1"),
    }


def _allowed(field: str, typed: str, allowed) -> str:
    """The values to offer, in the words of the filter as typed: 类型 → 事实、偏好…, type → fact, preference…"""
    if typed.isascii():
        return translate("QueryErrors", ", ").join(allowed)
    from memdesk.core.search.query import VALUE_NAMES  # only when a query fails: kept off start-up

    chinese = {}
    for word, value in VALUE_NAMES[field].items():
        chinese.setdefault(value, word)
    return "、".join(chinese.get(value, value) for value in allowed)


def query_error_text(error) -> str:
    """“At character 4: …” for a QuerySyntaxError; its English reason if the code is unknown."""
    problem = _problems().get(getattr(error, "code", ""), "")
    params = dict(getattr(error, "params", {}))
    if not problem:
        problem = error.reason
    elif error.code == "unknown_value":
        params["allowed"] = _allowed(params["field"], params["typed"], params["allowed"])
        params["field"] = params["typed"]
    where = translate("QueryErrors", "At character {n}: {problem}")
    return where.format(n=error.position + 1, problem=problem.format(**params))
