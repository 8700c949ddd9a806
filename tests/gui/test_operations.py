"""Each window operation, its undo and its redo, on a real store (no Qt needed)."""
from __future__ import annotations

import pytest

from memdesk.core.errors import ConflictError
from memdesk.core.io.plan import plan_file
from memdesk.gui import operations as ops


def roundtrip(store, result, check_done, check_undone):
    """Apply undo then redo twice; the store must match each time."""
    check_done()
    for _ in range(2):
        result = result.undo(store)
        check_undone()
        result = result.undo(store)
        check_done()


def test_add_undo_purges_and_redo_brings_back_the_same_id(store):
    result = ops.add_memory(store, fields={"content": "记得带伞", "tags": "天气"})
    memory_id = result.value
    roundtrip(store, result,
              lambda: store.get(memory_id).tags == ("天气",),
              lambda: memory_id not in store.get_many([memory_id]))
    assert store.get(memory_id).content == "记得带伞"


def test_update_undo_uses_versions_and_refuses_stale_state(store):
    memory_id = store.add(content="旧", title="标题").added[0]
    result = ops.update_memories(store, edits={memory_id: {"content": "新", "importance": 9}},
                                 versions={memory_id: 1})
    roundtrip(store, result, lambda: store.get(memory_id).content == "新",
              lambda: store.get(memory_id).content == "旧")
    store.update(memory_id, expected_version=None, title="别处改过")
    with pytest.raises(ConflictError):
        result.undo(store)
    assert store.get(memory_id).content == "新"


def test_stale_edit_is_refused_and_nothing_written(store):
    memory_id = store.add(content="原文").added[0]
    store.update(memory_id, expected_version=None, content="别人")
    with pytest.raises(ConflictError) as info:
        ops.update_memories(store, edits={memory_id: {"content": "我的"}}, versions={memory_id: 1})
    assert info.value.current.content == "别人" and store.get(memory_id).content == "别人"


def test_delete_restore_purge_and_empty_trash(store):
    a, b = (store.add(content=c).added[0] for c in ("甲", "乙"))
    result = ops.delete_memories(store, ids=[a, b])
    roundtrip(store, result, lambda: store.count(state="deleted") == 2, lambda: store.count() == 2)
    result = ops.empty_trash(store)
    roundtrip(store, result, lambda: store.count(state="all") == 0, lambda: store.count(state="deleted") == 2)


def test_tags_group_rename_and_bulk_fields(store):
    ids = [store.add(content=f"{i}", tags=["旧"], group="工作/甲").added[0] for i in range(3)]
    result = ops.edit_tags(store, ids=ids, add=["新"], remove=["旧"])
    roundtrip(store, result, lambda: {store.get(i).tags for i in ids} == {("新",)},
              lambda: {store.get(i).tags for i in ids} == {("旧",)})
    result = ops.set_fields(store, ids=ids, type="task", importance=2)
    roundtrip(store, result, lambda: {(store.get(i).type, store.get(i).importance) for i in ids} == {("task", 2)},
              lambda: {store.get(i).type for i in ids} == {"note"})


def test_revert_to_revision_is_an_ordinary_edit(store):
    memory_id = store.add(content="第一版").added[0]
    store.update(memory_id, expected_version=1, content="第二版")
    revision = store.revisions(memory_id)[0]
    result = ops.revert_to_revision(store, memory_id=memory_id, revision_id=revision.id, expected_version=2)
    roundtrip(store, result, lambda: store.get(memory_id).content == "第一版",
              lambda: store.get(memory_id).content == "第二版")
    assert store.revisions(memory_id)[-1].reason == "restore"


def test_personas_create_update_delete_and_undo(store):
    result = ops.create_persona(store, name="助手")
    pid = result.value
    roundtrip(store, result, lambda: store.persona_by_name("助手") is not None,
              lambda: store.persona_by_name("助手") is None)
    ids = [store.add(content=f"{i}", persona_id=pid).added[0] for i in range(2)]
    result = ops.update_persona(store, persona_id=pid, name="教练", colour="#112233")
    roundtrip(store, result, lambda: store.persona(pid).name == "教练", lambda: store.persona(pid).colour == "")
    for policy in ("trash", "global"):
        result = ops.delete_persona(store, persona_id=pid, memories=policy)
        gone = (lambda: all(store.get(i).is_deleted for i in ids)) if policy == "trash" else (
            lambda: all(store.get(i).persona_id is None for i in ids))
        roundtrip(store, result, lambda: gone() and store.persona_by_name("教练") is None,
                  lambda: all(store.get(i).persona_id == pid and not store.get(i).is_deleted for i in ids))
        result.undo(store)


def test_import_is_one_step(store, tmp_path):
    kept = store.add(content="本地", id="m-1").added[0]
    path = tmp_path / "in.json"
    path.write_text('{"format": "memdesk", "version": 1, "personas": [{"id": "p1", "name": "新角色"}],'
                    ' "memories": [{"id": "m-1", "content": "文件里的"}, {"content": "新的", "persona_id": "p1"}]}',
                    encoding="utf-8")
    result = ops.import_plan(store, plan=plan_file(store, path))
    roundtrip(store, result,
              lambda: store.count() == 2 and store.get(kept).content == "文件里的"
              and store.persona_by_name("新角色") is not None,
              lambda: store.count(state="all") == 1 and store.get(kept).content == "本地"
              and store.persona_by_name("新角色") is None)


def test_saved_searches(store):
    result = ops.set_saved_searches(store, searches=[{"name": "工作", "query": "group:工作"}])
    assert "saved_searches" in result.flags
    roundtrip(store, result, lambda: ops.saved_searches(store)[0]["name"] == "工作",
              lambda: ops.saved_searches(store) == [])


def test_merge_joins_many_changes_once():
    from memdesk.core.changes import Changes

    merged = ops.merge([Changes(added=("a",)), Changes(updated=("b", "a")), Changes(personas=True, note="x")])
    assert merged.added == ("a",) and merged.updated == ("b", "a") and merged.personas and merged.note == "x"
