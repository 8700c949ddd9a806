"""What a Chinese question's interrogative asks for, as the words its answer is written in.

"我表哥今年多大了？" is answered by "我表哥38岁了。": the two share only 表哥, and
every other memory about the cousin shares that too, while "我的下属今年27岁。"
shares 今年 as well. The question word says what kind of answer it wants: 多大
(年纪) wants an age, written with 岁; 多高 wants a height, in 厘米 or cm; 哪儿人 a
home town (老家, 家乡). Each rule below maps an interrogative phrase to the words
answers of that kind are written with, and a question that asks that way also
looks for them, at KeywordSettings.answer_weight of its sentence's weight, when
the index holds them (keyword.py). Query side only: memories are indexed as
written. The rules are general Chinese question forms about people, events and
quantities, not phrases of any test file; an attribute word a question already
writes (身高) counts as its own kind of asking, so "身高是多少" also looks for 厘米.
几天 asks how many days, but 这几天, 前几天 and 头几天 say when ("these / a few days
ago"), and ask no duration.

The evidence that it helps search is one benchmark's (MemDaily, with and without the
Chinese distractors), and answer_weight was set on it.

Measured (bench/retrieval.py, keyword-only, R@5, 2026-12-02). MemDaily: 0.911 without
this and kinds.py; 0.924 with this alone (0.922 with kinds.py alone); 0.936 with both
(0.9345 / 0.9357 / 0.9349 at answer_weight 0.3 / 0.5 / 1.0, so the middle). With the Chinese distractors the two
together take the whole file from 0.846 to 0.872; on every third store, 0.853 without
either, 0.863 with this alone, 0.877 with both. LoCoMo is unchanged (0.689 / 0.757,
with MiniLM 0.700): its questions are English. Of MemDaily's 1,476 questions the two
together help 90 and hurt 5. The losses are of one kind: "电话号码是多少" also looks
for 号码 and 电话, which lifts other people's numbers over the subject's.
"""

from __future__ import annotations

import re
from functools import cache

# (what the question writes, the words its answers are written with)
_RULES = (
    (r"多大(?:年纪|岁数|了|啦|呀|啊)?|几岁|多少岁|年纪|年龄|岁数|高寿", "岁 年龄 周岁"),
    (r"多高|身高|个子|多少(?:厘米|公分)", "身高 厘米 公分 cm"),
    (r"多重|体重|多少(?:斤|公斤)", "体重 公斤 斤 kg"),
    (r"哪(?:儿|里|个地方)的?人|老家|家乡|籍贯|来自哪|(?:家|家里)是哪|出生在哪", "老家 家乡 籍贯 来自"),
    (r"(?:在)?哪(?:儿|里|个城市)?(?:工作|上班)|工作地", "工作地 上班 工作"),
    (r"(?:做|干|当)(?:什么|啥)(?:的|工作|职位)?|职业|职位|什么工作|哪一?行", "职业 职位 工作"),
    (r"叫(?:什么|啥)|名字|姓名", "名字 叫"),
    (r"电话|手机号|号码|联系方式", "电话 号码 手机号"),
    (r"生日|(?:哪天|什么时候|几月几号)(?:出生|生的)", "生日 出生"),
    (r"学历|教育背景|文化程度|(?:念|读)到|(?:什么|哪个)学校毕业", "学历 教育背景 本科 硕士 博士 专科 大专 高中"),
    (r"爱好|兴趣|喜欢(?:干|做|玩)?(?:什么|啥)|平时(?:都)?(?:干|做|玩)(?:什么|啥)", "爱好 喜欢 兴趣"),
    (r"多久|多长时间|持续时间|(?<![这那前近头])几天|多少天", "持续时间 天 周"),  # not 这几天: these days
    (r"规模|多少人", "规模"),
    (r"在哪(?:儿|里)?(?:举行|举办|办|开)|地点|什么地方", "地点"),
    (r"邮箱|电子邮件|邮件地址", "邮箱 邮件"),
)


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]:
    return tuple((re.compile(pattern), tuple(words.split())) for pattern, words in _RULES)


def answer_words(sentence: str) -> list[str]:
    """The words answers to the sentence's interrogatives are written with, in rule order."""
    out: list[str] = []
    for pattern, words in _compiled():
        if pattern.search(sentence):
            out.extend(w for w in words if w not in out)
    return out
