"""The keyword ranking's knobs (keyword.py uses them), with the figures behind each."""

from __future__ import annotations

from dataclasses import dataclass

from memdesk.core.search.index.bm25 import EPSILON, K1


@dataclass(frozen=True)
class KeywordSettings:
    """Keyword ranking knobs. Figures: bench/retrieval.py, keyword-only.

    k1 stays rank-bm25's 1.5. Okapi's recommended 1.2 was measured, keyword-only
    R@5 / R@10 by k1 (1.0, 1.2, 1.5, 1.8): LoCoMo 0.6390 / 0.7229, 0.6362 /
    0.7235, 0.6355 / 0.7181, 0.6290 / 0.7165; MemDaily 0.9038 / 0.9783,
    0.9038 / 0.9784, 0.9041 / 0.9786; with distractors (1.2 vs 1.5) 0.8095 /
    0.8836 vs 0.811 / 0.884; with MiniLM LoCoMo 0.6651 / 0.7566 vs 0.6643 /
    0.756. Better on English only, within noise on Chinese: not changed.
    b = 0.5, not rank-bm25's 0.75: memories are one or two sentences, and
    full length normalisation punishes a memory for saying a little more
    (LoCoMo R@5 0.542 -> 0.571, R@10 0.626 -> 0.646; MemDaily unchanged).
    Lower was measured and left out (2026-12-02): b = 0.3 gives LoCoMo R@5
    0.657 -> 0.662 (each of the five conversations up a little, 0.4 and 0.2
    mixed) and MemDaily alike, but MemDaily with distractors 0.810 -> 0.797.
    query_subwords off: queries are cut plainly while memories keep jieba's
    sub-words, so a long query word is not counted three times over its
    parts (MemDaily R@5 with distractors 0.778 -> 0.792, without 0.855 ->
    0.858, 300-store samples); CJK bigrams still find the parts. Adding only
    a long word's parts, at 0.3 or 0.5 of its weight (邮箱地址 -> 邮箱, 地址), was
    measured and left out (2026-12-02): MemDaily R@5 0.904 -> 0.903 both,
    R@10 0.979 -> 0.980.
    """

    k1: float = K1
    b: float = 0.5
    epsilon: float = EPSILON
    bigram_weight: float = 0.5
    question_focus: float = 0.3  # weight of non-question sentences when a message asks something
    expand_min_terms: int = 3  # expansion only for queries with at least this many distinct terms
    expand_docs: int = 2
    expand_terms: int = 10
    expand_weight: float = 0.5
    expand_tie: float = 0.8  # no expansion when the third hit scores this close to the best
    expand_tie_counting: float = 0.2  # the same for "how many …" questions
    synonym_weight: float = 0.3  # of a query word's Cilin class-mates (thesaurus.py); 0 = off
    # Query words shorter than this get no synonyms. A single character's Cilin classes
    # mix its senses (叫: 鸣叫, 派遣, 称为 … 60 mates). Measured, keyword-only, MemDaily
    # without distractors: 2 gives R@5 0.9033 -> 0.9034, R@10 0.9779 -> 0.9769: no gain
    # on these files, so off (1) until held-out conversation data says otherwise.
    synonym_min_chars: int = 1
    # A question's absolute dates (June, May 3, 2023, 2023年6月) lift the keyword scores of
    # the memories saved then by this share (when.py, figures there); 0 = off.
    date_lift: float = 1.0
    expand_mode: str = "replace"  # "replace" the literal ranking, or "fuse" both by RRF
    query_subwords: bool = False  # cut queries in jieba's search mode too
    # Pinyin (pinyin.py): a query word read as a Chinese word's full reading counts
    # at this weight, its initials at half of it. Pinyin-only hits also rank after
    # every literal hit (engine), so the weight orders only among literal hits.
    pinyin_weight: float = 0.6
    # Weight of function words (wordclass.py) in sentence-like queries; 1 = off.
    # Figures in wordclass.py.
    function_weight: float = 0.5
    # A query's numbers also in their other Arabic spellings (八月 -> 8, 08; 03 -> 3), at
    # this share of their sentence's weight (the same value: 1); 0 = off. numbers.py.
    number_weight: float = 1.0
    # A chatty message's "我真正想问的是……" marks its question; the questions before it
    # are chatter (focus.py, figures there), weighing focus_chatter in each question's part.
    focus_cues: bool = True
    focus_chatter: float = 0.1
    # An English query's irregular verbs also in their other forms (go -> went, gone), at
    # this share of their sentence's weight; 0 = off. Figures in inflection.py.
    inflection_weight: float = 0.5
    # "那个年龄是33岁的人，其职业是什么？": the expansion's feedback comes from the best
    # memory for the clause that picks the subject, at this weight; 0 = off. bridge.py.
    bridge_weight: float = 1.0
    # A question's interrogative also looks for the words its answer is written with
    # (多大 -> 岁, 多高 -> 厘米), at this share of its sentence's weight; 0 = off. Figures in
    # answer_words.py.
    answer_weight: float = 0.5
    # A question's kind words also look for the kind's common members (家电 -> 洗衣机,
    # 冰箱), at this weight; 0 = off. Figures in kinds.py.
    kind_weight: float = 0.5
