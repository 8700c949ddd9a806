"""Persona ids an import file brings: mapped, created with a readable name, or made global;
remembered per source id; an existing memory never changes owner without a conflict."""

import json

import pytest

from memdesk.core.domain.errors import ValidationError
from memdesk.core.io.personas import ALIASES_KEY, Choice, looks_like_id, readable_name
from memdesk.core.io.plan import apply_import, import_file, plan_file

A = "3f2a9c1e-8d4b-4c1a-9f00-0123456789ab"
B = "7b1e0d22-1111-4222-8333-444455556666"
C = "c0ffee00-aaaa-4bbb-8ccc-dddddddddddd"


def seed_file(tmp_path, name="zorv.json", records=None):
    records = records or [
        {"id": "m1", "personaId": A, "content": "用户喜欢爬山", "createdAt": 1700000000000},
        {"id": "m2", "personaId": A, "content": "用户养了一只猫", "createdAt": 1700000000000},
        {"id": "m3", "personaId": B, "content": "周五提交周报", "createdAt": 1700000000000},
        {"id": "m4", "personaId": C, "content": "用户对花生过敏", "createdAt": 1700000000000},
        {"id": "m5", "personaId": "", "content": "全局的一条", "createdAt": 1700000000000},
    ]
    path = tmp_path / name
    path.write_text(json.dumps({"memories": records}, ensure_ascii=False), encoding="utf-8")
    return path


def test_readable_names_never_a_bare_uuid():
    assert looks_like_id(A) and looks_like_id("3f2a9c1e8d4b4c1a9f000123456789ab")
    assert not looks_like_id("工作助手") and not looks_like_id("p-42")
    assert readable_name(A) == "Imported persona 3f2a9c1e"
    assert readable_name(A, "zh_CN") == "导入的角色 3f2a9c1e"
    assert readable_name("p-42") == "p-42"


def test_unknown_ids_are_listed_and_created_readably(store, tmp_path):
    plan = plan_file(store, seed_file(tmp_path))
    unknown = {u.source_id: u for u in plan.unknown_personas}
    assert set(unknown) == {A, B, C}
    assert unknown[A].records == 2 and unknown[A].choice == Choice.create("Imported persona 3f2a9c1e")
    apply_import(store, plan, backup=False)
    names = sorted(p.name for p in store.personas())
    assert names == ["Imported persona 3f2a9c1e", "Imported persona 7b1e0d22", "Imported persona c0ffee00"]
    assert not any(looks_like_id(n) for n in names)
    assert store.get("m5").persona_id is None


def test_three_choices_and_the_second_import_maps_by_itself(store, tmp_path):
    work, _ = store.create_persona(name="工作助手")
    path = seed_file(tmp_path)
    choices = {A: Choice.create("生活管家"), B: Choice.map_to(work), C: Choice.make_global()}
    plan, _ = import_file(store, path, choices=choices)
    life = store.persona_by_name("生活管家").id
    assert store.get("m1").persona_id == life and store.get("m2").persona_id == life
    assert store.get("m3").persona_id == work and store.get("m4").persona_id is None
    assert len(store.personas()) == 2
    assert store.setting(ALIASES_KEY) == {A: life, B: work, C: None}

    # the same persona ids in another file (new memories): no question, same owners
    again = seed_file(
        tmp_path,
        "again.json",
        [
            {"personaId": A, "content": "新的一条"},
            {"personaId": B, "content": "另一条"},
            {"personaId": C, "content": "第三条"},
        ],
    )
    plan2, _ = import_file(store, again)
    assert plan2.unknown_personas == []
    by_text = {m.content: m.persona_id for m in store.list(limit=100)}
    assert by_text["新的一条"] == life and by_text["另一条"] == work and by_text["第三条"] is None
    assert len(store.personas()) == 2


def test_bad_choices_are_refused_with_a_reason(store, tmp_path):
    store.create_persona(name="工作助手")
    path = seed_file(tmp_path)
    for choice, words in [
        (Choice.create("  "), "type a name"),
        (Choice.create("工作助手"), "already exists"),
        (Choice.create(A), "looks like an id"),
        (Choice.map_to("nope"), "no persona"),
    ]:
        with pytest.raises(ValidationError, match=words):
            plan_file(store, path, choices={A: choice})
    assert store.count(state="all") == 0 and len(store.personas()) == 1


def test_everything_into_one_persona(store, tmp_path):
    plan, _ = import_file(store, seed_file(tmp_path), everything=Choice.create("Zorv"))
    zorv = store.persona_by_name("Zorv").id
    assert {m.persona_id for m in store.list(limit=100)} == {zorv} and len(store.personas()) == 1


def test_a_record_without_persona_keeps_the_owner(store, tmp_path):
    work, _ = store.create_persona(name="工作助手")
    store.add(id="m1", content="用户喜欢爬山", persona_id=work)
    path = seed_file(
        tmp_path,
        records=[{"id": "m1", "personaId": "", "content": "用户喜欢爬山和游泳"}, {"id": "m1x", "content": "另一条"}],
    )
    plan, _ = import_file(store, path)
    assert plan.items[0].status == "updated" and "persona" not in plan.items[0].reason
    memory = store.get("m1")
    assert memory.persona_id == work and memory.content == "用户喜欢爬山和游泳"


def test_a_different_persona_is_a_conflict_with_the_reason(store, tmp_path):
    work, _ = store.create_persona(name="工作助手")
    store.add(id="m1", content="用户喜欢爬山", persona_id=work)
    store.add(id="m2", content="用户养了一只猫", persona_id=work)
    path = seed_file(
        tmp_path,
        records=[
            {"id": "m1", "personaId": A, "content": "用户喜欢爬山"},
            {"id": "m2", "personaId": C, "content": "用户养了一只猫"},
        ],
    )
    plan = plan_file(store, path, choices={C: Choice.make_global()})
    first, second = plan.items
    assert first.status == "conflict"
    assert "Imported persona 3f2a9c1e" in first.reason and "工作助手" in first.reason
    assert second.status == "conflict" and "makes it global" in second.reason
    apply_import(store, plan, backup=False)  # skip: nothing moves
    assert store.get("m1").persona_id == work and store.get("m2").persona_id == work
    plan = plan_file(store, path, choices={C: Choice.make_global()})
    apply_import(store, plan, backup=False, on_conflict="theirs")  # the user decided: take the file's
    assert store.get("m2").persona_id is None
    assert store.persona(store.get("m1").persona_id).name == "Imported persona 3f2a9c1e"
