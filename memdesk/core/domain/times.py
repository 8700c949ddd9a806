"""One parser for every time format imports bring, and UTC helpers.

Epoch values are told apart by magnitude: anything above 1e11 cannot be a
plausible epoch in seconds (year 5138), so it is taken as milliseconds
(seed 000's createdAt).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

UTC = timezone.utc
_MS_THRESHOLD = 1e11
_NUMERIC = re.compile(r"^[+-]?\d+(\.\d+)?$")
# RFC 3339 from Go/Rust carries nanoseconds; datetime takes at most 6 digits
# (and Python 3.10 exactly 3 or 6), so the fraction is cut or padded to 6.
_FRACTION = re.compile(r"(?<=\d)[.,](\d+)")


def now_utc() -> datetime:
    return datetime.now(UTC)


def parse_time(value, *, field: str = "time") -> datetime | None:
    """Return an aware UTC datetime from epoch s/ms, ISO 8601, or a datetime.

    None and "" give None. Naive ISO strings are taken as UTC. Anything else
    raises ValueError naming ``field``.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, bool):
        raise ValueError(f"{field}: expected a time, got a boolean")
    if isinstance(value, str):
        text = value.strip()
        if _NUMERIC.match(text):
            return _from_epoch(float(text), field)
        return _from_iso(text, field)
    if isinstance(value, (int, float)):
        return _from_epoch(float(value), field)
    raise ValueError(f"{field}: expected epoch seconds, epoch milliseconds or ISO 8601, got {type(value).__name__}")


def _from_epoch(number: float, field: str) -> datetime:
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(f"{field}: not a finite number")
    seconds = number / 1000.0 if abs(number) >= _MS_THRESHOLD else number
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        raise ValueError(f"{field}: epoch value {number!r} is out of range") from None


def _from_iso(text: str, field: str) -> datetime:
    candidate = text
    if candidate.endswith(("Z", "z")):
        candidate = candidate[:-1] + "+00:00"
    candidate = _FRACTION.sub(lambda m: "." + m.group(1)[:6].ljust(6, "0"), candidate, count=1)
    try:
        parsed = datetime.fromisoformat(candidate)
    except ValueError:
        raise ValueError(f"{field}: {text[:40]!r} is not ISO 8601 or an epoch number") from None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def to_iso(value: datetime | None) -> str | None:
    """ISO 8601 in UTC with a Z suffix, as JSON output uses it."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def days_from_now(days: float) -> datetime:
    return now_utc() + timedelta(days=days)
