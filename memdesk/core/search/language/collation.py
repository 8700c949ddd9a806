"""Sort keys that put Chinese text in pinyin order, as Chinese users expect: 安 < 北 < 重庆 < 张.

A key spells each run of Chinese characters in toneless pinyin, reading words from
pypinyin's phrase table where it reads them otherwise than character by character
(重庆 chongqing, not zhongqing: search/language/pinyin.py's reader, whose tables are already on
disk and cached), other characters casefolded; the text itself breaks ties, so equal
readings (会议 / 会意) keep a fixed order. Latin letters and pinyin interleave, as in a
phone's contact list: "apple" < 安 (an) < "bus" < 北 (bei).

Why not ICU's zh collation (PySide6's QCollator, the other choice): it reads each
character alone, so 重庆 and 重要 sort together, not under chong and zhong. Measured by
bench/browser_table.py on the 2-core dev machine, quiet: keys for 100k titles 0.33 s
with these, 0.31 s with QCollator.sortKey (1.0-1.9 s and 0.8-1.5 s with other jobs
running); once, on the work lane. Sorting 100k rows by the keys: 11 ms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from memdesk.core.search.language.pinyin import Pinyin

_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_SEPARATOR = "\x01"  # between a key and its tie-breaker: below every letter, digit and space


class _Reader:
    """Han runs spelt in pinyin: the phrase table's longest piece at each character, else the
    character's first reading (search/language/pinyin.py's rule, with the phrases indexed by their
    first character: trying every length at every character was 0.8 of the time)."""

    def __init__(self) -> None:
        self.pinyin = Pinyin()
        self.phrases = self.pinyin.phrase_table()
        lengths: dict[str, set[int]] = {}
        for phrase in self.phrases:
            lengths.setdefault(phrase[0], set()).add(len(phrase))
        self.lengths = {c: tuple(sorted(n, reverse=True)) for c, n in lengths.items()}
        self.cache: dict[str, str] = {}

    def spell(self, run: str) -> str:
        spelt = self.cache.get(run)
        if spelt is not None:
            return spelt
        phrases, lengths, char = self.phrases, self.lengths, self.pinyin.char
        out: list[str] = []
        i = 0
        while i < len(run):
            for n in lengths.get(run[i], ()):
                piece = phrases.get(run[i : i + n])
                if piece is not None:
                    out.append(piece)
                    i += n
                    break
            else:
                out.append((char(run[i]) or (run[i],))[0])
                i += 1
        spelt = " ".join(out) + " "
        if len(self.cache) < 200_000:
            self.cache[run] = spelt
        return spelt


_reader: _Reader | None = None


def _pinyin() -> _Reader:
    global _reader
    if _reader is None:
        _reader = _Reader()
    return _reader


def sort_key(text: str) -> str:
    """A string whose code-point order is ``text``'s pinyin order."""
    if not text:
        return ""
    folded = text.casefold()
    if folded.isascii():
        return folded + _SEPARATOR + text
    spell = _pinyin().spell
    return _HAN_RUN.sub(lambda match: spell(match.group(0)), folded).strip() + _SEPARATOR + text


def rank_of(texts: Iterable[str]) -> dict[str, int]:
    """Each distinct text's place in pinyin order (0 first)."""
    distinct = set(texts)
    return {text: place for place, text in enumerate(sorted(distinct, key=sort_key))}


def order(keys: np.ndarray, *, descending: bool = False) -> np.ndarray:
    """Positions that sort ``keys`` (numbers or ranks), stably: ties keep their order either way."""
    return np.argsort(-keys if descending else keys, kind="stable")
