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
their full weight. Read from the file jieba ships (~0.3 s) once per user, then
from a 60 KB list cached beside jieba's own (~5 ms), on a process's first
question or in warm_up.

Measured (bench/retrieval.py, keyword-only), R@5 / R@10 at weight 1.0
(off) -> 0.5 (the default; a round half, not searched for):
MemDaily with the chat distractors 0.8053 / 0.8803 -> 0.8075 / 0.8817
(MRR@10 0.8921 -> 0.8938); MemDaily alone 0.9033 / 0.9779 -> 0.9034 /
0.9778; LoCoMo unchanged, 0.6355 / 0.7181 (English has no such tags). At
0.0 (dropping them): with distractors 0.8070 / 0.8811, MemDaily alone
0.9033 / 0.9774. The gain is small and where
expected: the distractors are chatty first-person lines, which function
words in a question pull up; MemDaily's questions repeat the memory's own
wording. Held-out conversational data decides whether it stays.
"""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path

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
        from memdesk.core.search.language.dictionary import import_jieba
        from memdesk.core.search.language.piece_cache import cache_path

        jieba = import_jieba()
        path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    except (OSError, ImportError):
        return frozenset()  # untagged: every word weighs the same
    cache: Path | None = None
    try:  # beside jieba's own cache (dictionary.py), keyed by the same file
        cache = cache_path(path, "jieba").with_suffix(".function-words.json")
        return frozenset(json.loads(cache.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        pass  # not yet written, or damaged: read the dictionary
    try:
        with open(path, encoding="utf-8") as handle:
            words = frozenset(_TAGGED.findall(handle.read()))
    except (OSError, UnicodeDecodeError):
        return frozenset()
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            temp = cache.with_suffix(".tmp")
            temp.write_text(json.dumps(sorted(words), ensure_ascii=False), encoding="utf-8")
            os.replace(temp, cache)
        except OSError:
            pass  # a read-only cache folder only costs the 0.3 s again
    return words
