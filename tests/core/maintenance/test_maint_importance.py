"""Automatic importance from seed 004's dimensions (time, emotion, action, number, entity)."""
from memdesk.core.maintenance import importance_breakdown, importance_score, run_maintenance


def test_seed_examples():
    assert 4 <= importance_score("今天天气不错") <= 6
    assert importance_score("下周三要和小王去上海签 200 万的合同") >= 8
    parts = importance_breakdown("下周三要和小王去上海签 200 万的合同")
    assert all(parts[d] > 0 for d in ("time", "action", "number", "entity"))
    assert importance_breakdown("今天天气不错")["number"] == 0


def test_each_dimension_adds():
    plain = importance_score("记一下这件事情")
    assert importance_score("我妈妈生病住院了，我很担心") > plain  # emotion
    assert importance_score("明天下午3点和张经理在北京开会") > plain  # time, number, entity, action
    assert importance_score("嗯") < 5  # too short to matter


def test_only_automatic_importance_is_recomputed(store):
    auto = store.add(content="下周三要和小王去上海签 200 万的合同").added[0]
    chosen = store.add(content="下周三要和小王去上海签 200 万的合同 (副本)", importance=2).added[0]
    assert store.get(auto).importance == 5 and not store.get(auto).importance_set
    report = run_maintenance(store, ["importance"])
    assert store.get(auto).importance >= 8 and not store.get(auto).importance_set
    assert store.get(chosen).importance == 2  # the user's choice stands
    assert report.task("importance").changes.updated == (auto,)
    assert store.revisions(auto) == []
    again = run_maintenance(store, ["importance"]).task("importance")
    assert again.counts["changed"] == 0 and not again.changes
