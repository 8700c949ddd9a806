"""Duplicates and consolidation: proposals in the inbox, merge (one transaction),
keep both (never again), dismiss (not now). Nothing merges without the user."""

import numpy as np
import pytest

from memdesk.core.domain.embedding import embed_text, text_hash
from memdesk.core.domain.errors import NotFoundError, ValidationError
from memdesk.core.maintenance import (
    dismiss,
    keep_both,
    merge,
    merge_proposal,
    proposals,
    run_maintenance,
)


def add(store, content, **kw):
    return store.add(content=content, **kw).added[0]


def test_exact_duplicates_are_reported_not_merged(store):
    a = add(store, "用户住在杭州，喜欢 Python")
    b = add(store, "用户住在杭州,喜欢  ＰＹＴＨＯＮ")  # same text once width, case and spaces are normalised
    add(store, "用户住在杭州，喜欢 Python", persona_id=store.create_persona(name="别人")[0])  # another persona
    gone = add(store, "用户住在杭州，喜欢 Python")
    store.delete(gone)
    report = run_maintenance(store, ["duplicates"])
    assert report.task("duplicates").details["groups"] == [[a, b]]
    assert store.count() == 3 and not report.changes


def test_merge_proposal_supersedes_originals_with_history(store):
    a = add(store, "用户喜欢喝绿茶，不喝咖啡", tags=["饮品"], group="偏好")
    b = add(store, "用户喜欢喝绿茶，不喝咖啡。", tags=["习惯"], group="偏好", importance=7)
    other = add(store, "下周三要去上海签合同")
    store.touch([a])
    store.touch([b])
    run_maintenance(store, ["consolidate"])
    [proposal] = proposals(store)
    assert proposal.memory_ids == [a, b] and proposal.suggested_content == "用户喜欢喝绿茶，不喝咖啡。"
    assert store.get(a).superseded_by is None  # nothing merged without the user
    merged_id, changes = merge_proposal(store, proposal.id, content="用户只喝绿茶，从不喝咖啡")
    merged = store.get(merged_id)
    assert merged.content == "用户只喝绿茶，从不喝咖啡" and merged.tags == ("饮品", "习惯")
    assert merged.group == "偏好" and merged.importance == 7 and merged.access_count == 2
    assert merged.created_at == store.get(a).created_at
    for original in (a, b):
        assert store.get(original).superseded_by == merged_id
        assert store.revisions(original)[-1].reason == "merge"
    assert changes.added == (merged_id,) and set(changes.updated) == {a, b}
    assert [m.id for m in store.supersede_chain(a)] == [a, merged_id]
    assert proposals(store) == [] and store.get(other).superseded_by is None
    with pytest.raises(NotFoundError):
        merge_proposal(store, proposal.id, content="again")


def test_merge_is_refused_when_a_member_changed_and_is_all_or_nothing(store):
    a = add(store, "用户的猫叫团子，是一只橘猫")
    b = add(store, "用户的猫叫团子，是只橘猫")
    run_maintenance(store, ["consolidate"])
    [proposal] = proposals(store)
    store.update(b, expected_version=None, content="用户的猫叫团子，是只胖橘猫")
    assert proposals(store)[0].stale
    with pytest.raises(ValidationError, match="edited after"):
        merge_proposal(store, proposal.id, content="合并")
    count = store.count(state="all")

    def boom():
        raise ValidationError("inbox", "simulated failure after the writes")

    with pytest.raises(ValidationError, match="simulated"):
        merge(store, [a, b], content="合并后的", after=boom)
    assert store.count(state="all") == count
    assert store.get(a).superseded_by is None and store.get(b).superseded_by is None
    with pytest.raises(ValidationError, match="at least two"):
        merge(store, [a], content="x")


def test_keep_both_is_permanent_dismiss_is_not(store):
    add(store, "用户在杭州工作，做量化交易")
    add(store, "用户在杭州工作，做量化交易员")
    add(store, "用户养的猫叫团子，是一只很胖的橘猫")
    add(store, "用户养的猫叫团子，是一只非常胖的橘猫")
    run_maintenance(store, ["consolidate"])
    first, second = proposals(store)
    keep_both(store, first.id)
    dismiss(store, second.id)
    assert proposals(store) == []
    run_maintenance(store, ["consolidate"])
    assert [p.id for p in proposals(store)] == [second.id]


def test_vectors_find_paraphrases_with_some_shared_text(store):
    tea = add(store, "用户每天早上喝一杯绿茶")
    habit = add(store, "用户早上习惯喝绿茶")
    far = add(store, "下周三要去上海签合同")
    unit = np.zeros(8, dtype=np.float32)
    unit[0] = 1
    near = np.array([0.96, 0.28, 0, 0, 0, 0, 0, 0], dtype=np.float32)
    store.put_vectors(
        "test-model",
        [(i, text_hash(embed_text("", store.get(i).content)), v) for i, v in ((tea, unit), (habit, near), (far, unit))],
    )
    report = run_maintenance(store, ["consolidate"])
    assert report.task("consolidate").details["model_id"] == "test-model"
    [proposal] = proposals(store)
    assert proposal.memory_ids == [tea, habit] and proposal.kind == "near"
    assert "similar meaning" in proposal.pairs[0][3]
