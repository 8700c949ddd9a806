"""The clause by which a question picks its subject: "那个年龄是33岁的人，其职业是什么？".

Such a question asks two hops: the clause (年龄是33岁的人) finds who is meant
("我的上司33岁"), and the rest asks that one's attribute ("我的上司是当老师的"),
which shares no word with the clause. Related-term expansion (keyword.py) is
what reaches the second hop, but it takes its feedback from the best two hits
of the whole question, and those are often memories of other people that
match the asked attribute (张伟的职业, 表姐的单位): their names then widen the
query instead of the subject's. Here the clause is read apart, in Chinese's
relative-clause form — 那(个|位) + modifier + 的 + a short head noun, before a
comma or the verb the question goes on with; not 那天 or 那 + a pronoun, which
open no clause — and the feedback comes from the
one memory that best matches the clause, at the weight of the query's own
words (KeywordSettings.bridge_weight). When a second memory matches the clause
nearly as well (two people are 33), the subject is unclear and nothing is added,
as for any expansion. Without a clause, nothing changes.

The evidence that it helps search is one benchmark's (MemDaily, with and without the
Chinese distractors), and bridge_weight was set on it.

Measured (bench/retrieval.py, keyword-only, R@5, 2026-12-02), off -> on: MemDaily
0.906 -> 0.911 (conditional 0.930 -> 0.938, noisy 0.924 -> 0.933, post_processing
0.887 -> 0.894; MRR@10 0.943 -> 0.948); with the Chinese distractors 0.825 ->
0.846 (conditional 0.843 -> 0.874, noisy 0.788 -> 0.838, post_processing 0.749 ->
0.789); LoCoMo (English) unchanged. Variants on every third MemDaily store with
the distractors (492 questions, 0.817 off): the clause's best two memories at the
plain expansion's weight 0.5 0.819, at 1.0 0.833, at 1.5 0.839; its best one at
1.0 0.843 (kept: "那个…的人" names one subject).
"""

from __future__ import annotations

import re

# 那 with a classifier (那个, 那位, 那些, 那家), alone, or as 那么 "so," before the clause; not the
# other words 那 begins (那么多 "so many", 那天 / 那时 / 那年 / 那会儿 "then", 那样, 那里 / 那边 / 那儿)
# nor 那 before a pronoun (那你…, "then you…").
_LEAD = (
    r"(?:^|(?<=[，,。？?！!；;：:\s]))"
    r"那(?:个|位|些|家|么(?![多大高远久好长重])[，,]?|(?![么天时年会样里边儿我你他她它咱]))"
)
# Up to a comma: the last 的 before it, and a short head noun (那个来自辽宁沈阳的，他……).
_TO_COMMA = re.compile(_LEAD + r"(?P<clause>[^，,。？?！!；;]{2,80}的[\u4e00-\u9fff]{0,2})[，,]")
# No comma: the first 的 and head noun the question goes on from (那个29岁的人是在哪个单位……).
_TO_VERB = re.compile(_LEAD + r"(?P<clause>[^，,。？?！!；;]{2,80}?的[\u4e00-\u9fff]{1,2}?)(?=是|在)")


def bridge_clause(question: str) -> str | None:
    """The relative clause a question picks its subject by ("年龄是33岁的人"); None if none."""
    found = _TO_COMMA.search(question) or _TO_VERB.search(question)
    return found.group("clause") if found else None
