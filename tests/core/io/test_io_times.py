"""RFC 3339 with nanoseconds (Go, Rust's chrono) and short fractions parse on every Python."""

from datetime import datetime, timezone

import pytest

from memdesk.core.domain.times import parse_time


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2025-03-01T08:15:30.123456789Z", datetime(2025, 3, 1, 8, 15, 30, 123456, tzinfo=timezone.utc)),
        ("2025-03-01T08:15:30.123456789+08:00", datetime(2025, 3, 1, 0, 15, 30, 123456, tzinfo=timezone.utc)),
        ("2025-03-01T08:15:30.1Z", datetime(2025, 3, 1, 8, 15, 30, 100000, tzinfo=timezone.utc)),
        ("2025-03-01T08:15:30,25+00:00", datetime(2025, 3, 1, 8, 15, 30, 250000, tzinfo=timezone.utc)),
        ("2025-03-01", datetime(2025, 3, 1, tzinfo=timezone.utc)),
    ],
)
def test_fractions_of_any_length(text, expected):
    assert parse_time(text) == expected


def test_still_refuses_junk():
    with pytest.raises(ValueError, match="created_at"):
        parse_time("2025-03-01T08:15:30.abcZ", field="created_at")
