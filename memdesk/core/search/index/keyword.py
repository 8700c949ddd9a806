"""The keyword side of search: fields -> terms -> two BM25 fields.

A memory's title, content, summary, tags and group become one weighted bag
of word terms (title and tags count double: they are what the user chose to
name the memory by) and one bag of CJK bigrams. The bigram field scores at
half weight: it exists to catch what jieba cut differently, not to outvote
whole words.

Questions in a chatty message ("今天天气真好……我路过的商场怎么样？") are what
the user wants; the sentences around them weigh less (QUESTION_FOCUS).

Related-term expansion (pseudo-relevance feedback, RM3-style): for
sentence-like queries (a question mark, or at least two function words such
as "when did", "的…是") the best keyword hits lend their most specific terms
to a second query. That finds the memory that answers a question about
something the first hit names ("that 600-person event" -> its name -> its
duration). Not when the best hits answer alike (the third scores close to
the first: "有几个活动的规模超过千人？" asks about a class, and one hit's
other facts are noise). Questions are also widened with synonyms
(thesaurus.py). Short keyword queries are left literal. A question that
picks its subject by a clause ("那个年龄是33岁的人，其职业……") takes its
feedback from the one memory that clause finds (bridge.py, figures there).

Figures, keyword-only, R@5 (MemDaily / with distractors / LoCoMo):
quoted passages ranked, not required (engine): 0.852 -> 0.875;
no expansion for alike hits (expand_tie 0.8, 0.2 for "how many"): 0.889,
LoCoMo 0.626 -> 0.636; synonyms at 0.3: 0.904 / 0.807 (0.2: 0.898,
0.45: 0.895; LoCoMo, English, unchanged).

Chinese as typed (pinyin.py, script.py): a third field holds each word's
pinyin reading and initials; letters in a keyword query look them up (not
in sentences: those are English or Chinese questions). Traditional text and
queries are folded to simplified by normalise. A lone function character
(stopwords.LONE) scores only beside another match. Together they leave the
figures as they were (LoCoMo R@5 / R@10 0.6355 / 0.7181, MemDaily R@5
0.9033, with distractors 0.8053 / 0.8803); function-word weighting then
moves the last to 0.8075 / 0.8817 (wordclass.py). A query's numbers also
count in their other spellings (八月 -> 08; numbers.py, figures there), and an
English question's irregular verbs in their other forms (go -> went;
inflection.py, figures there).

Expansion variants tried and left out (keyword-only R@5 / R@10; LoCoMo all stores,
0.6355 / 0.7181 before; MemDaily every 5th store, 296 questions, 0.9016 / 0.9828):
a related term only when several feedback documents hold it (the top 2 both:
0.6176 / 0.6966, MemDaily 0.8892 / 0.9566; 2 of the top 3, 5 or 8, or 3 of 5 or 8:
LoCoMo 0.591-0.613) -- as bad as no expansion (0.6137 / 0.6909; MemDaily 0.8647 /
0.9347): the term that finds the second hop is in the first hit alone, and the terms
several hits share are the chatter. Feedback documents weighted (score / best)^2 or
^3 instead of linearly: LoCoMo 0.6370 / 0.7201, 0.6383 / 0.7202, MemDaily 0.9050 /
0.9803, 0.9067 / 0.9803, but with MiniLM 0.6643 -> 0.6611 (R@10 +0.004): within
noise, mixed. One feedback document: 0.6201 / 0.7058 (MemDaily 0.9067 / 0.9786);
three: 0.6307 / 0.7218 (0.8963 / 0.9816).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from memdesk.core.domain.records import MemoryRecord
from memdesk.core.search.index.bm25 import BM25Field
from memdesk.core.search.index.indexed import MemoryText
from memdesk.core.search.index.keyword_settings import KeywordSettings
from memdesk.core.search.language.answer_words import answer_words
from memdesk.core.search.language.bridge import bridge_clause
from memdesk.core.search.language.focus import QUESTION_MARK, SENTENCE_END, split_focus
from memdesk.core.search.language.inflection import other_forms
from memdesk.core.search.language.kinds import kind_members
from memdesk.core.search.language.numbers import other_spellings
from memdesk.core.search.language.pinyin import INITIALS, SHARED_PINYIN, Pinyin
from memdesk.core.search.language.stopwords import LONE
from memdesk.core.search.language.thesaurus import Thesaurus
from memdesk.core.search.language.tokenize import Tokenizer, normalise
from memdesk.core.search.language.wordclass import function_words

SCRIPT_SEP, PINYIN_SEP, WORDS_SEP = " = ", " → ", "、"  # how explain shows them: "飲料 = 饮料", "kafei → 咖啡、咖啡因"
FIELD_WEIGHTS = {"title": 2.0, "content": 1.0, "summary": 1.0, "tags": 2.0, "group": 1.0}
# Whole weights as ints, so whole counts come out as ints (stored as such) without a pass to convert them.
_WHOLE_WEIGHTS = {name: int(w) if w.is_integer() else w for name, w in FIELD_WEIGHTS.items()}
_ENGLISH_WORD = re.compile(r"[a-z]+")
_COUNTING = re.compile(r"有几|几个|多少个|多少人|多少次|\bhow many\b|\bhow often\b", re.I)


@dataclass
class QueryTerms:
    words: dict[str, float] = field(default_factory=dict)
    bigrams: dict[str, float] = field(default_factory=dict)
    sentence: bool = False  # reads like a sentence (a question, or function words)
    counting: bool = False  # asks how many: about a class, not one thing
    synonyms: dict[str, float] = field(default_factory=dict)  # added by the thesaurus (also in words)
    pinyin: dict[str, float] = field(default_factory=dict)  # readings ("kafei", "#kf") the query spells
    clause: str = ""  # the clause that picks the question's subject (bridge.py), read by expansion

    def __bool__(self) -> bool:
        return bool(self.words or self.bigrams or self.pinyin)

    def add(self, other: QueryTerms, scale: float = 1.0) -> None:
        for mine, theirs in ((self.words, other.words), (self.bigrams, other.bigrams), (self.pinyin, other.pinyin)):
            for term, weight in theirs.items():
                mine[term] = mine.get(term, 0.0) + weight * scale


def searchable_text(record: MemoryText) -> str:
    """Everything a memory can be found by, normalised (also the substring haystack)."""
    parts = (record.title, record.content, record.summary, " ".join(record.tags), record.group)
    return normalise("\n".join(p for p in parts if p))


def document_terms(
    tokenizer: Tokenizer, record: MemoryText, overlay: frozenset[str] = frozenset()
) -> tuple[dict[str, float], dict[str, float]]:
    """A memory's (word, bigram) bags, weighted by field (whole counts as ints); overlay: its
    store's vocabulary in it."""
    words: dict[str, float] = {}
    grams: dict[str, float] = {}
    fields = {
        "title": record.title,
        "content": record.content,
        "summary": record.summary,
        "tags": " ".join(record.tags),
        "group": record.group.replace("/", " "),
    }
    for name, text in fields.items():
        if not text:
            continue
        weight = _WHOLE_WEIGHTS[name]
        text = normalise(text)
        mine = frozenset(w for w in overlay if w in text) if overlay else overlay
        for term in tokenizer.words(text, normalised=True, overlay=mine):
            words[term] = words.get(term, 0) + weight
        for term in tokenizer.bigrams(text, normalised=True):
            grams[term] = grams.get(term, 0) + weight
    return words, grams


