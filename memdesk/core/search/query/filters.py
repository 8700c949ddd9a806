"""What a parsed query allows: scope, hidden states and constraint masks.

How a query splits (``plan``):
- free words at the top level are the *ranked* part: a memory qualifies by
  matching any of them (keyword, substring or vector) and ranks higher the
  better it matches;
- everything else at the top level (filters, phrases, exclusions, OR groups)
  is a constraint every result must meet;
- inside OR groups and exclusions a free word is a plain test ("contains
  this word"); words side by side there are alternatives too.

Deleted, expired and superseded memories are hidden unless the query names
the state (is:deleted ...). The trash shows everything in it, so is:deleted
also lifts the hiding of expired and superseded memories.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from memdesk.core.domain.records import SCOPES, TIERS, TYPES
from memdesk.core.search.index.keyword import KeywordIndex
from memdesk.core.search.index.substring import SubstringIndex
from memdesk.core.search.index.table import RecordTable
from memdesk.core.search.language.tokenize import has_cjk, normalise
from memdesk.core.search.query.query import And, Everything, Filter, Not, Or, Phrase, Word, parse_date, walk


@dataclass
class Plan:
    soft_words: list[str] = field(default_factory=list)  # top-level free words
    constraints: list = field(default_factory=list)  # nodes every result must meet
    rank_texts: list[str] = field(default_factory=list)  # positive words and phrases, for ranking

    @property
    def retrieval(self) -> bool:
        """True when results are whatever matches the free words (not a filtered list)."""
        return bool(self.soft_words)


def plan(tree, *, soft_phrases: bool = False) -> Plan:
    """soft_phrases: top-level phrases rank like free words instead of constraining.

    For natural-language text (what assistants send): quotes there quote
    something ('主要内容是"…"的活动'), they do not demand it.
    """
    out = Plan()
    children = tree.children if isinstance(tree, And) else (tree,)
    for child in children:
        if isinstance(child, Word) or (soft_phrases and isinstance(child, Phrase)):
            out.soft_words.append(child.text)
        elif not isinstance(child, Everything):
            out.constraints.append(child)
    out.rank_texts = _positive_texts(tree)
    return out


def _positive_texts(node) -> list[str]:
    if isinstance(node, (Word, Phrase)):
        return [node.text]
    if isinstance(node, (And, Or)):
        return [t for child in node.children for t in _positive_texts(child)]
    return []


def shown_states(tree) -> set[str]:
    """Hidden states the query asks to see."""
    named = {n.value for n in walk(tree) if isinstance(n, Filter) and n.field == "is"}
    shown = named & {"deleted", "expired", "superseded"}
    if "deleted" in shown:
        shown |= {"expired", "superseded"}
    return shown


def visible_mask(table: RecordTable, persona: str | None, tree, now: datetime) -> np.ndarray:
    mask = table.scope_mask(persona)
    shown = shown_states(tree)
    if "deleted" not in shown:
        mask &= ~table.col("deleted")
    if "superseded" not in shown:
        mask &= ~table.col("superseded")
    if "expired" not in shown:
        mask &= ~table.expired_mask(now)
    return mask


class Evaluator:
    """Turns query nodes into boolean masks over slots."""

    def __init__(
        self,
        table: RecordTable,
        keyword: KeywordIndex,
        substring: SubstringIndex,
        resolve_persona: Callable[[str], set],
        now: datetime,
    ):
        self.table, self.keyword, self.substring = table, keyword, substring
        self.resolve_persona, self.now = resolve_persona, now
        self.size = table.size

    def mask(self, node) -> np.ndarray:
        if isinstance(node, Everything):
            return np.ones(self.size, dtype=bool)
        if isinstance(node, Word):
            return self.word(node.text)
        if isinstance(node, Phrase):
            return self.substring.mask(normalise(node.text), self.size)
        if isinstance(node, Not):
            return ~self.mask(node.child)
        if isinstance(node, Or):
            out = np.zeros(self.size, dtype=bool)
            for child in node.children:
                out |= self.mask(child)
            return out
        if isinstance(node, And):
            out = np.ones(self.size, dtype=bool)
            words = [c for c in node.children if isinstance(c, Word)]
            if words:  # side-by-side words are alternatives
                any_word = np.zeros(self.size, dtype=bool)
                for word in words:
                    any_word |= self.word(word.text)
                out &= any_word
            for child in node.children:
                if not isinstance(child, Word):
                    out &= self.mask(child)
            return out
        return self.filter(node)

    def word(self, text: str) -> np.ndarray:
        """Contains the word: by its stemmed terms for Latin words, as written otherwise;
        letters also by the Chinese words they spell in pinyin (kafei OR lvcha, -kafei)."""
        slots = None if has_cjk(text) else self.keyword.word_slots(text)
        if slots is None:
            mask = self.substring.mask(normalise(text), self.size)
        else:
            mask = np.zeros(self.size, dtype=bool)
            mask[slots[slots < self.size]] = True
        if any(c.isascii() and c.isalpha() for c in text):
            spelt = self.keyword.pinyin_slots(text)
            mask[spelt[spelt < self.size]] = True
        return mask

    def filter(self, node: Filter) -> np.ndarray:
        t, value = self.table, node.value
        if node.field == "persona":
            return t.persona_mask(self.resolve_persona(value))
        if node.field == "group":
            return t.group_mask(value)
        if node.field == "tag":
            return t.tag_mask(value)
        if node.field == "id":
            return t.id_mask(value)
        if node.field == "type":
            return t.col("type") == TYPES.index(value)
        if node.field == "scope":
            return t.col("scope") == SCOPES.index(value)
        if node.field == "tier":
            return t.col("tier") == TIERS.index(value)
        if node.field == "is":
            return self.state(value)
        if node.field == "importance":
            return _compare(t.col("importance"), node.op, float(value), float(value))
        column = t.col("created" if node.field == "created" else "updated")
        start, end = parse_date(value, self.now)
        if start == end and node.op == "=":  # created:7d = since then
            return column >= start.timestamp()
        return _compare(column, node.op, start.timestamp(), end.timestamp())

    def state(self, value: str) -> np.ndarray:
        t = self.table
        deleted, superseded, expired = t.col("deleted"), t.col("superseded"), t.expired_mask(self.now)
        if value == "deleted":
            return deleted.copy()
        if value == "superseded":
            return superseded & ~deleted
        if value == "expired":
            return expired & ~deleted
        return ~(deleted | superseded | expired)  # active


def _compare(column: np.ndarray, op: str, start: float, end: float) -> np.ndarray:
    """Compare against the interval [start, end) a value names (end == start for numbers)."""
    if op == ">":
        return column >= end if end > start else column > start
    if op == ">=":
        return column >= start
    if op == "<":
        return column < start
    if op == "<=":
        return column < end if end > start else column <= start
    return (column >= start) & (column < end) if end > start else column == start
