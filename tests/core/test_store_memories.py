"""Memory operations of the Store against a real SQLite file."""

import sqlite3
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdesk.core.domain.errors import ConflictError, NotFoundError, ValidationError
from memdesk.core.domain.times import now_utc


def test_add_keeps_every_field(store):
    changes = store.add(
        content="用户下午后不喝含咖啡因饮品",
        title="不喝咖啡因",
        group="偏好",
        tags=["习惯", "健康"],
        type="preference",
        importance=8,
        summary="咖啡因",
    )
    memory = store.get(changes.added[0])
    assert memory.content == "用户下午后不喝含咖啡因饮品"
    assert memory.title == "不喝咖啡因" and memory.group == "偏好"
    assert memory.tags == ("习惯", "健康")
    assert memory.type == "preference" and memory.scope == "long_term"
    assert memory.importance == 8 and memory.importance_set
    assert memory.source == "manual" and memory.version == 1
    assert memory.created_at.tzinfo is not None and memory.tier == "hot" and memory.heat == 100
    assert len(memory.id) == 36  # a UUID


def test_default_importance_is_automatic(store):
    from memdesk.core.maintenance import importance_score

    memory = store.get(store.add(content="x").added[0])
    assert memory.importance == importance_score("x") and not memory.importance_set


def test_imported_id_is_kept(store):
    store.add(content="from elsewhere", id="D1:3")
    assert store.get("D1:3").content == "from elsewhere"
    with pytest.raises(ValidationError) as err:
        store.add(content="again", id="D1:3")
    assert err.value.field == "id"


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"content": "   "}, "content"),
        ({"content": "x", "type": "opinion"}, "type"),
        ({"content": "x", "scope": "forever"}, "scope"),
        ({"content": "x", "importance": 0}, "importance"),
        ({"content": "x", "importance": 11}, "importance"),
        ({"content": "x", "importance": "high"}, "importance"),
        ({"content": "x", "tags": ["ok", 3]}, "tags"),
        ({"content": "x", "tags": {"a": 1}}, "tags"),
        ({"content": "x" * 100_001}, "content"),
        ({"content": "x", "title": "t" * 501}, "title"),
        ({"content": "x", "group": "g" * 201}, "group"),
        ({"content": "x", "persona_id": "nobody"}, "persona"),
        ({"content": "x", "source": "robot"}, "source"),
        ({"content": "x", "expires_at": "next tuesday"}, "expires_at"),
        ({"content": "x", "colour": "red"}, "colour"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(store, fields, field):
    with pytest.raises(ValidationError) as err:
        store.add(**fields)
    assert err.value.field == field
    assert field in str(err.value)
    assert store.count(state="all") == 0


def test_tags_accept_comma_string_and_dedupe(store):
    memory = store.get(store.add(content="x", tags="习惯，健康、习惯, sport").added[0])
    assert memory.tags == ("习惯", "健康", "sport")
    assert [m.id for m in store.list(tag="健康")] == [memory.id]


def test_update_keeps_history(store):
    memory_id = store.add(content="住在北京", title="城市", tags=["住址"]).added[0]
    store.update(memory_id, expected_version=1, content="住在上海", tags=["住址", "搬家"])
    memory = store.get(memory_id)
    assert memory.content == "住在上海" and memory.version == 2
    [revision] = store.revisions(memory_id)
    assert revision.reason == "edit" and revision.version == 2
    assert revision.before == {"content": "住在北京", "tags": ["住址"]}
    assert revision.after == {"content": "住在上海", "tags": ["住址", "搬家"]}
    assert store.list(tag="住址")[0].id == memory_id and store.list(tag="搬家")[0].id == memory_id


def test_update_without_change_is_no_change(store):
    memory_id = store.add(content="same").added[0]
    assert not store.update(memory_id, expected_version=1, content="same")
    assert store.get(memory_id).version == 1 and store.revisions(memory_id) == []


def test_revert_puts_old_values_back(store):
    memory_id = store.add(content="v1").added[0]
    store.update(memory_id, expected_version=1, content="v2")
    revision = store.revisions(memory_id)[0]
    store.revert(memory_id, revision.id, expected_version=2)
    assert store.get(memory_id).content == "v1"
    assert store.revisions(memory_id)[-1].reason == "restore"


def test_optimistic_update_conflict_loses_nothing(store):
    memory_id = store.add(content="原文").added[0]
    seen = store.get(memory_id)
    store.update(memory_id, expected_version=seen.version, content="助手改的")  # someone else
    with pytest.raises(ConflictError) as err:
        store.update(memory_id, expected_version=seen.version, content="我改的")
    assert err.value.current.content == "助手改的"
    assert "changed elsewhere" in str(err.value)
    assert store.get(memory_id).content == "助手改的"


def test_delete_restore_purge(store):
    keep, gone = store.add(content="keep").added[0], store.add(content="gone").added[0]
    with pytest.raises(ValidationError):
        store.purge([gone])  # only from the trash
    assert store.delete([gone]).deleted == (gone,)
    assert [m.id for m in store.list()] == [keep]
    assert [m.id for m in store.list(state="deleted")] == [gone]
    assert store.restore(gone).restored == (gone,)
    assert store.count() == 2
    store.delete(gone)
    assert store.purge(gone).purged == (gone,)
    with pytest.raises(NotFoundError):
        store.get(gone)


def test_touch_counts_access_without_new_version(store):
    memory_id = store.add(content="x").added[0]
    store.touch([memory_id])
    store.touch([memory_id])
    memory = store.get(memory_id)
    assert memory.access_count == 2 and memory.last_access_at is not None and memory.version == 1


def test_upsert_by_dedup_key(store):
    first = store.upsert(content="用户偏好 Python", dedup_key="user_lang", type="preference").added[0]
    changes = store.upsert(content="用户偏好 Rust", dedup_key="user_lang", importance=8)
    assert changes.updated == (first,) and not changes.added
    memory = store.get(first)
    assert memory.content == "用户偏好 Rust" and memory.importance == 8
    assert store.revisions(first)[-1].reason == "ai"
    # deleted memories come back instead of clashing
    store.delete(first)
    assert store.upsert(content="用户偏好 Go", dedup_key="user_lang").restored == (first,)
    assert store.get(first).deleted_at is None


def test_dedup_key_is_unique_per_persona(store):
    persona_id, _ = store.create_persona(name="工作助手")
    store.add(content="a", dedup_key="k")
    store.add(content="b", dedup_key="k", persona_id=persona_id)  # another persona: fine
    with pytest.raises(ValidationError) as err:
        store.add(content="c", dedup_key="k")
    assert err.value.field == "dedup_key"


def test_supersede_keeps_old_with_history(store):
    old = store.add(content="用户在北京工作", dedup_key="city", tags=["工作"]).added[0]
    changes = store.supersede(old, content="用户之前在北京工作，现在在上海")
    new = changes.added[0]
    old_memory, new_memory = store.get(old), store.get(new)
    assert old_memory.superseded_by == new and old_memory.deleted_at is None
    assert new_memory.dedup_key == "city" and new_memory.tags == ("工作",)
    assert [m.id for m in store.list()] == [new]
    assert [m.id for m in store.list(state="superseded")] == [old]
    assert [m.id for m in store.supersede_chain(new)] == [old, new]
    assert store.revisions(old)[-1].reason == "supersede"
    with pytest.raises(ValidationError):
        store.supersede(old, content="again")


def test_supersede_by_existing_memory(store):
    a, b = store.add(content="a").added[0], store.add(content="b").added[0]
    store.supersede(a, new_id=b)
    assert store.get(a).superseded_by == b
    with pytest.raises(ValidationError):
        store.supersede(b, new_id=b)


def test_expired_memories_are_hidden_and_cleaned(store):
    past = now_utc() - timedelta(days=1)
    short = store.add(content="今天在分析 Q3 财报", scope="short_term", expires_at=past).added[0]
    long_ = store.add(content="长期", expires_at=past).added[0]
    live = store.add(content="还有效", scope="short_term", expires_in_days=1).added[0]
    assert {m.id for m in store.list()} == {live}
    assert {m.id for m in store.list(state="expired")} == {short, long_}
    changes = store.clean()
    assert changes.deleted == (short,)
    assert store.get(short).deleted_at is not None
    # trash older than 30 days is purged; what expires in the same run stays in the trash
    later = store.clean(now=now_utc() + timedelta(days=31))
    assert later.purged == (short,) and later.deleted == (live,)
    assert store.count(state="all") == 2 and store.get(live).deleted_at is not None


def test_list_filters_sort_and_paging(store):
    ids = [
        store.add(
            content=f"m{i}", importance=i + 1, group="工作/项目A" if i % 2 else "生活", type="task" if i < 3 else "fact"
        ).added[0]
        for i in range(6)
    ]
    assert {m.id for m in store.list(group="工作")} == {ids[1], ids[3], ids[5]}
    assert {m.id for m in store.list(type="task")} == set(ids[:3])
    assert [m.importance for m in store.list(sort="importance", descending=True, limit=2)] == [6, 5]
    assert [m.importance for m in store.list(sort="importance", descending=False, offset=2, limit=2)] == [3, 4]
    assert {m.importance for m in store.list(importance_min=3, importance_max=4)} == {3, 4}
    with pytest.raises(ValidationError):
        store.list(sort="colour")


def test_stats(store):
    persona_id, _ = store.create_persona(name="学习助手")
    store.add(content="a", group="偏好", type="preference")
    store.add(content="b", persona_id=persona_id)
    gone = store.add(content="c").added[0]
    store.delete(gone)
    stats = store.stats()
    assert stats["total"] == 2 and stats["trash"] == 1
    assert stats["by_persona"] == {"(global)": 1, "学习助手": 1}
    assert stats["by_type"] == {"note": 1, "preference": 1}


def test_content_hash_finds_exact_duplicates(store):
    a = store.get(store.add(content="用户  喜欢 Python").added[0])
    b = store.get(store.add(content="用户 喜欢 python ").added[0])
    c = store.get(store.add(content="用户喜欢 Java").added[0])
    assert a.content_hash == b.content_hash != c.content_hash


@pytest.mark.sqlite_only  # writes an old row through sqlite3
def test_a_year_before_1000_reads_back_and_sorts_by_time(store, db_path):
    # Found by the blockcell fuzz: an epoch of -5e10 s is year 385; strftime wrote it as '385-…',
    # and from then on every listing of the store failed to read that row.
    ancient = datetime(385, 7, 1, 12, 0, tzinfo=timezone.utc)
    old_id = store.add(content="很久以前", created_at=ancient).added[0]
    store.add(content="现在")
    assert store.get(old_id).created_at == ancient
    assert [m.content for m in store.list(sort="created_at", descending=False)] == ["很久以前", "现在"]
    conn = sqlite3.connect(db_path)  # a row an earlier version wrote unpadded still reads
    conn.execute("UPDATE memory SET created_at = '385-07-01 12:00:00.000000' WHERE id = ?", (old_id,))
    conn.commit()
    conn.close()
    assert store.get(old_id).created_at == ancient


def test_stored_time_is_fixed_width_and_refuses_naive_times():
    from memdesk.core.storage.models import stored_time

    early = stored_time(datetime(385, 7, 1, 12, 0, tzinfo=timezone.utc))
    late = stored_time(datetime(2024, 5, 31, 10, 30, tzinfo=timezone.utc))
    assert early == "0385-07-01 12:00:00.000000" and len(early) == len(late) and early < late
    with pytest.raises(ValueError):
        stored_time(datetime(2024, 5, 31))


# Fixed offsets: a named zone's repeated hour (DST's end) never compares equal across zones.
_OFFSETS = st.builds(timezone, st.timedeltas(min_value=timedelta(hours=-23), max_value=timedelta(hours=23)))
_TIMES = st.datetimes(timezones=_OFFSETS, min_value=datetime(2, 1, 1), max_value=datetime(9998, 12, 31))


@given(_TIMES, _TIMES)
@settings(max_examples=300, deadline=None)
def test_stored_times_read_back_and_sort_as_the_times_do(a, b):
    from memdesk.core.storage.models import UTCDateTimeField, stored_time

    field = UTCDateTimeField()
    for value in (a, b):
        text = stored_time(value)
        assert len(text) == len("2024-05-31 10:30:00.000000")
        assert field.python_value(text) == value  # the same instant, in UTC
    assert (stored_time(a) < stored_time(b)) == (a < b)
