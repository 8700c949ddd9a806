"""Personas and the persona merge rule (seed 000: a persona sees its own plus global memories)."""

import pytest

from memdesk.core.domain.errors import NotFoundError, ValidationError


@pytest.fixture
def two_personas(store):
    work, _ = store.create_persona(name="工作助手", colour="#3A7BD5")
    life, _ = store.create_persona(name="生活助手")
    ids = {
        "global": store.add(content="用户叫小明").added[0],
        "work": store.add(content="在做量化交易系统", persona_id=work).added[0],
        "life": store.add(content="家里有三只猫", persona_id=life).added[0],
    }
    return work, life, ids


def test_persona_view_merges_global(store, two_personas):
    work, life, ids = two_personas
    assert {m.id for m in store.load_for_persona(work)} == {ids["global"], ids["work"]}
    assert {m.id for m in store.load_for_persona(life)} == {ids["global"], ids["life"]}
    assert {m.id for m in store.load_for_persona(None)} == {ids["global"]}
    assert {m.id for m in store.list(persona=work, merge_global=False)} == {ids["work"]}
    assert len(store.list()) == 3


def test_create_rename_and_names_are_unique(store):
    persona_id, changes = store.create_persona(name="助手", description="d")
    assert changes.personas
    with pytest.raises(ValidationError) as err:
        store.create_persona(name="助手")
    assert err.value.field == "name"
    store.rename_persona(persona_id, "新助手")
    assert store.persona(persona_id).name == "新助手"
    assert store.resolve_persona("新助手") == persona_id
    assert store.persona(persona_id).colour == ""
    with pytest.raises(ValidationError):
        store.create_persona(name="  ")
    with pytest.raises(ValidationError):
        store.resolve_persona("nobody")


def test_delete_persona_requires_a_decision(store, two_personas):
    work, _, _ = two_personas
    with pytest.raises(ValidationError) as err:
        store.delete_persona(work, memories="drop")
    assert "global or trash" in str(err.value)
    assert store.persona(work).name == "工作助手"


def test_delete_persona_make_global(store, two_personas):
    work, _, ids = two_personas
    changes = store.delete_persona(work, memories="global")
    assert changes.updated == (ids["work"],) and changes.personas
    memory = store.get(ids["work"])
    assert memory.persona_id is None and memory.deleted_at is None
    assert store.revisions(ids["work"])[-1].before == {"persona_id": work}
    with pytest.raises(NotFoundError):
        store.persona(work)


def test_delete_persona_to_trash(store, two_personas):
    _, life, ids = two_personas
    changes = store.delete_persona(life, memories="trash")
    assert changes.deleted == (ids["life"],)
    assert store.get(ids["life"]).deleted_at is not None
    assert store.count(state="all") == 3  # nothing dropped


def test_moving_memory_between_personas_rehashes(store, two_personas):
    work, life, ids = two_personas
    before = store.get(ids["work"])
    store.update(ids["work"], expected_version=before.version, persona_id=life)
    after = store.get(ids["work"])
    assert after.persona_id == life and after.content_hash != before.content_hash


@pytest.mark.parametrize("policy", ["global", "trash"])
def test_delete_persona_whose_dedup_key_a_global_memory_holds_says_so(store, db_path, capsys, policy):
    """Both policies detach the memories; a key a global memory already uses is a clear refusal,
    with nothing changed, not SQLite's IntegrityError (which the CLI called a damaged database)."""
    from memdesk.cli import main

    work, _ = store.create_persona(name="工作助手")
    store.add(content="全局：用户喜欢深色主题", dedup_key="theme")
    mine = store.add(content="工作：编辑器用深色主题", dedup_key="theme", persona_id=work).added[0]
    with pytest.raises(ValidationError, match="'theme'"):
        store.delete_persona(work, memories=policy)
    assert store.persona(work).name == "工作助手" and store.get(mine).persona_id == work
    assert not store.get(mine).is_deleted
    assert main(["--db", str(db_path), "persona", "delete", "工作助手", "--memories", policy]) == 1
    err = capsys.readouterr().err
    assert "dedup key" in err and "damaged" not in err
