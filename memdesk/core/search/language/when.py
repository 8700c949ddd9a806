"""The dates a question names, as a soft scope on when memories were saved.

"What did Melanie paint in July 2023?", "Who did Maria have dinner with on May 3, 2023?",
"我2023年6月去了哪里？": a memory is saved when it happens or soon after, so among the
memories that match the question's words, those saved in the period it names are the
likelier answers. The words themselves ("July", "2023") rarely appear in the memory
that answers. The period is read from absolute dates only — a month name with an
optional day and year, a year (not an amount: 2000元, $1999, 2000 people), or
2023年6月3日 — and it lifts (it never filters) the
keyword scores of the matching memories saved in it by DATE_LIFT (ranker.py).
Relative times ("last week") are left alone: they are relative to the conversation,
not to the search.

A month without a year means that month of any year; a named day also takes the day
before and after it (a memory is often saved the day after). An English month name
counts next to a day or year, or capitalised after a word that introduces a time ("in
June", "since May", "early March", "the second week of November"): "may" and "march" are
verbs too, and April, May, June and August are given names ("What did June say?"). A
three-letter abbreviation counts only next to a day or year ("Jan 5", "in Jan 2023"):
alone it is more often a name ("What did Jan say?") or a word (Mar, Dec).

The evidence that the lift helps search is one benchmark's (LoCoMo; MemDaily's dates are
birthdays), and DATE_LIFT was set on it.

Measured (bench/retrieval.py; R@5 / R@10), lift 0 -> 1 (the default: a memory saved in
the named period counts twice):
LoCoMo keyword-only 0.6355 / 0.7181 -> 0.6566 / 0.7412 (even stores 0.6399 -> 0.6510,
odd 0.6280 -> 0.6664); with all-MiniLM-L6-v2 0.6643 / 0.7557 -> 0.6829 / 0.7799.
Neighbouring lifts give alike figures (keyword-only R@5 at 0.25 / 0.5 / 2: 0.6456 /
0.6536 / 0.6573). MemDaily unchanged (full set 0.9041 / 0.9786): its dates are
birthdays, and its stores were saved within days, so a named month lifts all of a
store's memories or none. With the Chinese distractors (saved April-May 2023) a
birthday month lifts that month's chat lines: full set 0.8106 / 0.8841 -> 0.8102 /
0.8835 (the 50 questions that name a month 0.5950 -> 0.5825; every 4th and every
5th store unchanged). Of LoCoMo's
questions that name a month, 113 of their 116 evidence lines were saved in it.

Cost: only for questions that name a date, two comparisons over the saved-time
column per year the period may fall in (one when the year is named, else each year
the store spans): ~0.25 ms at 100k memories, ~0.5 ms for a month of a 5-year store.
Per-memory calendar arithmetic (numpy datetime64) cost 10 ms there.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from memdesk.core.domain.times import UTC
from memdesk.core.search.language.numbers import chinese_value

DAY_S = 86400.0
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_OF = {name: i + 1 for i, name in enumerate(_MONTHS)} | {
    name[:3]: i + 1 for i, name in enumerate(_MONTHS) if name != "may"
}
_NAMES = "|".join(sorted(_MONTH_OF, key=len, reverse=True))
_ENGLISH = re.compile(
    rf"(?:\b(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<name>{_NAMES})\b\.?"  # 3 June / 3rd of June
    rf"|\b(?P<name2>{_NAMES})\b\.?(?:\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b)?)"  # June / June 3
    r"(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?",
    re.I,
)
# A bare year; not an amount (¥2000, 1999元, 2000 dollars, 1500 people) or a share (2000%).
_YEAR = re.compile(
    r"(?<![\d\-$¥￥€£])((?:19|20)\d\d)(?![\d\-%])"
    r"(?!\s*[元块圆人个位名次件张本米斤克]|\s*(?:dollars?|yuan|rmb|euros?|pounds?|people|persons|words|steps|"
    r"miles|km|kilometers|kilometres|meters|metres|kg|calories|times)\b)",
    re.I,
)
_CHINESE = re.compile(
    r"(?:(?P<year>(?:19|20)\d\d)年)?(?<![\d一二三四五六七八九十])"
    r"(?P<month>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月(?:份)?(?:(?P<day>[0-3]?\d)[日号])?"
)
_CN_YEAR = re.compile(r"((?:19|20)\d\d)年")
# Words after which a bare month name is the month: prepositions and modifiers of time.
_TIME_WORDS = frozenset(
    "in during since until till by from through throughout before after of early late mid last next this every "
    "each".split()
)


@dataclass(frozen=True)
class Period:
    """A named period: a year, a month (of that year, or of any year when year is None),
    or a day (of that month)."""

    year: int | None
    month: int | None = None
    day: int | None = None

    def mask(self, created: np.ndarray) -> np.ndarray:
        """Which of the saved times (epoch seconds, UTC) fall in the period: a few
        comparisons per year the times span, no calendar arithmetic per memory."""
        inside = np.zeros(len(created), dtype=bool)
        if len(created) == 0:
            return inside
        if self.year is not None:
            years = range(self.year, self.year + 1)
        else:
            low, high = float(created.min()), float(created.max())
            years = range(_year_of(low), _year_of(high) + 1)
        for start, end in (self._span(year) for year in years):
            inside |= (created >= start) & (created < end)
        return inside

    def _span(self, year: int) -> tuple[float, float]:
        """[start, end) in epoch seconds of the period in ``year``."""
        if self.month is None:
            return _stamp(year, 1, 1), _stamp(year + 1, 1, 1)
        if self.day is None:
            return _stamp(year, self.month, 1), _stamp(year + (self.month == 12), self.month % 12 + 1, 1)
        last = calendar.monthrange(year, self.month)[1]
        start = _stamp(year, self.month, min(self.day, last))
        return start - DAY_S, start + 2 * DAY_S  # the day, and the day before and after


def _stamp(year: int, month: int, day: int) -> float:
    return datetime(max(1, min(year, 9999)), month, day, tzinfo=UTC).timestamp()


def _year_of(moment: float) -> int:
    try:
        return datetime.fromtimestamp(moment, UTC).year
    except (OverflowError, OSError, ValueError):
        return 1970


def periods(text: str) -> list[Period]:
    """The absolute periods a text names, in order, without repeats."""
    found: list[tuple[Period, tuple[int, int]]] = [*_english(text), *_chinese(text)]
    spans = [span for _, span in found]
    named = [period for period, _ in found]
    for pattern in (_YEAR, _CN_YEAR):
        for match in pattern.finditer(text):
            if not any(start <= match.start() < end for start, end in spans):
                named.append(Period(int(match.group(1))))
    return list(dict.fromkeys(named))


def _english(text: str):
    for match in _ENGLISH.finditer(text):
        name = match.group("name") or match.group("name2")
        month = _MONTH_OF[name.lower()]
        day, year = match.group("d1") or match.group("d2"), match.group("year")
        whole = len(name) > 3 or name.lower() == "may"  # (not an abbreviation)
        if day or year or (whole and name[0].isupper() and _after_time_word(text, match.start())):
            yield Period(int(year) if year else None, month, _day(day)), match.span()


def _chinese(text: str):
    for match in _CHINESE.finditer(text):
        year, month = match.group("year"), match.group("month")
        value = int(month) if month.isdigit() else chinese_value(month)
        yield Period(int(year) if year else None, value, _day(match.group("day"))), match.span()


def _day(text: str | None) -> int | None:
    return int(text) if text and 1 <= int(text) <= 31 else None


def _after_time_word(text: str, at: int) -> bool:
    """Whether the word before ``at`` introduces a time ("in", "mid-", "last")."""
    before = text[:at].rstrip(" -").rsplit(None, 1)
    return bool(before) and before[-1].lower() in _TIME_WORDS


def period_mask(text: str, created: np.ndarray) -> np.ndarray | None:
    """Memories (by slot) saved in any period the text names; None when it names none."""
    named = periods(text)
    if not named:
        return None
    inside = np.zeros(len(created), dtype=bool)
    for period in named:
        inside |= period.mask(created)
    return inside
