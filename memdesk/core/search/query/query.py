"""The search language, Anki-style, parsed into a tree that renders back.

    free words            coffee 咖啡        ranked; any of them may match
    "exact phrase"        "support group"    must appear as written
    -exclusion            -tea  -tag:old     must not match
    OR, ( )               tag:a OR tag:b     upper-case OR; AND is implied
    filters               persona: group: tag: type: scope: tier: id:
                          is:deleted|expired|superseded|active
                          importance>=7 (also > < <= = :)
                          created>2024-05  updated<=2024-05-31  created>7d

Every filter has a Chinese name too, the editor's word for the field (类型:偏好 =
type:preference, 层级:热 = tier:hot, 重要性>=7, 已删除 = is:deleted; see
FIELD_NAMES and VALUE_NAMES); English values are accepted after a Chinese name
and the other way round. The tree keeps the English names, so it renders the
same whichever words were typed.

Full-width forms (＂ ： （ ） －) are read as their ASCII forms (NFKC), and
“ ” 「 」 『 』 also quote. Positions in errors count characters of the text the
user typed. ``parse(text, lenient=True)`` never raises: assistants send
natural sentences, and a stray quote must not make their search fail.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from memdesk.core.domain.error_codes import english
from memdesk.core.domain.errors import MemDeskError
from memdesk.core.domain.records import SCOPES, TIERS, TYPES
from memdesk.core.domain.times import UTC, now_utc
from memdesk.core.search.query.words import FIELD_NAMES, NEAR_NAMES, STATE_WORDS, VALUE_NAMES

TEXT_FIELDS = ("persona", "group", "tag", "type", "scope", "tier", "is", "id")
ORDERED_FIELDS = ("importance", "created", "updated")
STATES = ("deleted", "expired", "superseded", "active")
OPERATORS = (">=", "<=", ">", "<", "=")
_QUOTES = {'"': '"', "“": "”", "「": "」", "『": "』"}
_CLOSERS = set(_QUOTES.values()) | {"„", "”"}
_SPECIAL = set("()") | set(_QUOTES) | _CLOSERS

_NEAR = re.compile(rf"^({'|'.join(NEAR_NAMES)})(>=|<=|>|<|=|:)(.+)$", re.I)


def _names(english: tuple[str, ...]) -> str:
    chinese = [name for name, field in FIELD_NAMES.items() if field in english]
    return "|".join([*english, *chinese])


_ORDERED = re.compile(rf"^({_names(ORDERED_FIELDS)})(>=|<=|>|<|=|:)(.*)$", re.I)
_TEXT = re.compile(rf"^({_names(TEXT_FIELDS)}):(.*)$", re.I)
_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:[t ](\d{1,2}):(\d{2}))?)?)?$", re.I)
_RELATIVE = re.compile(r"^(\d{1,5})([dwmy])$", re.I)


class QuerySyntaxError(MemDeskError):
    """A query that cannot be read; ``position`` is a 0-based character index.

    ``code`` (a query_* code in error_codes) names the problem and ``params`` its parts, for a
    window to say it in the user's language; ``reason`` is the English without the position.
    """

    def __init__(self, code: str, position: int, **params):
        self.position = position
        self.reason = english(code, params)
        super().__init__(f"search: {self.reason} (at character {position + 1})", code=code, position=position, **params)


# ---- the tree ------------------------------------------------------------------
@dataclass(frozen=True)
class Word:
    text: str

    def render(self) -> str:
        return self.text


@dataclass(frozen=True)
class Phrase:
    text: str

    def render(self) -> str:
        return '"' + self.text.replace('"', "") + '"'


@dataclass(frozen=True)
class Filter:
    field: str  # one of TEXT_FIELDS or ORDERED_FIELDS
    op: str  # ":" for text fields; one of OPERATORS for ordered ones
    value: str

    def render(self) -> str:
        value = self.value
        if value == "" or any(c.isspace() or c in _SPECIAL for c in value):
            value = '"' + value.replace('"', "") + '"'
        return f"{self.field}{self.op}{value}"


@dataclass(frozen=True)
class Not:
    child: Node

    def render(self) -> str:
        inner = self.child.render()
        return f"-({inner})" if isinstance(self.child, (And, Or)) else f"-{inner}"


@dataclass(frozen=True)
class And:
    children: tuple

    def render(self) -> str:
        return " ".join(f"({c.render()})" if isinstance(c, Or) else c.render() for c in self.children)


@dataclass(frozen=True)
class Or:
    children: tuple

    def render(self) -> str:
        return " OR ".join(f"({c.render()})" if isinstance(c, And) else c.render() for c in self.children)


@dataclass(frozen=True)
class Everything:
    """The empty query: every memory in scope."""

    def render(self) -> str:
        return ""


Node = Word | Phrase | Filter | Not | And | Or | Everything


def walk(node):
    """Every node of a tree, parents first."""
    yield node
    if isinstance(node, Not):
        yield from walk(node.child)
    elif isinstance(node, (And, Or)):
        for child in node.children:
            yield from walk(child)


# ---- lexing ------------------------------------------------------------------
@dataclass(frozen=True)
class _Token:
    kind: str  # "word", "phrase", "(", ")", "or", "and", "not"
    text: str
    pos: int


def _normalise(text: str) -> tuple[str, list[int]]:
    """NFKC per character, with the original position of every output char."""
    out, where = [], []
    for i, ch in enumerate(text):
        for c in unicodedata.normalize("NFKC", ch):
            out.append(c)
            where.append(i)
    where.append(len(text))
    return "".join(out), where


def _lex(text: str, where: list[int]) -> list[_Token]:
    tokens, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            tokens.append(_Token(ch, ch, where[i]))
            i += 1
        elif ch == "-" and i + 1 < n and not text[i + 1].isspace() and text[i + 1] != ")":
            tokens.append(_Token("not", "-", where[i]))
            i += 1
        elif ch == "-":
            raise QuerySyntaxError("query_minus_alone", where[i])
        elif ch in _QUOTES:
            end = text.find(_QUOTES[ch], i + 1)
            if end < 0:
                raise QuerySyntaxError("query_quote_open", where[i])
            tokens.append(_Token("phrase", text[i + 1 : end], where[i]))
            i = end + 1
        else:
            start = i
            while i < n and not text[i].isspace() and text[i] not in "()" and text[i] not in _QUOTES:
                if text[i] == ":" and i + 1 < n and text[i + 1] in _QUOTES and _TEXT.match(text[start : i + 1]):
                    close = text.find(_QUOTES[text[i + 1]], i + 2)
                    if close < 0:
                        raise QuerySyntaxError("query_quote_open", where[i + 1])
                    i = close + 1
                    break
                i += 1
            word = text[start:i]
            kind = {"OR": "or", "AND": "and"}.get(word, "word")
            tokens.append(_Token(kind, word, where[start]))
    return tokens


# ---- parsing -----------------------------------------------------------------
class _Parser:
    def __init__(self, tokens: list[_Token], end: int, now: datetime):
        self.tokens, self.i, self.end, self.now = tokens, 0, end, now

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def parse(self):
        node = self.or_expr()
        token = self.peek()
        if token is not None:  # only a stray ')' can stop or_expr early
            raise QuerySyntaxError("query_paren_unmatched", token.pos)
        return node

    def or_expr(self):
        parts = [self.and_expr()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.i += 1
            if self.peek() is None or self.peek().kind in ("or", "and", ")"):
                raise QuerySyntaxError("query_or_sides", token.pos)
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def and_expr(self):
        parts: list[Node] = []
        while (token := self.peek()) is not None and token.kind not in ("or", ")"):
            if token.kind == "and":
                self.i += 1
                if not parts or self.peek() is None or self.peek().kind in ("or", "and", ")"):
                    raise QuerySyntaxError("query_and_sides", token.pos)
                continue
            parts.append(self.unary())
        if not parts:
            token = self.peek()
            where = token.pos if token is not None else self.end
            if token is not None and token.kind == "or":
                raise QuerySyntaxError("query_or_sides", where)
            raise QuerySyntaxError("query_expected_term", where)
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def unary(self):
        token = self.tokens[self.i]
        if token.kind == "not":
            self.i += 1
            if self.peek() is None or self.peek().kind in ("or", "and", ")"):
                raise QuerySyntaxError("query_minus_alone", token.pos)
            return Not(self.unary())
        if token.kind == "(":
            self.i += 1
            if self.peek() is not None and self.peek().kind == ")":
                raise QuerySyntaxError("query_empty_parens", token.pos)
            node = self.or_expr()
            closing = self.peek()
            if closing is None or closing.kind != ")":
                raise QuerySyntaxError("query_paren_open", token.pos)
            self.i += 1
            return node
        self.i += 1
        if token.kind == "phrase":
            if not token.text.strip():
                raise QuerySyntaxError("query_empty_quotes", token.pos)
            return Phrase(token.text.strip())
        return self.term(token)

    def term(self, token: _Token):
        text = token.text
        if text in STATE_WORDS:
            return Filter("is", ":", STATE_WORDS[text])
        match = _ORDERED.match(text)
        if match:
            typed, op, value = match.group(1), match.group(2), match.group(3)
            field = FIELD_NAMES.get(typed, typed.lower())
            op = "=" if op == ":" else op
            value_pos = token.pos + len(typed) + len(match.group(2))
            if not value:
                raise QuerySyntaxError("query_needs_value", value_pos, field=field, typed=typed, op=op)
            if field == "importance":
                # isdecimal, not isdigit: '𐩀' is a digit int() cannot read
                if not value.isdecimal() or not 1 <= int(value) <= 10:
                    raise QuerySyntaxError("query_importance", value_pos, value=value)
                return Filter(field, op, str(int(value)))
            parse_date(value, self.now, value_pos)
            return Filter(field, op, value.lower())
        match = _TEXT.match(text)
        if match:
            typed, value = match.group(1), match.group(2)
            field = FIELD_NAMES.get(typed, typed.lower())
            value_pos = token.pos + len(typed) + 1
            if value[:1] in _QUOTES:
                value = value[1:-1]
            elif not value:
                raise QuerySyntaxError("query_needs_value", value_pos, field=field, typed=typed, op=":")
            return Filter(field, ":", self.check(field, value.strip(), value_pos, typed))
        match = _NEAR.match(text)
        if match:
            typed, suggestion = match.group(1), NEAR_NAMES[match.group(1).lower()]
            raise QuerySyntaxError("query_unknown_filter", token.pos, typed=typed, suggestion=suggestion)
        return Word(text)

    @staticmethod
    def check(field: str, value: str, pos: int, typed: str = "") -> str:
        allowed = {"type": TYPES, "scope": SCOPES, "tier": TIERS, "is": STATES}.get(field)
        if allowed is not None:
            value = VALUE_NAMES[field].get(value, value.lower())
            if value not in allowed:
                raise QuerySyntaxError(
                    "query_unknown_value",
                    pos,
                    field=field,
                    typed=typed or field,
                    value=value,
                    allowed=", ".join(allowed),
                )
        elif not value and field != "persona":
            raise QuerySyntaxError("query_needs_value", pos, field=field, typed=typed or field, op=":")
        return value


def parse(text: str, *, lenient: bool = False, now: datetime | None = None):
    """Parse a query; raises QuerySyntaxError unless ``lenient``."""
    normal, where = _normalise(text or "")
    if not normal.strip():
        return Everything()
    try:
        return _Parser(_lex(normal, where), len(text), now or now_utc()).parse()
    except QuerySyntaxError:
        if not lenient:
            raise
    # Lenient: every piece becomes a plain word (filters that still parse are kept).
    plain = re.sub(r"[()\"“”「」『』„]", " ", normal)
    plain = re.sub(r"(^|\s)-+(?=\s|$)", " ", plain)
    words = []
    for piece in plain.split():
        if piece in ("OR", "AND"):
            continue
        try:
            words.append(_Parser([], 0, now or now_utc()).term(_Token("word", piece.lstrip("-") or piece, 0)))
        except QuerySyntaxError:
            words.append(Word(piece))
    if not words:
        return Everything()
    return words[0] if len(words) == 1 else And(tuple(words))


def render(node) -> str:
    """Normalised text of a tree; parse(render(t)) == t."""
    return node.render()


# ---- dates -----------------------------------------------------------------------
def parse_date(value: str, now: datetime, pos: int = 0) -> tuple[datetime, datetime]:
    """The interval [start, end) a date value names, in UTC.

    2024 = that year, 2024-05 = that month, 2024-05-31 = that day,
    2024-05-31T10:30 = that minute. 7d / 2w / 3m / 1y name the moment that
    long ago (start == end), so created>7d means "in the last 7 days";
    ``created:7d`` (=) means the same.
    """
    rel = _RELATIVE.match(value)
    if rel:
        amount, unit = int(rel.group(1)), rel.group(2).lower()
        days = amount * {"d": 1, "w": 7, "m": 30, "y": 365}[unit]
        try:
            moment = now - timedelta(days=days)
        except OverflowError:  # 99999y reaches before year 1
            raise QuerySyntaxError("query_before_year_1", pos, value=value) from None
        return moment, moment
    match = _DATE.match(value)
    if not match:
        raise QuerySyntaxError("query_not_date", pos, value=value)
    year = int(match.group(1))  # the pattern always captures the year
    month, day, hour, minute = (int(g) if g else None for g in match.groups()[1:])
    try:
        if month is None:
            return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)
        if day is None:
            start = datetime(year, month, 1, tzinfo=UTC)
            end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)
            return start, end
        if hour is None:
            start = datetime(year, month, day, tzinfo=UTC)
            return start, start + timedelta(days=1)
        assert minute is not None  # the pattern captures the minute whenever the hour
        start = datetime(year, month, day, hour, minute, tzinfo=UTC)
        return start, start + timedelta(minutes=1)
    except ValueError:
        raise QuerySyntaxError("query_unreal_date", pos, value=value) from None
