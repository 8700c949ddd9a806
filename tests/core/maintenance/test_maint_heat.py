"""Heat and tiers (seed 004): decay goes the right way. More use keeps a memory warmer,
never colder; more age cools it, never warms it."""

from datetime import timedelta

import pytest

from memdesk.core.domain.heat import TIER_FLOORS, compute_heat, tier_for
from memdesk.core.domain.times import now_utc
from memdesk.core.maintenance import run_maintenance

RANK = {name: i for i, (name, _) in enumerate(TIER_FLOORS)}  # 0 = hot


@pytest.mark.parametrize("days", [0, 0.5, 3, 20, 60, 200, 400, 2000])
def test_more_accesses_never_cool_a_memory(days):
    now = now_utc()
    created = now - timedelta(days=days)
    for mentions in (0, 2, 10):
        heats = [compute_heat(created, a, mentions, now=now) for a in range(12)]
        assert heats == sorted(heats) and heats[-1] > heats[0] or heats[0] == 100.0
        tiers = [RANK[tier_for(h)] for h in heats]
        assert tiers == sorted(tiers, reverse=True)  # rank only goes towards hot


def test_age_never_warms_a_memory():
    now = now_utc()
    for accesses in (0, 3, 20):
        heats = [compute_heat(now - timedelta(days=d), accesses, 0, now=now) for d in range(0, 800, 7)]
        assert heats == sorted(heats, reverse=True)


def test_task_moves_tiers_and_used_memories_stay_warmer(store):
    now = now_utc()
    created = now - timedelta(days=100)
    # as they were when new: hot, heat 100 (an import carries heat and tier over as they were)
    plain, used = store.add_many(
        [
            {"content": "没人看的记忆", "created_at": created, "heat": 100.0, "tier": "hot"},
            {"content": "常被检索的记忆", "created_at": created, "heat": 100.0, "tier": "hot", "access_count": 5},
        ]
    ).added
    store.touch([used])
    report = run_maintenance(store, ["heat"], now=now)
    p, u = store.get(plain), store.get(used)
    assert (p.heat, p.tier) == (30.0, "cold") and (u.heat, u.tier) == (60.0, "warm")
    assert set(report.task("heat").changes.updated) == {plain, used}
    assert report.task("heat").details["moves"] == {"hot→cold": 1, "hot→warm": 1}
    assert p.version == 1  # heat is derived: no version bump, no history
    assert store.revisions(plain) == []
    later = run_maintenance(store, ["heat"], now=now + timedelta(days=300)).task("heat")
    assert store.get(plain).heat == 10.0 and store.get(used).heat == 40.0
    assert later.counts["heat_changed"] == 2
    # nothing changed since: nothing written, nothing reported to the views
    assert not run_maintenance(store, ["heat"], now=now + timedelta(days=300)).changes
