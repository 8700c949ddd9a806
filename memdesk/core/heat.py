"""Heat (0–100) and tiers, after seed 004's tiered formula.

Base heat by age: ≤1 day 100, ≤7 days 90, ≤30 days 70, ≤90 days 50,
≤365 days 30, older 10; +5 per access up to +30; +3 per mention up to +20;
capped at 100. Tiers follow heat, so more accesses keep a memory warmer,
never colder (a public system shipped that inverted).
"""
from __future__ import annotations

from datetime import datetime

from .times import now_utc

_AGE_STEPS = ((1, 100.0), (7, 90.0), (30, 70.0), (90, 50.0), (365, 30.0))
_OLDEST = 10.0
# Lowest heat of each tier, hottest first.
TIER_FLOORS = (("hot", 80.0), ("warm", 50.0), ("cold", 25.0), ("archive", 0.0))


def compute_heat(created_at: datetime, access_count: int = 0, mention_count: int = 0,
                 *, now: datetime | None = None) -> float:
    days = max(0.0, ((now or now_utc()) - created_at).total_seconds() / 86400.0)
    base = next((heat for limit, heat in _AGE_STEPS if days <= limit), _OLDEST)
    bonus = min(access_count * 5.0, 30.0) + min(mention_count * 3.0, 20.0)
    return min(base + bonus, 100.0)


def tier_for(heat: float) -> str:
    return next(name for name, floor in TIER_FLOORS if heat >= floor)


def heat_and_tier(created_at: datetime, access_count: int = 0, mention_count: int = 0,
                  *, now: datetime | None = None) -> tuple[float, str]:
    heat = compute_heat(created_at, access_count, mention_count, now=now)
    return heat, tier_for(heat)
