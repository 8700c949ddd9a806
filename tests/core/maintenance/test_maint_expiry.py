"""Expiry of short-term memories (to the trash) and purging of old trash (seed 001)."""

from datetime import timedelta

from memdesk.core.domain.times import now_utc
from memdesk.core.maintenance import run_maintenance


def test_expired_short_term_goes_to_trash_long_term_stays(store):
    now = now_utc()
    short = store.add(content="今天在分析 Q3 财报", scope="short_term", expires_at=now - timedelta(hours=1)).added[0]
    fresh = store.add(content="明天的任务", scope="short_term", expires_at=now + timedelta(days=1)).added[0]
    long = store.add(content="长期但写了过期", scope="long_term", expires_at=now - timedelta(hours=1)).added[0]
    report = run_maintenance(store, ["expire"], now=now)
    task = report.task("expire")
    assert task.counts == {"expired_to_trash": 1} and task.changes.deleted == (short,)
    assert store.get(short).is_deleted and not store.get(fresh).is_deleted and not store.get(long).is_deleted
    assert store.get(short).version == 2
    assert run_maintenance(store, ["expire"], now=now).task("expire").counts == {"expired_to_trash": 0}


def test_trash_older_than_the_limit_is_purged(store):
    now = now_utc()
    old = store.add(content="很久以前删的").added[0]
    recent = store.add(content="最近删的").added[0]
    live = store.add(content="还在用").added[0]
    store.delete([old, recent])
    report = run_maintenance(store, ["purge_trash"], now=now + timedelta(days=31))
    assert report.task("purge_trash").changes.purged == (old, recent)  # both past 30 days by then
    assert store.count(state="all") == 1 and store.get(live)
    again = store.add(content="再删一条").added[0]
    store.delete(again)
    report = run_maintenance(store, ["purge_trash"], now=now + timedelta(days=5), trash_days=10)
    assert report.task("purge_trash").counts == {"purged": 0}
    report = run_maintenance(store, ["purge_trash"], now=now + timedelta(days=11), trash_days=10)
    assert report.task("purge_trash").counts == {"purged": 1}


def test_trash_days_can_be_a_setting(store):
    store.set_setting("maintenance.trash_days", 0)
    gone = store.add(content="马上清掉").added[0]
    store.delete(gone)
    report = run_maintenance(store, ["purge_trash"], now=now_utc() + timedelta(seconds=1))
    assert report.task("purge_trash").details["trash_days"] == 0 and store.count(state="all") == 0


def test_memdesk_clean_honours_the_trash_days_setting(store, db_path, capsys):
    """`memdesk clean` and Store.clean keep the trash as long as the window's setting says."""
    import json

    from memdesk.cli import main

    kept = store.add(content="删了但还在保留期").added[0]
    store.delete(kept)
    assert store.clean().purged == ()  # the default: 30 days
    store.set_setting("maintenance.trash_days", 0)
    assert main(["--db", str(db_path), "clean", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["purged"] == 1
    assert store.count(state="all") == 0
    other = store.add(content="命令行指定的天数优先").added[0]
    store.delete(other)
    assert main(["--db", str(db_path), "clean", "--trash-days", "30"]) == 0
    assert store.get(other).is_deleted
