"""Automatic importance from seed 004's dimensions (time, emotion, action, number, entity)."""

from memdesk.core.maintenance import importance_breakdown, importance_score, run_maintenance
from memdesk.core.storage.models import Memory

RICH = "下周三要和小王去上海签 200 万的合同"


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
    with store.write():  # as a memory written before scoring on add existed: still the old default
        Memory.update(importance=5).where(Memory.id == auto).execute()
    assert store.get(auto).importance == 5 and not store.get(auto).importance_set
    report = run_maintenance(store, ["importance"])
    assert store.get(auto).importance >= 8 and not store.get(auto).importance_set
    assert store.get(chosen).importance == 2  # the user's choice stands
    assert report.task("importance").changes.updated == (auto,)
    assert store.revisions(auto) == []
    again = run_maintenance(store, ["importance"]).task("importance")
    assert again.counts["changed"] == 0 and not again.changes


def test_a_new_memory_is_scored_when_added(store):
    rich = store.get(store.add(content=RICH).added[0])
    assert rich.importance == importance_score(RICH) >= 8 and not rich.importance_set
    titled = store.get(store.add(title="合同", content="嗯").added[0])
    assert titled.importance == importance_score("合同\n嗯")
    plain = store.get(store.add(content="嗯").added[0])
    assert plain.importance == importance_score("嗯") < 5
    many = store.add_many([{"content": RICH + "。"}, {"content": "好", "importance": 9}]).added
    assert store.get(many[0]).importance >= 8 and not store.get(many[0]).importance_set
    assert store.get(many[1]).importance == 9 and store.get(many[1]).importance_set
    upserted = store.get(store.upsert(content=RICH + "!", dedup_key="k").added[0])
    assert upserted.importance >= 8


def test_changing_the_text_rescores_unless_set_by_hand(store):
    auto = store.add(content="嗯").added[0]
    low = store.get(auto).importance
    store.update(auto, expected_version=None, content=RICH)
    record = store.get(auto)
    assert record.importance == importance_score(RICH) > low and not record.importance_set
    assert [r for r in store.revisions(auto) if "importance" in r.after] == []  # automatic: no revision
    store.update(auto, expected_version=None, group="工作")  # neither text nor title: left alone
    assert store.get(auto).importance == importance_score(RICH)

    by_hand = store.add(content="嗯", importance=3).added[0]
    store.update(by_hand, expected_version=None, content=RICH)
    assert store.get(by_hand).importance == 3 and store.get(by_hand).importance_set


def test_an_imported_record_without_importance_is_scored(store, tmp_path):
    from memdesk.core.io.plan import import_file

    path = tmp_path / "seed.json"
    path.write_text('{"memories": [{"id": "r1", "content": "' + RICH + '"}]}', encoding="utf-8")
    import_file(store, path)
    assert store.get("r1").importance == importance_score(RICH)
