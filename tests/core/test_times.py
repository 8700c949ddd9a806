from datetime import datetime, timezone

import pytest

from memdesk.core.domain.times import parse_time, to_iso

EXPECTED = datetime(2009, 2, 13, 23, 31, 30, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "value",
    [
        1234567890,
        1234567890.0,
        "1234567890",
        1234567890000,
        "1234567890000",
        "2009-02-13T23:31:30Z",
        "2009-02-13T23:31:30+00:00",
        "2009-02-14T07:31:30+08:00",
        "2009-02-13 23:31:30",
        datetime(2009, 2, 13, 23, 31, 30),
    ],
)
def test_one_parser_for_seconds_millis_and_iso(value):
    assert parse_time(value) == EXPECTED


def test_empty_is_none_and_output_is_utc_iso():
    assert parse_time(None) is None and parse_time("") is None
    assert to_iso(parse_time("2009-02-14T07:31:30+08:00")) == "2009-02-13T23:31:30Z"


@pytest.mark.parametrize("value", ["yesterday", "2009-13-45", True, [1], float("nan"), 1e30])
def test_bad_times_raise_with_field(value):
    with pytest.raises(ValueError) as err:
        parse_time(value, field="createdAt")
    assert "createdAt" in str(err.value)
