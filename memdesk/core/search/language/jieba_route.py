"""jieba's word graph and best route, the same answers in fewer steps.

jieba cuts a sentence in two pure-Python loops: ``get_DAG`` lists, for each position, the
ends of the dictionary words that start there, and ``calc`` picks the most probable path
through them. They are most of what an import, an add and the importance estimate spend
in jieba. Here the graph looks each prefix up once (jieba asks ``in`` and then reads it),
and the route handles the common single-choice position without building a generator for
``max``. Both give exactly jieba's results: the same lists, and the same route tuples, the
same floating-point sums in the same order, ties going where ``max`` sends them (the first
of equal tuples). ``tagged`` is jieba.posseg's cut without its HMM (the importance
estimate's) as one loop over those two, without posseg's three layers of generators and an
object per word. tests/core/search/test_jieba_route.py holds them all equal to jieba's own.
"""

from __future__ import annotations

import re
from functools import cache
from math import log
from typing import Any

# jieba.posseg's patterns (posseg/__init__.py), so that text splits where posseg splits it.
_HAN_BLOCK = re.compile("([\u4e00-\u9fd5a-zA-Z0-9+#&\\._]+)")
_SPACE = re.compile("(\r\n|\\s)")
_LATIN_RUN = re.compile("[a-zA-Z0-9]+")
_NUMBER = re.compile("[\\.0-9]+")
_LATIN_CHAR = re.compile("^[a-zA-Z0-9]$")


def word_graph(freq: dict[str, int], sentence: str) -> dict[int, list[int]]:
    """jieba.Tokenizer.get_DAG over ``freq`` (its prefix dictionary)."""
    get = freq.get
    n = len(sentence)
    graph = {}
    for start in range(n):
        ends = []
        end = start
        piece = sentence[start]
        while True:
            count = get(piece)
            if count is None:  # not even a prefix of a word
                break
            if count:
                ends.append(end)
            end += 1
            if end >= n:
                break
            piece = sentence[start : end + 1]
        graph[start] = ends or [start]
    return graph


def best_route(freq: dict[str, int], total: int, sentence: str, graph, route: dict) -> None:
    """jieba.Tokenizer.calc: ``route[i]`` = (log probability of the best cut of sentence[i:],
    the end of its first word)."""
    get = freq.get
    n = len(sentence)
    route[n] = (0, 0)
    log_total = log(total)
    for start in range(n - 1, -1, -1):
        ends = graph[start]
        if len(ends) == 1:
            end = ends[0]
            route[start] = (log(get(sentence[start : end + 1]) or 1) - log_total + route[end + 1][0], end)
            continue
        best = None
        for end in ends:
            option = (log(get(sentence[start : end + 1]) or 1) - log_total + route[end + 1][0], end)
            if best is None or option > best:
                best = option
        route[start] = best


def tagged(freq: dict[str, int], total: int, tags: dict[str, str], text: str) -> list[tuple[str, str]]:
    """(word, part of speech) pairs: jieba.posseg.POSTokenizer.cut(text, HMM=False) over a
    prefix dictionary ``freq`` (with its ``total``) and ``tags`` (its word_tag_tab)."""
    out: list[tuple[str, str]] = []
    add = out.append
    tag_of = tags.get
    for block in _HAN_BLOCK.split(text):
        if not block:
            continue
        if _HAN_BLOCK.match(block):
            route: dict = {}
            best_route(freq, total, block, word_graph(freq, block), route)
            start, n, latin = 0, len(block), ""
            while start < n:
                end = route[start][1] + 1
                word = block[start:end]
                if _LATIN_CHAR.match(word):  # single letters and digits run together as one "eng"
                    latin += word
                else:
                    if latin:
                        add((latin, "eng"))
                        latin = ""
                    add((word, tag_of(word, "x")))
                start = end
            if latin:
                add((latin, "eng"))
            continue
        for piece in _SPACE.split(block):
            if _SPACE.match(piece):
                add((piece, "x"))
                continue
            latin_piece = _LATIN_RUN.match(piece) is not None
            for ch in piece:
                add((ch, "m" if _NUMBER.match(ch) else "eng" if latin_piece else "x"))
    return out


@cache
def segmenter_class(jieba: Any) -> type:
    """A jieba.Tokenizer subclass that cuts through these two (made once jieba is imported)."""

    class Segmenter(jieba.Tokenizer):
        def get_DAG(self, sentence):  # noqa: N802 - jieba's name
            self.check_initialized()
            return word_graph(self.FREQ, sentence)

        def calc(self, sentence, DAG, route):  # noqa: N803 - jieba's names
            best_route(self.FREQ, self.total, sentence, DAG, route)

    return Segmenter