def document_pinyin(words: dict[str, float], pinyin: Pinyin = SHARED_PINYIN) -> dict[str, float]:
    """A memory's pinyin bag, from its word bag (computed when it is written)."""
    return pinyin.document_terms(words)


SHARED_THESAURUS = Thesaurus()  # read once per process, on first use


class KeywordIndex:
    def __init__(
        self,
        tokenizer: Tokenizer,
        settings: KeywordSettings | None = None,
        thesaurus: Thesaurus | None = None,
        pinyin: Pinyin | None = None,
    ):
        self.tokenizer = tokenizer
        self.thesaurus = thesaurus or SHARED_THESAURUS
        self.reader = pinyin or SHARED_PINYIN
        self.settings = s = settings or KeywordSettings()
        self.words = BM25Field(k1=s.k1, b=s.b, epsilon=s.epsilon)
        self.bigrams = BM25Field(k1=s.k1, b=s.b, epsilon=s.epsilon)
        self.pinyin = BM25Field(k1=s.k1, b=s.b, epsilon=s.epsilon)

    # -- documents -------------------------------------------------------------
    def set(self, slot: int, record: MemoryRecord) -> None:
        words, grams = document_terms(self.tokenizer, record)
        self.words.set(slot, words)
        self.bigrams.set(slot, grams)
        self.pinyin.set(slot, document_pinyin(words, self.reader))

    def remove(self, slot: int) -> None:
        self.words.remove(slot)
        self.bigrams.remove(slot)
        self.pinyin.remove(slot)

    # -- queries -----------------------------------------------------------------
    def analyse_parts(self, texts: list[str]) -> list[QueryTerms]:
        """One QueryTerms per question when a message asks several, else one.

        "对于我路过的商场……？另外，那个地点是南京的活动，其时间是什么？" asks two
        things; ranked as one bag, the better-matching question fills every
        place. Ranked apart and fused, each gets its share. The chatter
        around the questions goes into every part at question_focus weight.
        Where a focus cue marks the questions ("我真正想问的是：", focus.py), the
        questions asked on the way are chatter too, at focus_chatter weight.
        """
        joined = normalise(" ".join(texts))
        focused = split_focus(joined) if self.settings.focus_cues else None
        if focused is not None:  # "……要不要去买点水果呢？对了，我想问，……？": focus.py
            questions, rest = focused
            chatter = [QUESTION_MARK.sub("。", rest)] if rest else []  # chatter's questions weigh as chatter
        else:
            sentences = [s for s in SENTENCE_END.split(joined) if s.strip()]
            questions = [s for s in sentences if s.rstrip()[-1:] in "?？"]
            if len(questions) < 2:
                single = self.analyse(texts)
                if len(questions) == 1:
                    self._add_clause(single, questions[0])
                return [single]
            chatter = [s for s in sentences if s.rstrip()[-1:] not in "?？"]
        weight = self.settings.focus_chatter if focused is not None else self.settings.question_focus
        parts = []
        for question in questions:
            part = self.analyse([question])
            self._add_clause(part, question)
            if chatter and weight > 0:
                part.add(self.analyse([" ".join(chatter)]), weight)
            part.sentence = True
            parts.append(part)
        return parts

    def analyse(self, texts: list[str]) -> QueryTerms:
        """Query terms of the free words and phrases, with question focus."""
        terms = QueryTerms()
        said: list[str] = []  # the words as cut, before any is added (kinds.py reads them)
        for text in texts:
            text = normalise(text)
            sentences = [s for s in SENTENCE_END.split(text) if s.strip()]
            asks = [s.rstrip()[-1:] in "?？" for s in sentences]
            focus = len(sentences) > 1 and any(asks)
            stops = 0
            for sentence, is_question in zip(sentences, asks):
                weight = 1.0 if (is_question or not focus) else self.settings.question_focus
                words, dropped = self.tokenizer.words_and_stops(
                    sentence, normalised=True, subwords=self.settings.query_subwords
                )
                stops += dropped
                said += words
                for term in words:
                    terms.words[term] = terms.words.get(term, 0.0) + weight
                if self.settings.number_weight > 0:
                    self._add_spellings(terms, sentence, weight * self.settings.number_weight)
                if self.settings.inflection_weight > 0:
                    self._add_forms(terms, sentence, weight * self.settings.inflection_weight)
                if is_question and self.settings.answer_weight > 0:
                    self._add_known(terms, answer_words(sentence), weight * self.settings.answer_weight)
                for term in self.tokenizer.bigrams(sentence, normalised=True):
                    terms.bigrams[term] = terms.bigrams.get(term, 0.0) + weight
            terms.sentence = terms.sentence or any(asks) or stops >= 2
            terms.counting = terms.counting or any(
                _COUNTING.search(s) for s, q in zip(sentences, asks) if q or not focus
            )
        if terms.sentence and self.settings.function_weight != 1.0:
            function = function_words()
            for term in terms.words:
                if term in function:
                    terms.words[term] *= self.settings.function_weight
        if terms.sentence and self.settings.synonym_weight > 0:
            self._add_synonyms(terms)
        if terms.sentence and self.settings.kind_weight > 0:
            self._add_known(terms, kind_members(said), self.settings.kind_weight)
        if not terms.sentence and self.settings.pinyin_weight > 0:
            self._add_pinyin(terms, texts)
        return terms

    def _add_clause(self, terms: QueryTerms, question: str) -> None:
        """The clause that picks the question's subject, for the expansion (bridge.py)."""
        if self.settings.bridge_weight > 0:
            terms.clause = bridge_clause(question) or ""

    def _add_spellings(self, terms: QueryTerms, sentence: str, weight: float) -> None:
        """The sentence's numbers in the other spellings the index holds (numbers.py)."""
        for form in other_spellings(sentence):
            if form not in terms.words and self.words.df(form) > 0:
                terms.words[form] = weight

    def _add_forms(self, terms: QueryTerms, sentence: str, weight: float) -> None:
        """The sentence's irregular verbs in their other forms the index holds (inflection.py)."""
        for word in _ENGLISH_WORD.findall(sentence):
            for form in other_forms(word):
                term = self.tokenizer.stem(form)
                if term not in terms.words and self.words.df(term) > 0:
                    terms.words[term] = weight

    def _add_known(self, terms: QueryTerms, words: list[str], weight: float) -> None:
        """Words the question implies (answer_words.py, kinds.py), as the index cuts
        them, at ``weight`` where the index holds them and the question has not."""
        for word in words:
            for term in self.tokenizer.words(word, normalised=True):
                if term not in terms.words and self.words.df(term) > 0:
                    terms.words[term] = weight

    def _add_pinyin(self, terms: QueryTerms, texts: list[str]) -> None:
        """The readings the query's letters spell (pinyin.py). Not for sentences: an
        English question is not pinyin, and a pinyin user types a few words."""
        if not any(c.isascii() and c.isalpha() for text in texts for c in text):
            return
        for term, weight in self._pinyin_terms(texts, self.settings.pinyin_weight).items():
            terms.pinyin[term] = max(terms.pinyin.get(term, 0.0), weight)

    def _pinyin_terms(self, texts: list[str], weight: float) -> dict[str, float]:
        """Indexed readings the texts spell: full at ``weight``, initials at half."""
        out: dict[str, float] = {}
        if self.pinyin.doc_count() == 0 or self.pinyin.total_length() <= 0:
            return out
        known = lambda term: self.pinyin.df(term) > 0  # noqa: E731
        units, initials = self.reader.query_units(normalise(" ".join(texts)))  # "ka fei": two words, one reading
        for alternatives in units:
            for letters in alternatives:
                for term in self.reader.cover(letters, known):
                    out[term] = weight
        for letters in initials:
            if known(INITIALS + letters):
                out.setdefault(INITIALS + letters, weight / 2)
        return out

    def _add_synonyms(self, terms: QueryTerms) -> None:
        """Widen a question with its words' synonyms, each at a fraction of the word's weight."""
        extra: dict[str, float] = {}
        for word, weight in terms.words.items():
            if len(word) < self.settings.synonym_min_chars:
                continue
            for mate in self.thesaurus.mates(word):
                for term in self.tokenizer.words(mate, normalised=True):
                    if term not in terms.words:
                        extra[term] = max(extra.get(term, 0.0), weight * self.settings.synonym_weight)
        terms.words.update(extra)
        terms.synonyms.update(extra)

    def scores(self, terms: QueryTerms, size: int) -> tuple[np.ndarray, np.ndarray]:
        """(word BM25, bigram BM25) per slot; the keyword score is word + w * bigram
        (+ the pinyin score, pinyin_scores).

        A single character that means nothing alone (stopwords.LONE: 不, 没, 太 …)
        scores only in memories that match something else: "zzzqqq不存在" must
        not find every memory with a 不 in it.
        """
        word_scores = np.zeros(size)
        gram_scores = np.zeros(size)
        lone = {t: w for t, w in terms.words.items() if len(t) == 1 and t in LONE}
        self.words.add_weighted({t: w for t, w in terms.words.items() if t not in lone}, word_scores)
        self.bigrams.add_weighted(terms.bigrams, gram_scores)
        if lone:
            extra = np.zeros(size)
            self.words.add_weighted(lone, extra)
            matched = (word_scores > 0) | (gram_scores > 0)
            if terms.pinyin:
                matched |= self.pinyin_scores(terms, size) > 0
            word_scores += np.where(matched, extra, 0.0)
        return word_scores, gram_scores

    def pinyin_scores(self, terms: QueryTerms, size: int) -> np.ndarray:
        """BM25 of the readings the query spells (already weighted by pinyin_weight)."""
        out = np.zeros(size)
        if terms.pinyin:
            self.pinyin.add_weighted(terms.pinyin, out)
        return out

    def combined(self, terms: QueryTerms, size: int) -> np.ndarray:
        word_scores, gram_scores = self.scores(terms, size)
        return word_scores + self.settings.bigram_weight * gram_scores + self.pinyin_scores(terms, size)

    def should_expand(self, terms: QueryTerms) -> bool:
        """Only sentences: a few keywords mean exactly what they say."""
        return terms.sentence and len(terms.words) >= self.settings.expand_min_terms

    def expansion(self, terms: QueryTerms, scores: np.ndarray, allowed: np.ndarray) -> QueryTerms:
        """Terms the top hits add to the query (original terms excluded)."""
        s = self.settings
        weight, docs = s.expand_weight, s.expand_docs
        clause = self.analyse([terms.clause]) if terms.clause else None  # analysed only when expanding
        if clause:
            scores = self.combined(clause, len(scores))
            weight, docs = s.bridge_weight, 1  # "那个…的人": one subject
        ranked = np.where(allowed & (scores > 0))[0]
        if len(ranked) == 0:
            return QueryTerms()
        order = ranked[np.argsort(-scores[ranked], kind="stable")]
        top = order[:docs]
        best = scores[top[0]]
        tie = s.expand_tie_counting if terms.counting else s.expand_tie
        if len(order) > docs and scores[order[docs]] >= tie * best:
            return QueryTerms()
        extra = QueryTerms()
        for bag, source, out in ((self.words, terms.words, extra.words), (self.bigrams, terms.bigrams, extra.bigrams)):
            weights: Counter = Counter()
            for slot in top:
                doc = bag.doc_weights(int(slot))
                length = sum(doc.values()) or 1.0
                share = scores[slot] / best
                for term, tf in doc.items():
                    if term not in source:
                        weights[term] += share * tf / length * bag.idf(term)
            chosen = [(t, w) for t, w in weights.most_common(s.expand_terms) if w > 0]
            if chosen:
                top_weight = chosen[0][1]
                for term, w in chosen:
                    out[term] = weight * w / top_weight
        return extra

    def matched_many(self, slots: list[int], terms: QueryTerms) -> list[tuple[list[str], list[str]]]:
        """Per hit, the query words and bigrams it contains (for explain). A field that answers
        for all hits at once (the stored index's, from the query's postings) is asked once per term."""

        def holders(field, query: dict) -> dict[str, set]:
            many = getattr(field, "holding", None)
            if many is not None:
                return {t: many(slots, t) for t in query}
            return {t: {s for s in slots if field.contains(s, t)} for t in query}

        words, grams = holders(self.words, terms.words), holders(self.bigrams, terms.bigrams)
        return [([t for t in terms.words if s in words[t]], [t for t in terms.bigrams if s in grams[t]]) for s in slots]

    def matched_pinyin(self, slot: int, terms: QueryTerms) -> list[str]:
        """ "kafei → 咖啡" for each reading the query spells that this memory holds."""
        out = []
        for term in terms.pinyin:
            if self.pinyin.contains(slot, term):
                words = self.reader.words_for(term, self.words.doc_weights(slot))
                shown = term[len(INITIALS) :] if term.startswith(INITIALS) else term
                out.append(f"{shown}{PINYIN_SEP}{WORDS_SEP.join(words[:3]) or '?'}")
        return out

    def pinyin_slots(self, word: str) -> np.ndarray:
        """Slots holding every reading ``word`` spells (kafei, ka啡, kf); empty if none."""
        found = self._pinyin_terms([word], 1.0)
        result = None  # every word the letters spell (kafeiyinliao: 咖啡 and 饮料) ...
        for term in (t for t in found if not t.startswith(INITIALS)):
            slots, _ = self.pinyin.postings(term)
            result = slots if result is None else np.intersect1d(result, slots, assume_unique=True)
        result = np.zeros(0, dtype=np.int64) if result is None else result
        for term in (t for t in found if t.startswith(INITIALS)):  # ... or a word of these initials
            result = np.union1d(result, self.pinyin.postings(term)[0])
        return result

    def word_slots(self, word: str) -> np.ndarray | None:
        """Slots holding every non-stop term of ``word``; None if it has none."""
        terms = set(self.tokenizer.words(word))
        if not terms:
            return None
        result = None
        for term in terms:
            slots, _ = self.words.postings(term)
            result = slots if result is None else np.intersect1d(result, slots, assume_unique=True)
        return result
