"""The change-feed reader an open window follows: what another connection did, touches left out."""

import threading

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memdesk.core.feed import prints as feed_prints
from memdesk.core.feed.prints import Prints
from memdesk.core.feed.reader import FeedReader, is_external, is_reload
from memdesk.core.feed.wait import waiter_for
from memdesk.core.maintenance import run_maintenance
from memdesk.core.store import Store


def _two(db_path):
    """(reader's store, another connection on the same file) — as the window and the CLI."""
    return Store.open(db_path), Store.open(db_path)


def _reader(store) -> FeedReader:
    reader = FeedReader(store)
    reader.begin_at(store.change_marker())
    assert reader.poll() is not None  # the first poll reads the fingerprints
    assert reader.poll() is None  # nobody wrote since
    return reader


def test_each_kind_of_change_is_classified_and_touches_are_not_changes(db_path):
    mine, other = _two(db_path)
    a = other.add(content="用户喜欢喝茶").added[0]
    b = other.add(content="周三开会").added[0]
    reader = _reader(mine)

    other.touch([a, b])  # an assistant's search: feed rows, nothing a person sees
    changes, something_else = reader.poll()
    assert not changes and not something_else

    c = other.add(content="新的记忆").added[0]
    other.update(a, expected_version=None, title="茶")
    other.delete([b])
    changes, _ = reader.poll()
    assert changes.added == (c,) and changes.updated == (a,) and changes.deleted == (b,)
    assert is_external(changes) and not is_reload(changes)

    other.restore([b])
    assert reader.poll()[0].restored == (b,)
    other.delete([c])
    other.purge([c])
    assert reader.poll()[0].purged == (c,)
    other.create_persona(name="工作助手")
    changes, _ = reader.poll()
    assert changes.personas and not changes.memory_ids
    mine.close(), other.close()


def test_an_import_that_keeps_old_times_is_still_seen(db_path):
    mine, other = _two(db_path)
    a = other.add(content="旧的内容").added[0]
    old = other.get(a).updated_at
    reader = _reader(mine)
    other.add_many(
        [{"content": "导入的记忆", "created_at": "2020-01-01T00:00:00Z", "updated_at": "2020-01-01T00:00:00Z"}]
    )
    changes, _ = reader.poll()
    assert len(changes.added) == 1 and other.get(changes.added[0]).updated_at.year == 2020
    assert other.get(a).updated_at == old
    mine.close(), other.close()


def test_own_writes_absorbed_are_not_reported_back(db_path):
    mine, other = _two(db_path)
    a = other.add(content="一条记忆").added[0]
    reader = _reader(mine)
    mine.update(a, expected_version=None, title="我改的")
    reader.absorb([a])
    result = reader.poll()
    assert result is None or not result[0]
    other.update(a, expected_version=None, title="别人改的")
    assert reader.poll()[0].updated == (a,)
    mine.close(), other.close()


def test_a_reader_behind_the_pruned_feed_reloads_and_maintenance_prunes(db_path):
    mine, other = _two(db_path)
    reader = _reader(mine)
    for i in range(30):
        other.add(content=f"记忆 {i}")
    report = run_maintenance(other, ["prune_feed"], feed_keep=10)
    assert report.tasks[0].status == "done" and report.tasks[0].counts["removed"] == 20
    rows = other.connection().execute("SELECT COUNT(*) FROM change_log").fetchone()[0]
    assert rows == 10
    changes, _ = reader.poll()
    assert is_reload(changes)  # its unread rows were pruned: it cannot know, so it reloads
    other.add(content="之后的一条")
    changes, _ = reader.poll()  # and goes on from the new position
    assert len(changes.added) == 1 and not is_reload(changes)
    mine.close(), other.close()


def test_a_reader_not_behind_the_prune_loses_nothing(db_path):
    mine, other = _two(db_path)
    for i in range(30):
        other.add(content=f"记忆 {i}")
    reader = _reader(mine)
    x = other.add(content="未读的").added[0]
    other.prune_change_log(keep=5)
    changes, _ = reader.poll()
    assert changes.added == (x,) and not is_reload(changes)
    mine.close(), other.close()


def _ended(wait, within: float = 60.0):
    """Run ``wait`` on a thread; what it returned, once it has returned. ``within`` is only a
    bound for a broken wait: the waits below ask for an hour, so returning at all is the event."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(wait()))
    thread.start()
    thread.join(within)
    assert not thread.is_alive(), "the wait did not end"
    return result[0]


def test_a_waiter_wakes_at_a_commit_and_cancel_ends_its_wait_at_once(db_path):
    store = Store.open(db_path)
    waiter = waiter_for(store, store.connect_target())
    assert not waiter.wait(0.01)  # PostgreSQL: LISTEN now; nobody wrote
    # Another connection: the store's own, on another thread (SQLite's data_version counts
    # others' commits). It writes until the waiter has woken: SQLite's waiter sees only a commit
    # made after its wait began.
    woken = threading.Event()

    def write_until_woken():
        while not woken.is_set():
            store.add(content="别的连接写的")
            woken.wait(0.05)

    writer = threading.Thread(target=write_until_woken)
    writer.start()
    assert _ended(lambda: waiter.wait(3600))
    woken.set()
    writer.join()
    while waiter.wait(0.5):  # PostgreSQL: the notices of the writes after the wake
        pass
    assert not waiter.wait(0.2)  # nobody wrote since
    waiter.cancel()  # as a closing window does, from its UI thread
    assert _ended(lambda: waiter.wait(3600)) is False
    assert _ended(lambda: waiter.wait(3600)) is False  # and every later wait returns at once
    waiter.close()
    store.close()


ids = st.sampled_from([f"m{i}" for i in range(12)])
prints = st.tuples(st.integers(-(2**63), 2**63 - 1).map(lambda v: v & ~1), st.booleans())


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(ids, prints),
    st.lists(st.one_of(st.tuples(st.just("set"), ids, prints), st.tuples(st.just("pop"), ids))),
    st.sampled_from(["real", "first hashes collide", "both collide"]),
)
def test_compact_prints_answer_as_a_dict_does(first, steps, hashes):
    # A dict of id -> (fingerprint, trash) cost ~250 bytes a memory: 250 MB at a million.
    if hashes == "both collide":
        assume(len(first) >= 2)  # two stored ids that share both hashes: kept as a plain dict
    key, check = {
        "real": (hash, feed_prints._check),
        "first hashes collide": (len, feed_prints._check),
        "both collide": (lambda memory_id: 7, lambda memory_id: 7),
    }[hashes]
    kept = Prints(lambda: [(i, fp, trash) for i, (fp, trash) in first.items()], key=key, check=check)
    model = dict(first)
    for step in steps:
        if step[0] == "set":
            kept[step[1]] = step[2]
            model[step[1]] = step[2]
        else:
            assert kept.pop(step[1], None) == model.pop(step[1], None)
    for memory_id in [f"m{i}" for i in range(12)]:
        assert kept.get(memory_id) == model.get(memory_id)
