"""Heat (0–100) and tiers, after seed 004's tiered formula.

Base heat by age since created_at: ≤1 day 100, ≤7 days 90, ≤30 days 70,
≤90 days 50, ≤365 days 30, older 10; +5 per access up to +30; +3 per mention
up to +20; capped at 100. Tiers follow heat, so more accesses keep a memory
warmer, never colder (a public system shipped that inverted).

``heat_array`` is the same formula over numpy columns: search ranks by heat
and must not loop over 100k records in Python to get it.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np

from memdesk.core.domain.times import now_utc

_AGE_STEPS = ((1, 100.0), (7, 90.0), (30, 70.0), (90, 50.0), (365, 30.0))
_OLDEST = 10.0
ACCESS_BONUS, ACCESS_CAP = 5.0, 30.0
MENTION_BONUS, MENTION_CAP = 3.0, 20.0
# Lowest heat of each tier, hottest first. A memory is hot for its first week
# (90), warm until about three months (50), cold within the year (30 >= 25),
# archived after; use lifts it back (a year-old memory read 6 times: 40, cold).
TIER_FLOORS = (("hot", 80.0), ("warm", 50.0), ("cold", 25.0), ("archive", 0.0))


def base_heat(days: float) -> float:
    return next((heat for limit, heat in _AGE_STEPS if days <= limit), _OLDEST)


def compute_heat(
    created_at: datetime, access_count: int = 0, mention_count: int = 0, *, now: datetime | None = None
) -> float:
    days = max(0.0, ((now or now_utc()) - created_at).total_seconds() / 86400.0)
    bonus = min(access_count * ACCESS_BONUS, ACCESS_CAP) + min(mention_count * MENTION_BONUS, MENTION_CAP)
    return min(base_heat(days) + bonus, 100.0)


def tier_for(heat: float) -> str:
    """hot / warm / cold / archive for a heat value."""
    return next(name for name, floor in TIER_FLOORS if heat >= floor)


def heat_and_tier(
    created_at: datetime, access_count: int = 0, mention_count: int = 0, *, now: datetime | None = None
) -> tuple[float, str]:
    heat = compute_heat(created_at, access_count, mention_count, now=now)
    return heat, tier_for(heat)


def heat_array(created_ts: np.ndarray, access: np.ndarray, mention: np.ndarray, now_ts: float) -> np.ndarray:
    """compute_heat over arrays of epoch seconds and counts."""
    days = np.maximum(0.0, (now_ts - np.asarray(created_ts, dtype=np.float64)) / 86400.0)
    limits = np.array([limit for limit, _ in _AGE_STEPS], dtype=np.float64)
    values = np.array([heat for _, heat in _AGE_STEPS] + [_OLDEST], dtype=np.float64)
    # searchsorted(side="left") gives the first step whose limit >= days.
    base = values[np.searchsorted(limits, days, side="left")]
    bonus = np.minimum(np.asarray(access, dtype=np.float64) * ACCESS_BONUS, ACCESS_CAP) + np.minimum(
        np.asarray(mention, dtype=np.float64) * MENTION_BONUS, MENTION_CAP
    )
    return np.minimum(base + bonus, 100.0)
