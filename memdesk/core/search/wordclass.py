"""Which query words are function words, by jieba's own part-of-speech tags.

A chatty question ("我最近一直在想，上次我们一起去的那家店到底叫什么？")
carries adverbs, pronouns, conjunctions, measure words and particles that
are not stop words but say nothing about the memory sought; in BM25 they
still pull towards every memory that chats the same way. jieba's dictionary
tags each word (dict.txt: "word freq tag"); the words tagged adverb (d),
pronoun (r), conjunction (c), preposition (p), auxiliary (u*), modal
particle (y), interjection (e), onomatopoeia (o) or measure word (q) —
~4,400 of its 349k — weigh FUNCTION_WEIGHT in sentence-like queries
(keyword.py). Nouns, verbs, names, places, numbers and time words keep
their full weight. Read once per process from the file jieba ships (~0.3 s,
~0.5 MB of strings), on the first question.

Measured (bench/retrieval.py, keyword-only; the default, 1.0, is off):
MemDaily R@5 / R@10 0.9033 / 0.9779 at 1.0, 0.9034 / 0.9778 at 0.5,
0.9033 / 0.9774 at 0.0; LoCoMo unchanged (0.6355 / 0.7181: English has no
such tags). MemDaily's questions repeat the memory's wording, so the
function words they carry hardly pull; no gain here, so it stays off until
held-out conversational data (where chatter is the problem) says otherwise.
"""
from __future__ import annotations

import os
import re
import threading

_TAGGED = re.compile(r"^(\S+) \d+ (?:d|dg|r|rr|rz|c|p|u|uj|ul|uz|ud|ug|uv|y|e|o|q)$", re.M)

_lock = threading.Lock()
_words: frozenset[str] | None = None


def function_words() -> frozenset[str]:
    global _words
    if _words is None:
        with _lock:
            if _words is None:
                _words = _read()
    return _words


def _read() -> frozenset[str]:
    try:
        from .dictionary import _import_jieba

        jieba = _import_jieba()
        path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
        with open(path, encoding="utf-8") as handle:
            return frozenset(_TAGGED.findall(handle.read()))
    except (OSError, ImportError, UnicodeDecodeError):
        return frozenset()  # untagged: every word weighs the same, as before
