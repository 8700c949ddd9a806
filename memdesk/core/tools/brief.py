"""The memory brief injected into an assistant's system prompt (seed 001's format).

    [Memory Brief]
    Long-term (top 20):
    - 用户偏好 Python 编程 [preference, importance:8]
    Short-term (top 10):
    - 今天正在分析 Q3 财报数据 [task, expires: 2h]

Memories are ranked by the search engine against the current user message when
one is given, else by importance, heat and recency; lines are added until the
token budget is spent. Without a model's tokenizer tokens are estimated: one
per CJK character, and one per 4 characters (rounded up) of every other word —
close to what BPE/WordPiece tokenizers give for Chinese and English text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime

from memdesk.core.domain.records import MemoryRecord
from memdesk.core.domain.times import now_utc

DEFAULT_BUDGET = 1200
DEFAULT_LONG = 20
DEFAULT_SHORT = 10
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u3000-\u303f\uff00-\uffef]")
_WORD = re.compile(r"[^\s\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u3000-\u303f\uff00-\uffef]+")


def estimate_tokens(text: str) -> int:
    return len(_CJK.findall(text)) + sum(math.ceil(len(w) / 4) for w in _WORD.findall(text))


@dataclass(frozen=True)
class Brief:
    text: str
    tokens: int
    long_term: tuple[str, ...]  # memory ids, in order
    short_term: tuple[str, ...]
    enabled: bool
    counted_with: str  # "estimate" or the tokenizer's model id


def _expires(expires_at: datetime, now: datetime) -> str:
    seconds = (expires_at - now).total_seconds()
    if seconds < 3600:
        return f"{max(1, int(seconds // 60))}m"
    if seconds < 86400 * 2:
        return f"{int(seconds // 3600)}h"
    return f"{int(seconds // 86400)}d"


def line_for(memory: MemoryRecord, now: datetime) -> str:
    text = " ".join((memory.content or memory.title).split())
    if memory.scope == "short_term" and memory.expires_at:
        return f"- {text} [{memory.type}, expires: {_expires(memory.expires_at, now)}]"
    return f"- {text} [{memory.type}, importance:{memory.importance}]"


def _default_order(memories):
    return sorted(memories, key=lambda m: (m.importance, m.heat, m.updated_at), reverse=True)


def build_brief(
    store,
    *,
    persona_id: str | None,
    message: str | None = None,
    search=None,
    budget: int = DEFAULT_BUDGET,
    long_limit: int = DEFAULT_LONG,
    short_limit: int = DEFAULT_SHORT,
    count_tokens=None,
    counted_with: str = "estimate",
    enabled: bool = True,
    record_access: bool = True,
) -> Brief:
    """The brief for ``persona_id``; ``search(query, persona=, limit=)`` ranks by the message."""
    if not enabled:
        return Brief("", 0, (), (), False, counted_with)
    count = count_tokens or estimate_tokens
    now = now_utc()
    visible = store.load_for_persona(persona_id)
    if message and message.strip() and search is not None:
        ranked = [m for m, _ in search(message, persona=persona_id, limit=max(len(visible), 1))]
        seen = {m.id for m in ranked}
        ordered = ranked + _default_order([m for m in visible if m.id not in seen])
    else:
        ordered = _default_order(visible)
    long_term = [m for m in ordered if m.scope == "long_term"][:long_limit]
    short_term = [m for m in ordered if m.scope == "short_term"][:short_limit]
    header = "[Memory Brief]"
    used = count(header)
    lines = [header]
    chosen: dict[str, list[str]] = {"long": [], "short": []}
    for label, limit, items, key in (
        ("Long-term", long_limit, long_term, "long"),
        ("Short-term", short_limit, short_term, "short"),
    ):
        if not items:
            continue
        title = f"{label} (top {limit}):"
        title_cost = count(title)
        section: list[str] = []
        for memory in items:
            line = line_for(memory, now)
            cost = count(line)
            if used + title_cost * (not section) + cost > budget:
                break
            if not section:
                used += title_cost
            section.append(line)
            used += cost
            chosen[key].append(memory.id)
        if section:
            lines.append(title)
            lines.extend(section)
    if len(lines) == 1:
        return Brief("", 0, (), (), True, counted_with)
    text = "\n".join(lines)
    if record_access:
        store.touch(chosen["long"] + chosen["short"])
    return Brief(text, count(text), tuple(chosen["long"]), tuple(chosen["short"]), True, counted_with)
