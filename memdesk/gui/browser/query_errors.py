"""A search the core cannot read, said in the user's words: where, and what is wrong.

The core's QuerySyntaxError carries a query_* code and its parts; reasons.py words the code.
Here the position is added and the values offered are put in the words the filter was typed
in: 类型:不存在 lists 事实、偏好…, type:xyz lists fact, preference….
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from memdesk.gui.reasons import reason_text

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def _allowed(field: str, typed: str, allowed: str) -> str:
    """The values to offer, in the words of the filter as typed: 类型 → 事实、偏好…, type → fact, preference…"""
    values = [v.strip() for v in allowed.split(",") if v.strip()]
    if typed.isascii():
        return translate("QueryErrors", ", ").join(values)
    from memdesk.core.search.query.query import VALUE_NAMES  # only when a query fails: kept off start-up

    chinese: dict[str, str] = {}
    for word, value in VALUE_NAMES[field].items():
        chinese.setdefault(value, word)
    return "、".join(chinese.get(value, value) for value in values)


def query_error_text(error) -> str:
    """“At character 4: …” for a QuerySyntaxError; its English reason if the code is unknown."""
    params = dict(error.params)
    params.pop("position", None)
    if error.code == "query_unknown_value":
        params["allowed"] = _allowed(params["field"], params["typed"], params["allowed"])
    problem = reason_text(error.code, params, error.reason)
    where = translate("QueryErrors", "At character {n}: {problem}")
    return where.format(n=error.position + 1, problem=problem)
