"""Loading jieba's dictionary without stalling the window.

jieba reads its prefix dictionary (~600k entries) with one marshal.load:
one C call that holds the GIL for 50-150 ms, which freezes the window's UI
thread while a worker loads it. Here the same dictionary is cached as small
JSON pieces (piece_cache.py). The first load in a user's life goes through
jieba's own path and writes this cache.
"""

from __future__ import annotations

import logging
import os
import threading

from memdesk.core.search.language import piece_cache
from memdesk.core.search.language.jieba_route import segmenter_class


def import_jieba():
    """jieba imports pkg_resources only to open its own data files, which costs a
    fresh process ~0.3 s; without it jieba opens them by path (its own fallback)."""
    import sys

    if "jieba" in sys.modules:
        return sys.modules["jieba"]
    block = "pkg_resources" not in sys.modules
    if block:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # makes the import fail
    try:
        import jieba
    finally:
        if block:
            del sys.modules["pkg_resources"]
    return jieba


def segmenter():
    """A fresh jieba.Tokenizer with the default dictionary loaded (cutting through
    jieba_route's faster loops)."""
    jieba = import_jieba()
    jieba.setLogLevel(logging.WARNING)
    seg = segmenter_class(jieba)()
    path, cached = _cached(jieba, "jieba")
    if cached is not None:
        seg.FREQ, seg.total = cached
        seg.initialized = True
        return seg
    seg.initialize()
    if path is not None:
        piece_cache.write(path, seg.FREQ, seg.total)
    return seg


def _cached(jieba, name: str):
    """(the piece cache's path for a table made from jieba's dict.txt, (table, number) or
    None when there is none yet or it is damaged: made again and written by the caller)."""
    try:
        path = piece_cache.cache_path(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), name)
    except OSError:
        return None, None
    if not path.is_file():
        return path, None
    try:
        return path, piece_cache.read(path)
    except (OSError, ValueError):
        return path, None


def pos_tagger(segmenter=None):
    """jieba.posseg's tagger over ``segmenter``'s dictionary (a Tokenizer's loaded one), or
    over jieba's default dictionary when None. Its word tags are read once and shared:
    borrowing a loaded dictionary saves loading jieba's default a second time (~0.5 s
    and ~50 MB)."""
    pseg = _posseg()
    if segmenter is None:
        return pseg.dt
    tagger = pseg.POSTokenizer.__new__(pseg.POSTokenizer)  # its __init__ would read the tags again
    tagger.tokenizer, tagger.word_tag_tab = segmenter, pseg.dt.word_tag_tab
    return tagger


_posseg_lock = threading.Lock()


def _posseg():
    """jieba.posseg, its word tags from the piece cache. Importing it builds a tagger over
    jieba's default dictionary that parses every line of dict.txt for its tag (~0.2 s, in
    every process that saves a memory); here that parse reads an empty file instead, and
    the tags come from the cache (written from jieba's own parse the first time)."""
    import sys

    jieba = import_jieba()
    with _posseg_lock:
        if "jieba.posseg" in sys.modules:
            return sys.modules["jieba.posseg"]
        path, cached = _cached(jieba, "jieba-tags")
        if cached is None:  # jieba's own parse, kept for next time
            import jieba.posseg as pseg

            if path is not None:
                piece_cache.write(path, pseg.dt.word_tag_tab)
            return pseg
        default = jieba.dt.dictionary
        jieba.dt.dictionary = os.devnull  # the import's tagger reads this (nothing), not dict.txt
        try:
            import jieba.posseg as pseg
        finally:
            jieba.dt.dictionary = default
        pseg.dt.word_tag_tab = cached[0]
        return pseg
