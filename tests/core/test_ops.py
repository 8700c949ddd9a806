"""Each window operation, its undo and its redo, on a real store (no Qt needed)."""

from __future__ import annotations

import pytest

from memdesk.core import ops
from memdesk.core.domain.errors import ConflictError
from memdesk.core.io.plan import plan_file


def roundtrip(store, result, check_done, check_undone):
    """Apply undo then redo twice; the store must match each time. Returns the last (redo) Result."""
    assert check_done(), "the operation did not do what it should"
    for round_ in range(2):
        result = result.undo(store)
        assert check_undone(), f"undo #{round_ + 1} did not put the store back"
        result = result.undo(store)
        assert check_done(), f"redo #{round_ + 1} did not do the operation again"
    return result


def test_add_undo_purges_and_redo_brings_back_the_same_id(store):
    result = ops.add_memory(store, fields={"content": "记得带伞", "tags": "天气"})
    memory_id = result.value
    roundtrip(
        store,
        result,
        lambda: store.get(memory_id).tags == ("天气",),
        lambda: memory_id not in store.get_many([memory_id]),
    )
    assert store.get(memory_id).content == "记得带伞"


def test_update_undo_refuses_stale_state(store):
    memory_id = store.add(content="旧", title="标题").added[0]
    result = ops.update_memories(store, edits={memory_id: {"content": "新", "importance": 9}}, versions={memory_id: 1})
    roundtrip(store, result, lambda: store.get(memory_id).content == "新", lambda: store.get(memory_id).content == "旧")
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
    roundtrip(
        store,
        result,
        lambda: {store.get(i).tags for i in ids} == {("新",)},
        lambda: {store.get(i).tags for i in ids} == {("旧",)},
    )
    result = ops.set_fields(store, ids=ids, type="task", importance=2)
    roundtrip(
        store,
        result,
        lambda: {(store.get(i).type, store.get(i).importance) for i in ids} == {("task", 2)},
        lambda: {store.get(i).type for i in ids} == {"note"},
    )


def test_revert_to_revision_is_an_ordinary_edit(store):
    memory_id = store.add(content="第一版").added[0]
    store.update(memory_id, expected_version=1, content="第二版")
    revision = store.revisions(memory_id)[0]
    result = ops.revert_to_revision(store, memory_id=memory_id, revision_id=revision.id, expected_version=2)
    roundtrip(
        store,
        result,
        lambda: store.get(memory_id).content == "第一版",
        lambda: store.get(memory_id).content == "第二版",
    )
    assert store.revisions(memory_id)[-1].reason == "restore"


def test_personas_create_update_delete_and_undo(store):
    result = ops.create_persona(store, name="助手")
    pid = result.value
    roundtrip(
        store, result, lambda: store.persona_by_name("助手") is not None, lambda: store.persona_by_name("助手") is None
    )
    ids = [store.add(content=f"{i}", persona_id=pid).added[0] for i in range(2)]
    result = ops.update_persona(store, persona_id=pid, name="教练", colour="#112233")
    roundtrip(store, result, lambda: store.persona(pid).name == "教练", lambda: store.persona(pid).colour == "")
    for policy in ("trash", "global"):
        result = ops.delete_persona(store, persona_id=pid, memories=policy)
        gone = (
            (lambda: all(store.get(i).is_deleted for i in ids))
            if policy == "trash"
            else (lambda: all(store.get(i).persona_id is None for i in ids))
        )
        roundtrip(
            store,
            result,
            lambda gone=gone: gone() and store.persona_by_name("教练") is None,
            lambda: all(store.get(i).persona_id == pid and not store.get(i).is_deleted for i in ids),
        )
        result.undo(store)  # the first result's undo still fits after the round trips: persona back
        assert store.persona(pid).name == "教练"
        assert all(store.get(i).persona_id == pid and not store.get(i).is_deleted for i in ids)


def test_import_is_one_step(store, tmp_path):
    kept = store.add(content="本地", id="m-1").added[0]
    path = tmp_path / "in.json"
    path.write_text(
        '{"format": "memdesk", "version": 1, "personas": [{"id": "p1", "name": "新角色"}],'
        ' "memories": [{"id": "m-1", "content": "文件里的"}, {"content": "新的", "persona_id": "p1"}]}',
        encoding="utf-8",
    )
    result = ops.import_plan(store, plan=plan_file(store, path))
    roundtrip(
        store,
        result,
        lambda: (
            store.count() == 2 and store.get(kept).content == "文件里的" and store.persona_by_name("新角色") is not None
        ),
        lambda: (
            store.count(state="all") == 1
            and store.get(kept).content == "本地"
            and store.persona_by_name("新角色") is None
        ),
    )


