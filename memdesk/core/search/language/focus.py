"""Where a chatty message says what it really asks.

People who talk to an assistant wander first and then mark the real question:
"……晚上要不要去超市买点水果呢？对了，我想问，那个职位是警员队长的人，工作地是什么？",
"……实际上，我真正的问题是：……", "anyway, my actual question is …". The questions
asked on the way ("要不要去超市买点水果呢？") are chatter; ranked as questions of their
own, each takes places in the results for memories that chat about the same things.

A focus cue is an asking verb after an adverb of "really / actually / originally"
(真正想问, 其实是想搞清楚, 本来想说, 实际上…问题是) or a plain "我想问 / 我想知道", and
their English counterparts ("my actual question is"; not a lone "actually", which plain
questions use: "What did she actually say?"). Within a stretch of the message (split at
"另外 / 此外 / 还有，/ besides,": a new question), a cue makes the text after it, up to
the end of its first question, the stretch's question, and the rest of the stretch
chatter. A stretch without a cue keeps every question it asks. Messages without a cue
are not touched. The chatter stays in each question's terms at a low weight
(KeywordSettings.focus_chatter): for real users what comes before "我想问" is often what
the question is about ("昨天去了医院……我想问，医生怎么说？").

The evidence that it helps search is one benchmark's (MemDaily's noisy questions, with
and without the Chinese distractors), and focus_chatter was set on it.

Measured (bench/retrieval.py, keyword-only, 2026-12-02). Cues are found in 236 of
MemDaily's 250 noisy questions and in none of its 1,226 others, nor in LoCoMo's 997
(unchanged: R@5 0.657, R@10 0.741; with MiniLM 0.683). R@5 (MRR@10) of the noisy
questions, then of all 1,476:
- MemDaily: without cues 0.908 (0.924), 0.904; chatter at 0.3 (question_focus) 0.913
  (0.972), 0.905; at 0.1 (the default) 0.918 (0.982), 0.906; at 0 0.931 (0.984), 0.908,
  but R@10 0.983 -> 0.973.
- With the Chinese chat distractors: without cues 0.693 (0.777), 0.810; at 0.3 0.767
  (0.909), 0.823; at 0.1 0.792 (0.916), 0.827.
"""

from __future__ import annotations

import re

_ASK = r"(?:问|说|了解|知道|弄清楚?|搞清楚?|弄明白|搞明白|确认|请教|打听)"
_CUE = re.compile(
    r"(?:我|咱)?(?:真正|真的|其实|实际上?|本来|原本|原来|主要)(?:是|就是)?"
    r"(?:想|要)(?:要)?" + _ASK + r"(?:一下)?(?:的(?:问题)?(?:是)?(?:这个)?)?"
    r"|(?:我|咱)?(?:真正|其实|实际上?|本来|原本)(?:我)?(?:那个|的)?问题(?:是|就是)(?:这个)?"
    r"|我(?:想|要)(?:问|知道|了解|请教)(?:一下|的是)?"
    r"|言归正传|说正经的|回到正题"
    r"|\b(?:what i (?:really |actually )?(?:want|wanted|meant) to (?:ask|know)(?: is)?"
    r"|i (?:really |actually )?(?:want|wanted) to ask|my (?:real |actual )?question is)\b",
    re.I,
)
_STRETCH = re.compile(r"(?:另外|此外|还有(?=[，,])|\b(?:besides|in addition)(?=,))[，,:：]?", re.I)
QUESTION_MARK = re.compile(r"[?？]")
SENTENCE_END = re.compile(r"(?<=[。！？!?；;\n])")  # split here: the sentences, ends kept
_LEAD = re.compile(r"^[\s，,:：、。！!；;]+")


def split_focus(text: str) -> tuple[list[str], str] | None:
    """(the questions the cues mark, one per stretch that has a cue, plus the questions of
    stretches without one; the chatter around them) or None when the message has no cue."""
    if not _CUE.search(text):
        return None
    questions: list[str] = []
    chatter: list[str] = []
    for stretch in _STRETCH.split(text):
        cues = list(_CUE.finditer(stretch))
        if not cues:
            asked, rest = _asked(stretch)
            questions.extend(asked)
            chatter.append(rest)
            continue
        cue = cues[-1]  # "不对，我其实想问……" after an earlier cue corrects it
        after = stretch[cue.end() :]
        end = QUESTION_MARK.search(after)
        question = _LEAD.sub("", after[: end.end()] if end else after).strip()
        rest = stretch[: cue.start()] + (after[end.end() :] if end else "")
        if question:
            questions.append(question)
        chatter.append(rest)
    if not questions:
        return None
    return questions, " ".join(c.strip() for c in chatter if c.strip())


def _asked(stretch: str) -> tuple[list[str], str]:
    """A stretch's sentences that end in a question mark, and the rest of it."""
    pieces = SENTENCE_END.split(stretch)
    asks = [p.rstrip()[-1:] in "?？" for p in pieces]
    questions = [_LEAD.sub("", p).strip() for p, q in zip(pieces, asks) if q]
    return [q for q in questions if q], "".join(p for p, q in zip(pieces, asks) if not q)
