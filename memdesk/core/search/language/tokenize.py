"""Turning mixed Chinese/English text into index terms.

- Everything is NFKC-normalised (full-width letters, digits and punctuation
  become their ASCII forms), case-folded and, where it holds Chinese,
  folded to simplified characters (script.py) first.
- Chinese goes through jieba in search mode (long words also yield their
  dictionary sub-words). jieba takes about a second to load its dictionary,
  so it is loaded lazily; call ``warm_up`` from a worker thread at start-up so
  the UI thread never pays for it.
- The user's own vocabulary (tags, group and persona names, short titles) is
  added to jieba so those terms stay whole.
- English words are stop-worded and stemmed (Snowball), so "researching"
  finds "researched".
- CJK character bigrams form a second field: they find words jieba cut
  differently in the memory and in the query (names, new words).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable
from typing import Any

from memdesk.core.search.language.script import fold
from memdesk.core.search.language.stopwords import BIGRAM_SKIP
from memdesk.core.search.language.stopwords import WORDS as STOP_WORDS

# Han (with extension A and compatibility ideographs), kana, hangul.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
_ALNUM = re.compile(r"[^\W_]+")
_LETTERS_DIGITS = re.compile(r"[^\W\d_]+|\d+")
_VOCAB_OK = re.compile(r"^[^\s,，。;；:：!！?？\"“”'‘’()（）\[\]【】<>《》]+$")
# Long titles would swallow their own words if added to jieba whole.
MAX_VOCAB_LEN = 12
# Short texts (tags, group names, titles) repeat across memories: their cuts are kept.
SHORT_TEXT, SHORT_CACHE = 24, 20_000


_NORMALISED: dict[str, str] = {}  # short texts (tags, groups, titles, query words) repeat


def normalise(text: str) -> str:
    """NFKC, case folding and simplified script: the form every index and every match uses."""
    short = len(text) <= SHORT_TEXT
    if short:
        known = _NORMALISED.get(text)
        if known is not None:
            return known
    out = unicodedata.normalize("NFKC", text).casefold()
    out = fold(out) if _HAS_CJK.search(out) else out
    if short:
        if len(_NORMALISED) >= SHORT_CACHE:
            _NORMALISED.clear()
        _NORMALISED[text] = out
    return out


def has_cjk(text: str) -> bool:
    return _HAS_CJK.search(text) is not None


_VOCAB_TERM: dict[str, str] = {}  # a word's vocabulary term ("" when it makes none); words repeat


def vocabulary_terms(words: Iterable[str]) -> list[str]:
    """The user terms (tags, group and persona names, short titles) jieba should keep whole."""
    out = []
    for word in words:
        term = _VOCAB_TERM.get(word)
        if term is None:
            term = normalise(word or "").strip()
            if not (len(term) <= MAX_VOCAB_LEN and has_cjk(term) and _VOCAB_OK.match(term)):
                term = ""
            if len(_VOCAB_TERM) >= SHORT_CACHE:
                _VOCAB_TERM.clear()
            _VOCAB_TERM[word] = term
        if term and term not in out:
            out.append(term)
    return out


def substrings(text: str, longest: int = MAX_VOCAB_LEN) -> set[str]:
    """Every piece of 2..longest characters of ``text`` that holds a CJK character:
    the candidates for vocabulary terms inside a text."""
    out: set[str] = set()
    for chunk in text.split():
        n = len(chunk)
        for start in range(n):
            for end in range(start + 2, min(n, start + longest) + 1):
                piece = chunk[start:end]
                if _HAS_CJK.search(piece):
                    out.add(piece)
    return out


class Tokenizer:
    """Word and bigram terms for the keyword index. Thread-safe."""

    def __init__(self, *, hmm: bool = True, cache_size: int = 0):
        self._hmm = hmm
        # Cut texts kept by their normalised form. Off by default (it costs
        # memory); the benchmarks index the same distractors into every store.
        self._cache_size = cache_size
        self._cache: dict[str, tuple[tuple[str, ...], int]] = {}
        self._lock = threading.RLock()
        self._jieba = None
        self._vocabulary: set[str] = set()
        self._stems: dict[str, str] = {}
        self._stemmer: Any = None  # a snowballstemmer stemmer (untyped), made on first use
        self._freqs: dict[str, int] = {}  # overlay words' suggested frequencies
        self._tagger: tuple[bool, Any] | None = None  # (user words added?, jieba.posseg tagger)

    # -- loading -----------------------------------------------------------
    def warm_up(self) -> None:
        """Load jieba's dictionary now (about a second). Call off the UI thread."""
        self._segmenter()

    @property
    def loaded(self) -> bool:
        return self._jieba is not None

    def _segmenter(self):
        if self._jieba is None:
            with self._lock:
                if self._jieba is None:
                    from memdesk.core.search.language.dictionary import (
                        segmenter as load,  # jieba: heavy, only when first needed
                    )

                    segmenter = load()  # our own instance: user words stay ours
                    for word in self._vocabulary:
                        segmenter.add_word(word)
                    self._jieba = segmenter
        return self._jieba

    def tagged(self, text: str) -> list[tuple[str, str]]:
        """(word, part of speech) pairs by jieba.posseg without its HMM, over jieba's own
        dictionary: the importance estimate's view of a text. The tagger borrows this
        tokenizer's loaded dictionary (one load serves cutting and tagging) unless user
        words were added to it for good (the in-memory index); then jieba's default one,
        so a text's tags never depend on what else was indexed."""
        from memdesk.core.search.language.dictionary import pos_tagger
        from memdesk.core.search.language.jieba_route import tagged

        segmenter = self._segmenter()
        with self._lock:  # a cut's overlay changes the dictionary for a moment
            if self._tagger is None or self._tagger[0] != bool(self._vocabulary):
                self._tagger = (bool(self._vocabulary), pos_tagger(None if self._vocabulary else segmenter))
            tagger = self._tagger[1]
            tagger.makesure_userdict_loaded()  # what posseg's cut does first
            dictionary = tagger.tokenizer
            dictionary.check_initialized()
            return tagged(dictionary.FREQ, dictionary.total, tagger.word_tag_tab, text)

    def add_vocabulary(self, words: Iterable[str]) -> list[str]:
        """Teach jieba the user's terms for good; returns the (normalised) new ones.

        The in-memory index (no store) uses this; a store's index passes its
        vocabulary per cut instead (``overlay``).

        Memories already indexed that contain a new term were cut without it;
        the index re-tokenises them (see KeywordIndex.add_vocabulary).
        """
        new = [term for term in vocabulary_terms(words) if term not in self._vocabulary]
        if not new:
            return []
        with self._lock:
            self._vocabulary.update(new)
            self._cache.clear()
            if self._jieba is not None:
                for term in new:
                    self._jieba.add_word(term)
        return new

    @property
    def vocabulary(self) -> frozenset[str]:
        return frozenset(self._vocabulary)

    # -- terms ---------------------------------------------------------------
    def words(
        self, text: str, *, normalised: bool = False, subwords: bool = True, overlay: frozenset[str] = frozenset()
    ) -> list[str]:
        """Word terms in order, with repeats (BM25 counts them).

        ``subwords``: jieba's search mode, where a long word also yields the
        dictionary words inside it (金融科技 -> 金融, 科技, 金融科技).
        """
        return self.words_and_stops(text, normalised=normalised, subwords=subwords, overlay=overlay)[0]

    def words_and_stops(
        self, text: str, *, normalised: bool = False, subwords: bool = True, overlay: frozenset[str] = frozenset()
    ) -> tuple[list[str], int]:
        """Word terms, and how many stop words were dropped (a sign of a sentence).

        ``overlay``: a store's own vocabulary terms that occur in ``text``
        (vocabulary_in). They count for this cut only, so a cut depends on
        the text and its store, never on what else this process has cut.
        """
        text = text if normalised else normalise(text)
        if not text.strip():
            return [], 0
        key = (text if subwords else "\x01" + text) + ("\x02" + "\x03".join(sorted(overlay)) if overlay else "")
        cached = self._cache.get(key)
        if cached is not None:
            return list(cached[0]), cached[1]
        segmenter = self._segmenter()
        with self._lock:
            cut = segmenter.cut_for_search if subwords else segmenter.cut
            undo = self._overlay(segmenter, overlay) if overlay else None
            try:
                pieces = list(cut(text, HMM=self._hmm))
            finally:
                if undo is not None:
                    undo()
        vocabulary = self._vocabulary | overlay if overlay else self._vocabulary
        out: list[str] = []
        stops = 0
        for piece in pieces:
            piece = piece.strip()
            if not piece:
                continue
            if has_cjk(piece):
                if piece in vocabulary or piece not in STOP_WORDS:
                    out.append(piece)
                else:
                    stops += 1
                continue
            if piece in vocabulary:
                out.append(piece)
            for run in _ALNUM.findall(piece):
                stops += self._latin(run, out)
        if self._cache_size or len(text) <= SHORT_TEXT:
            if len(self._cache) >= max(self._cache_size, SHORT_CACHE):
                self._cache.clear()
            self._cache[key] = (tuple(out), stops)
        return out, stops

    def _overlay(self, segmenter, words: frozenset[str]):
        """Put ``words`` into jieba's dictionary for one cut; returns the undo.

        Frequencies are jieba's own suggestion computed against its pristine
        dictionary (all are computed before any is added), and the total is
        left alone: the same words give the same cut in any order.
        """
        freq = segmenter.FREQ
        wanted = {}
        for word in sorted(words):
            known = self._freqs.get(word)
            if known is None:
                known = self._freqs[word] = segmenter.suggest_freq(word, False)
            wanted[word] = known
        saved: dict[str, int | None] = {}
        for word, value in wanted.items():
            saved.setdefault(word, freq.get(word))
            freq[word] = value
            for end in range(1, len(word)):
                prefix = word[:end]
                if prefix not in freq:
                    saved[prefix] = None
                    freq[prefix] = 0

        def undo() -> None:
            for word, value in saved.items():
                if value is None:
                    freq.pop(word, None)
                else:
                    freq[word] = value

        return undo

    def _latin(self, run: str, out: list[str]) -> int:
        """Append the terms of one letters/digits run; returns 1 for a stop word."""
        if run in STOP_WORDS:
            return 1
        if run.isdigit():
            out.append(run)
            return 0
        parts = _LETTERS_DIGITS.findall(run)
        if len(parts) > 1:  # "iphone15": keep it whole and findable as "iphone"
            out.append(run)
            for part in parts:
                if part not in STOP_WORDS:
                    out.append(part if part.isdigit() else self.stem(part))
            return 0
        out.append(self.stem(run))
        return 0

    def load_stemmer(self):
        """The English stemmer (importing snowballstemmer loads all its ~30 languages:
        10-40 ms, which the first English word of a search would otherwise wait for)."""
        if self._stemmer is None:
            import snowballstemmer

            self._stemmer = snowballstemmer.stemmer("english")
        return self._stemmer

    def stem(self, word: str) -> str:
        stem = self._stems.get(word)
        if stem is None:
            stem = self.load_stemmer().stemWord(word) if word.isascii() else word
            if len(self._stems) < 200_000:
                self._stems[word] = stem
        return stem

    @staticmethod
    def bigrams(text: str, *, normalised: bool = False) -> list[str]:
        """Overlapping CJK character bigrams, skipping pure particles."""
        text = text if normalised else normalise(text)
        out = []
        for run in _CJK_RUN.findall(text):
            for i in range(len(run) - 1):
                pair = run[i : i + 2]
                if pair[0] not in BIGRAM_SKIP and pair[1] not in BIGRAM_SKIP:
                    out.append(pair)
        return out


_SHARED: Tokenizer | None = None


def shared_tokenizer() -> Tokenizer:
    """One tokenizer per process: jieba's dictionary is loaded once (~50 MB)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Tokenizer()
    return _SHARED
