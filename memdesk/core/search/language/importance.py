"""Automatic importance from seed 004's dimensions: time, emotion, action, number, entity.

A memory starts at 50 of 100; each dimension found in its text adds points
(capped per dimension), very short texts lose some; the total maps to 1–10
by tens. "今天天气不错" has only a time word: 58 → 5. "下周三要和小王去上海签
200 万的合同" has a time, two actions, an amount and two named entities:
88 → 8. jieba.posseg tags the words; regular expressions catch the times,
amounts and names jieba splits apart ("下" + "周三", "200" + "万", "小" + "王").

writes/memories.py scores a memory when it is added and when its title or text
changes; maintenance/importance.py catches up on memories written before that (and
on a changed scorer), never overwriting an importance the user set.
"""

from __future__ import annotations

import re

BASE = 50
CAPS = {"time": 10, "emotion": 12, "action": 12, "number": 10, "entity": 15}
_TIME = re.compile(
    r"(今天|明天|后天|昨天|前天|今晚|明早|明晚|今早|早上|上午|中午|下午|傍晚|晚上|凌晨|周末|月底|月初|年底|年初"
    r"|[上下这本]+(周|星期|个月|月|年)[一二三四五六日天]?|(周|星期|礼拜)[一二三四五六日天]"
    r"|\d{1,4}\s*[年月日号点时]|\d{1,2}:\d{2}|\d{4}-\d{1,2}-\d{1,2}|[一二三四五六七八九十]+[月号点]"
    r"|春节|元旦|中秋|国庆|生日|纪念日|截止|deadline"
    r"|\b(today|tomorrow|yesterday|tonight|morning|afternoon|evening|weekend|next week|last week"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|january|february|march|april|may|june|july|august|september|october|november|december)\b)",
    re.I,
)
_AMOUNT = re.compile(
    r"\d+(\.\d+)?\s*(万|亿|千|百|元|块|美元|刀|%|％|k\b|m\b|million|billion)|[$¥￥€£]\s*\d|"
    r"[一二三四五六七八九十两百千]+\s*[万亿]",
    re.I,
)
_DIGITS = re.compile(r"\d")
_EMOTION = (
    "喜欢",
    "爱",
    "讨厌",
    "恨",
    "开心",
    "高兴",
    "快乐",
    "幸福",
    "兴奋",
    "激动",
    "感动",
    "难过",
    "伤心",
    "痛苦",
    "悲伤",
    "哭",
    "生气",
    "愤怒",
    "烦",
    "焦虑",
    "担心",
    "害怕",
    "恐惧",
    "紧张",
    "失望",
    "后悔",
    "孤独",
    "委屈",
    "想念",
    "思念",
    "感谢",
    "感激",
    "抱歉",
    "对不起",
    "生病",
    "住院",
    "去世",
    "离婚",
    "分手",
    "结婚",
    "怀孕",
    "过敏",
    "压力",
    "崩溃",
    "绝望",
    "骄傲",
    "自豪",
    "惊喜",
    "love",
    "hate",
    "happy",
    "sad",
    "angry",
    "afraid",
    "worried",
    "anxious",
    "excited",
    "upset",
    "sorry",
    "grateful",
    "miss",
    "allergic",
    "sick",
)
# Verbs that carry no deed of their own (copula, modal, auxiliary).
_LIGHT_VERBS = {
    "是",
    "有",
    "要",
    "会",
    "能",
    "可以",
    "可能",
    "应该",
    "得",
    "在",
    "让",
    "把",
    "被",
    "觉得",
    "需要",
    "想",
    "想要",
    "没有",
    "不是",
    "就是",
    "还是",
    "叫",
    "像",
    "使",
}
_EN_ACTIONS = {
    "meet",
    "sign",
    "call",
    "buy",
    "sell",
    "send",
    "visit",
    "pay",
    "finish",
    "start",
    "book",
    "fly",
    "move",
    "deliver",
    "submit",
    "launch",
    "cancel",
    "schedule",
    "interview",
    "travel",
    "return",
}
_PROPER = ("nr", "ns", "nt", "nz")
# jieba runs without its HMM (20× faster: 10k memories in seconds), which
# costs it names like 小王 / 张经理; these patterns give them back.
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任"
    "沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_PERSON = re.compile(
    f"(?:[小老阿][{_SURNAMES}]|[{_SURNAMES}](?:经理|总|老师|先生|女士|小姐|医生|律师|主任|教授|"
    f"师傅|工|哥|姐|叔|阿姨|局|处|科长|校长|老板))"
)


def breakdown(text: str) -> dict:
    """Points per dimension (after caps), plus the total 0–100: the "why" of a score."""
    from memdesk.core.search.language.tokenize import shared_tokenizer  # jieba loads on first use

    words = [(w.strip(), f) for w, f in shared_tokenizer().tagged(text) if w.strip()]
    lowered = text.lower()
    times = {m.group(0) for m in _TIME.finditer(text)} | {w for w, f in words if f in ("t", "tg")}
    emotions = {e for e in _EMOTION if e in lowered} | ({"!"} if re.search(r"[!！]", text) else set())
    actions = {w for w, f in words if f.startswith("v") and w not in _LIGHT_VERBS and w not in emotions}
    actions |= {w for w in re.findall(r"[a-z]+", lowered) if w in _EN_ACTIONS}
    proper = {w for w, f in words if f in _PROPER and len(w) > 1} | set(_PERSON.findall(text))
    proper |= {w for w in re.findall(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}", text)}
    nouns = {w for w, f in words if f in ("n", "vn", "nrt") and w not in proper}
    points = {
        "time": min(CAPS["time"], 8 * bool(times) + 2 * (len(times) > 1)),
        "emotion": min(CAPS["emotion"], 8 * bool(emotions) + 4 * max(0, len(emotions) - 1)),
        "action": min(CAPS["action"], 4 * len(actions)),
        "number": min(
            CAPS["number"], 6 * bool(_DIGITS.search(text) or _AMOUNT.search(text)) + 4 * bool(_AMOUNT.search(text))
        ),
        "entity": min(CAPS["entity"], 6 * len(proper) + min(4, len(nouns))),
    }
    length = len(text.strip())
    adjust = -8 if length < 6 else 4 if length > 120 else 0
    total = max(0, min(100, BASE + sum(points.values()) + adjust))
    return {**points, "length": adjust, "total": total}


def score(text: str) -> int:
    """Importance 1–10 for a memory's text."""
    return max(1, min(10, breakdown(text)["total"] // 10))


def score_memory(title: str, content: str) -> int:
    """Importance 1–10 for a memory: its title and text, as maintenance scores them."""
    return score(f"{title}\n{content}" if title else content)