def test_saved_searches(store):
    result = ops.set_saved_searches(store, searches=[{"name": "工作", "query": "group:工作"}])
    assert "saved_searches" in result.flags
    roundtrip(
        store, result, lambda: ops.saved_searches(store)[0]["name"] == "工作", lambda: ops.saved_searches(store) == []
    )


def test_merge_joins_many_changes_once():
    from memdesk.core.domain.changes import Changes

    merged = ops.merge([Changes(added=("a",)), Changes(updated=("b", "a")), Changes(personas=True, note="x")])
    assert merged.added == ("a",) and merged.updated == ("b", "a") and merged.personas and merged.note == "x"


# ---- depth: undo any number of steps on the same memory (issue 14) ----------------------------
def visible(store, memory_id):
    record = store.get_many([memory_id]).get(memory_id)
    return None if record is None else ops.fingerprint(record)


def undo_all(store, results):
    """Undo newest first, as the undo stack does; returns the redo steps oldest first."""
    redo = [r.undo(store) for r in reversed(results)]
    return list(reversed(redo))


def test_three_bulk_steps_on_one_memory_undo_and_redo_to_the_bottom(store):
    memory_id = store.add(content="一条").added[0]
    automatic = store.get(memory_id).importance
    states, results = [visible(store, memory_id)], []
    for fields in ({"importance": 9}, {"type": "fact"}, {"group": "甲"}):
        results.append(ops.set_fields(store, ids=[memory_id], **fields))
        states.append(visible(store, memory_id))
    redo = []
    for k, result in enumerate(reversed(results), start=1):
        redo.insert(0, result.undo(store))
        assert visible(store, memory_id) == states[-1 - k]
    record = store.get(memory_id)
    assert (record.importance, record.type, record.group, record.importance_set) == (automatic, "note", "", False)
    assert automatic != 9
    for k, step in enumerate(redo, start=1):
        step.undo(store)
        assert visible(store, memory_id) == states[k]
    record = store.get(memory_id)
    assert (record.importance, record.type, record.group) == (9, "fact", "甲")


def test_two_editor_saves_undo_twice(store):
    memory_id = store.add(content="v1").added[0]
    first = ops.update_memories(store, edits={memory_id: {"content": "v2"}}, versions={memory_id: 1})
    second = ops.update_memories(store, edits={memory_id: {"content": "v3", "title": "t"}}, versions={memory_id: 2})
    undo_all(store, [first, second])
    assert (store.get(memory_id).content, store.get(memory_id).title) == ("v1", "")


def test_importance_then_delete_undo_undo_redo_redo(store):
    memory_id = store.add(content="x").added[0]
    automatic = store.get(memory_id).importance
    steps = [ops.set_fields(store, ids=[memory_id], importance=9), ops.delete_memories(store, ids=[memory_id])]
    redo = undo_all(store, steps)
    record = store.get(memory_id)
    assert not record.is_deleted and record.importance == automatic != 9 and not record.importance_set
    for step in redo:
        step.undo(store)
    record = store.get(memory_id)
    assert record.is_deleted and record.importance == 9


def test_a_deep_step_changed_by_another_writer_is_refused_not_applied(store):
    memory_id = store.add(content="原文").added[0]
    automatic = store.get(memory_id).importance
    steps = [ops.set_fields(store, ids=[memory_id], importance=9), ops.set_fields(store, ids=[memory_id], type="fact")]
    steps[1].undo(store)
    store.update(memory_id, expected_version=None, title="别处")  # another process, between two undos
    with pytest.raises(ops.StaleStepError) as info:
        steps[0].undo(store)
    message = str(info.value)
    assert "changed elsewhere" in message and "title" in message and "别处" in message
    assert store.get(memory_id).importance == 9  # nothing written
    store.update(memory_id, expected_version=None, title="")  # the other change goes away again
    steps[0].undo(store)  # the same step, kept by its caller, now fits
    assert store.get(memory_id).importance == automatic != 9


def test_access_counters_do_not_make_a_step_stale(store):
    memory_id = store.add(content="被搜到").added[0]
    step = ops.set_fields(store, ids=[memory_id], group="乙")
    store.touch([memory_id])
    store.touch([memory_id], mentions=True)
    step.undo(store)
    assert store.get(memory_id).group == ""


def test_undo_of_add_refuses_when_the_memory_was_edited_elsewhere(store):
    result = ops.add_memory(store, fields={"content": "新"})
    store.update(result.value, expected_version=None, content="助手改过")
    with pytest.raises(ops.StaleStepError):
        result.undo(store)
    assert store.get(result.value).content == "助手改过"  # not purged


