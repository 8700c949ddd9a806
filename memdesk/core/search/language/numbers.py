"""One number, several spellings: the query's numbers also in the forms memories use.

A question asks "有几个人在八月份过生日？" and the memories say "其生日是08月26日";
another asks "03月04日是谁的生日？" of "我的上司过生日是在3月4号". jieba keeps each
spelling as its own term (八月份, 08, 03, 3), so the same date shares no term
with itself. Here each number the query writes — Arabic digits, or Chinese
numerals before a unit (八月, 二十三岁, 八千人) — is read as its value, and the
value's other Arabic spellings (8, 08; 3 for 03) join the query at the
weight of the sentence that wrote it, when the index holds them
(keyword.py). Query side only: memories are indexed as written, and a
number nobody stored adds nothing.

Not every Chinese numeral is a number: 一起, 一下, 万一 are words. A Chinese
numeral counts only before a unit of time, age or measure (NUMERAL_UNITS), or
when it has a place value (二十, 三千); a lone 一 never does, since 一 before
a measure word is Chinese's indefinite article (一个人, 哪一天), not a count; a lone
十 only before a unit, and not in 十分 ("very", as in 十分喜欢; 十分钟 is ten minutes).

The evidence that it helps search is one benchmark's (MemDaily, with and without the
Chinese distractors); the weight is 1 by principle, not by that figure.

Measured (bench/retrieval.py, keyword-only, R@5 / R@10), off -> on:
MemDaily 0.9034 / 0.9778 -> 0.9041 / 0.9786 (MRR@10 0.9324 -> 0.9330;
four "how many were born in 四月" questions gain, one loses: 九点 now also
finds the other events at 9:00); MemDaily with the Chinese distractors
0.8075 / 0.8817 -> 0.811 / 0.884 (aggregative 0.681 -> 0.699); LoCoMo
0.6355 / 0.7181 unchanged, and with MiniLM unchanged too: no LoCoMo
question gains a term its store holds (English dates are written one way
there). The weight is 1 by principle (the same value, spelled otherwise);
on MemDaily 0.5 gives the same figures, 2 gives 0.9038 / 0.9785. Before
the two exclusions above, an e-mail address's digits (wanglin0821@…) and
哪一天 each cost a question. The extra work of a query: one regular-
expression pass, and one postings read per other spelling of a number it
writes.
"""

from __future__ import annotations

import re

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_PLACES = {"十": 10, "百": 100, "千": 1000, "万": 10_000}
NUMERAL_UNITS = "月日号岁周天年点时分秒人个次元块米斤"
# Digits glued to letters are part of a name or an address (Mate60, wanglin0821@…): written one way.
_ARABIC = re.compile(r"(?<![A-Za-z\d.@_])\d{1,6}(?![A-Za-z\d.@_])")
_CHINESE = re.compile(f"[{''.join(_DIGITS)}{''.join(_PLACES)}]+")
MAX_VALUE = 999_999  # longer digit runs are ids and phone numbers: written one way


def chinese_value(numeral: str) -> int | None:
    """The value of a Chinese numeral (八, 十二, 二十三, 三千五百, 两万); None if malformed."""
    total, section, digit = 0, 0, None
    for char in numeral:
        if char in "零〇" and digit is None:
            continue  # 一百零五: a placeholder between places
        if char in _DIGITS:
            if digit is not None:
                return None  # 二三: two digits in a row is a range or a list, not a number
            digit = _DIGITS[char]
        elif char == "万":
            section += digit or 0
            total, section, digit = (total + section) * 10_000, 0, None
        else:
            section += (1 if digit is None else digit) * _PLACES[char]  # 十二: the 十 alone is 10
            digit = None
    return total + section + (digit or 0)


def _a_word(numeral: str, text: str, end: int) -> bool:
    """Whether the numeral ending at ``end`` is part of a word, not a count: 一起 (before no
    unit and without a place value), 十足 and 十分 ("very"; a lone 十 before no unit, or
    before 分 but not 十分钟, ten minutes)."""
    after = text[end : end + 1] or "\n"
    if numeral == "十":
        return after not in NUMERAL_UNITS or (after == "分" and text[end + 1 : end + 2] != "钟")
    return after not in NUMERAL_UNITS and not any(c in _PLACES for c in numeral)


def values(text: str) -> list[tuple[str, int]]:
    """(as written, value) of every number in ``text``."""
    out = [(m.group(), int(m.group())) for m in _ARABIC.finditer(text)]
    for match in _CHINESE.finditer(text):
        numeral = match.group()
        if numeral[0] in "百千万" or numeral == "一" or _a_word(numeral, text, match.end()):
            continue  # 千万, 万一 are words; 一个, 哪一天: the article "a"
        value = chinese_value(numeral)
        if value is not None:
            out.append((numeral, value))
    return out


def spellings(value: int) -> list[str]:
    """The Arabic forms a memory may write ``value`` in: 8 and 08 (months, days, hours)."""
    if not 0 <= value <= MAX_VALUE:
        return []
    forms = [str(value)]
    if value < 10:
        forms.append(f"{value:02d}")
    return forms


def other_spellings(text: str) -> list[str]:
    """Spellings of the text's numbers other than the ones it writes, in order, once each."""
    out: list[str] = []
    for written, value in values(text):
        for form in spellings(value):
            if form != written and form not in out:
                out.append(form)
    return out
