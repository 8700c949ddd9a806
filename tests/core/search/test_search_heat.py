"""Seed 004's heat formula, its array form, and tiers."""

from datetime import timedelta

import numpy as np
import pytest

from memdesk.core.domain.heat import compute_heat, heat_and_tier, heat_array, tier_for
from memdesk.core.domain.times import now_utc


@pytest.mark.parametrize(
    "days, base", [(0.5, 100), (1, 100), (3, 90), (7, 90), (20, 70), (60, 50), (200, 30), (365, 30), (400, 10)]
)
def test_base_heat_by_age(days, base):
    now = now_utc()
    assert compute_heat(now - timedelta(days=days), now=now) == base


def test_bonuses_are_capped_and_total_is_capped():
    now = now_utc()
    old = now - timedelta(days=400)
    assert compute_heat(old, access_count=2, now=now) == 20
    assert compute_heat(old, access_count=100, now=now) == 40
    assert compute_heat(old, mention_count=100, now=now) == 30
    assert compute_heat(now, access_count=10, mention_count=10, now=now) == 100


def test_use_never_cools_a_memory():
    now = now_utc()
    created = now - timedelta(days=200)
    heats = [compute_heat(created, access_count=n, now=now) for n in range(10)]
    assert heats == sorted(heats) and heats[-1] > heats[0]


def test_array_form_matches():
    now = now_utc()
    ages = [0, 0.5, 1, 1.0001, 7, 8, 30, 31, 90, 91, 365, 366, 5000]
    created = [now - timedelta(days=d) for d in ages]
    access = np.arange(len(ages)) % 8
    mention = np.arange(len(ages)) % 9
    expected = [compute_heat(c, int(a), int(m), now=now) for c, a, m in zip(created, access, mention)]
    got = heat_array(np.array([c.timestamp() for c in created]), access, mention, now.timestamp())
    assert np.allclose(got, expected)


def test_tiers():
    assert [tier_for(h) for h in (100, 80, 79, 50, 49, 25, 24, 0)] == [
        "hot",
        "hot",
        "warm",
        "warm",
        "cold",
        "cold",
        "archive",
        "archive",
    ]
    now = now_utc()
    assert heat_and_tier(now - timedelta(days=500), now=now) == (10, "archive")