def test_restore_of_an_expired_memory_undoes_exactly(store):
    memory_id = store.add(content="过期", scope="short_term", expires_at="2000-01-01T00:00:00Z").added[0]
    store.delete([memory_id])
    before = visible(store, memory_id)
    result = ops.restore_memories(store, ids=[memory_id])
    assert store.get(memory_id).expires_at is None  # restore clears a past expiry
    after = visible(store, memory_id)
    result = result.undo(store)
    assert visible(store, memory_id) == before
    result.undo(store)
    assert visible(store, memory_id) == after


def test_persona_rename_then_delete_undo_undo(store):
    pid = ops.create_persona(store, name="甲").value
    memory_id = store.add(content="属于甲", persona_id=pid).added[0]
    steps = [
        ops.update_persona(store, persona_id=pid, name="乙"),
        ops.delete_persona(store, persona_id=pid, memories="trash"),
    ]
    redo = undo_all(store, steps)
    assert store.persona(pid).name == "甲"
    assert store.get(memory_id).persona_id == pid and not store.get(memory_id).is_deleted
    for step in redo:
        step.undo(store)
    assert store.persona_by_name("乙") is None and store.get(memory_id).is_deleted


def test_undo_of_create_persona_refuses_when_another_writer_gave_it_memories(store):
    result = ops.create_persona(store, name="新")
    store.add(content="别处加的", persona_id=result.value)
    with pytest.raises(ops.StaleStepError):
        result.undo(store)
    assert store.persona(result.value).name == "新"


def test_global_memory_switch(store):
    result = ops.set_global_memory_switch(store, on=False)
    roundtrip(
        store,
        result,
        lambda: store.setting(ops.GLOBAL_SWITCH_KEY) is False,
        lambda: store.setting(ops.GLOBAL_SWITCH_KEY) is True,
    )


# ---- review inbox and assistant calls: undoable too, to any depth ---------------------------------
def inbox_state(store):
    from memdesk.core.maintenance.consolidation import KEPT_KEY, PROPOSALS_KEY

    return (
        {r.id: ops.fingerprint(r) for r in store.iter_records()},
        store.setting(PROPOSALS_KEY, None),
        store.setting(KEPT_KEY, None),
    )


def tea_proposal(store):
    from memdesk.core.maintenance import proposals, run_maintenance

    first = store.add(content="用户喜欢喝乌龙茶，每天下午一杯", tags=["饮食"], dedup_key="tea").added[0]
    second = store.add(content="用户喜欢喝乌龙茶，每天下午喝一杯").added[0]
    run_maintenance(store, tasks=["consolidate"])
    (proposal,) = proposals(store)
    return proposal, first, second


@pytest.mark.parametrize("answer", ["merge", "keep_both", "dismiss"])
def test_inbox_answers_undo_and_redo_after_other_steps(store, answer):
    proposal, first, second = tea_proposal(store)
    start = inbox_state(store)
    step = {
        "merge": lambda: ops.merge_proposal(store, proposal_id=proposal.id, content="乌龙茶，每天下午一杯"),
        "keep_both": lambda: ops.keep_both_proposal(store, proposal_id=proposal.id),
        "dismiss": lambda: ops.dismiss_proposal(store, proposal_id=proposal.id),
    }[answer]()
    later = ops.set_fields(store, ids=[first], importance=8)  # a later step on a member, undone first
    done = inbox_state(store)
    redo_later = later.undo(store)
    redo_step = step.undo(store)
    assert inbox_state(store) == start
    assert not store.get(first).is_superseded and not store.get(second).is_superseded
    if answer == "merge":
        assert step.value not in store.get_many([step.value])  # the merged memory is gone again
    step_again = redo_step.undo(store)
    later_again = redo_later.undo(store)
    assert inbox_state(store) == done
    if answer == "merge":
        assert store.get(first).superseded_by == step.value and store.get(step.value).dedup_key == "tea"
    store.update(second, expected_version=None, group="别处")  # another process changes a member
    later_again.undo(store)  # the later step touched only the first memory: still fine
    if answer == "merge":
        with pytest.raises(ops.StaleStepError):
            step_again.undo(store)
        assert store.get(second).superseded_by == step.value  # nothing put back
    else:
        step_again.undo(store)  # inbox answers touch no memory: the proposal comes back
        assert inbox_state(store)[1:] == start[1:]


def test_tool_call_revert_is_undoable(store):
    from memdesk.core.tools import log
    from memdesk.core.tools.service import MemoryTools

    tools = MemoryTools(store, client="test")
    memory_id = tools.call("memory_save", {"content": "用户偏好 Python 编程"})["id"]
    call_id = log.calls(limit=1)[0].id
    result = ops.revert_tool_call(store, call_id=call_id)
    roundtrip(
        store,
        result,
        lambda: store.get(memory_id).is_deleted and log.get(call_id).reverted_at is not None,
        lambda: not store.get(memory_id).is_deleted and log.get(call_id).reverted_at is None,
    )
