"""Native JSON round trip and seed 000 files, through plan (preview) and apply."""

import json

import pytest

from memdesk.core.io.native import export_data
from memdesk.core.io.plan import apply_import, import_file, plan_import
from memdesk.core.io.reading import ImportFileError
from memdesk.core.store import Store

SEED000 = {
    "memories": [
        {
            "id": "uuid-1",
            "personaId": "",
            "group": "偏好",
            "title": "不喝咖啡因",
            "content": "用户下午后不喝含咖啡因饮品",
            "tags": ["习惯", "健康"],
            "createdAt": 1234567890000,
            "updatedAt": 1234567890000,
        },
        {"id": "legacy-2", "personaId": "p-42", "content": "只有旧字段", "tags": [], "createdAt": 1700000000000},
    ]
}


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_seed000_object_and_bare_array(store, tmp_path):
    plan, changes = import_file(store, _write(tmp_path, "quro_memory.json", SEED000))
    assert plan.format == "seed000" and plan.summary()["new"] == 2
    memory = store.get("uuid-1")
    assert memory.group == "偏好" and memory.tags == ("习惯", "健康")
    assert memory.created_at.year == 2009 and memory.source == "import:quro_memory"
    legacy = store.get("legacy-2")
    assert store.persona(legacy.persona_id).name == "p-42"  # unknown persona ids become personas
    # same file again: everything unchanged, nothing written
    plan2, changes2 = import_file(store, _write(tmp_path, "again.json", SEED000["memories"]))
    assert plan2.summary()["unchanged"] == 2 and not changes2


def test_merge_by_id_updates_with_history(store, tmp_path):
    import_file(store, _write(tmp_path, "a.json", SEED000))
    changed = {"memories": [dict(SEED000["memories"][0], content="用户完全不喝咖啡", updatedAt=1900000000000)]}
    plan, changes = import_file(store, _write(tmp_path, "b.json", changed))
    assert plan.summary()["updated"] == 1 and changes.updated == ("uuid-1",)
    assert store.get("uuid-1").content == "用户完全不喝咖啡"
    assert store.revisions("uuid-1")[-1].reason == "import"


def test_local_newer_edit_is_a_conflict_kept_by_default(store, tmp_path):
    import_file(store, _write(tmp_path, "a.json", SEED000))
    store.update("uuid-1", expected_version=None, content="我在本地改过")
    stale = {"memories": [dict(SEED000["memories"][0], content="文件里的旧版本")]}
    plan, changes = import_file(store, _write(tmp_path, "b.json", stale))
    assert plan.summary()["conflict"] == 1 and not changes
    assert store.get("uuid-1").content == "我在本地改过"
    plan, changes = import_file(store, _write(tmp_path, "c.json", stale), on_conflict="theirs")
    assert store.get("uuid-1").content == "文件里的旧版本"


def test_invalid_records_are_listed_with_reasons(store, tmp_path):
    data = {
        "memories": [
            {"id": "ok", "content": "fine"},
            {"id": "blank", "content": "  "},
            {"id": "bad-tags", "content": "x", "tags": [1, 2]},
            {"id": "ok", "content": "duplicate id"},
            {"id": "bad-time", "content": "x", "createdAt": "someday"},
        ]
    }
    plan, changes = import_file(store, _write(tmp_path, "mixed.json", data))
    reasons = {item.index: item.reason for item in plan.items if item.status == "invalid"}
    assert set(reasons) == {2, 3, 4, 5}
    assert "content" in reasons[2] and "tags" in reasons[3] and "more than once" in reasons[4]
    assert "created_at" in reasons[5]
    assert changes.added == ("ok",)


def test_dry_run_writes_nothing(store, tmp_path, db_path):
    plan, changes = import_file(store, _write(tmp_path, "a.json", SEED000), dry_run=True)
    assert plan.summary()["new"] == 2 and not changes
    assert store.count(state="all") == 0 and store.personas() == []


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00garbage\xc3", "UTF"),
        (b'{"something": 1}', "unrecognised file"),
        (b"\x80\x81\x82", "not UTF-8"),
        (b"[" * 100000 + b"]" * 100000, "nested too deeply"),
    ],
)
def test_bad_files_are_refused_with_a_message(store, tmp_path, content, message):
    store.add(content="existing")
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ImportFileError) as err:
        import_file(store, path)
    assert message in str(err.value)
    assert store.count(state="all") == 1


def test_bom_is_accepted(store, tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(SEED000).encode())
    plan, _ = import_file(store, path)
    assert plan.summary()["new"] == 2


def test_native_round_trip_is_lossless(store, tmp_path):
    work, _ = store.create_persona(name="工作助手", colour="#112233")
    a = store.add(
        content="用户偏好 Python",
        persona_id=work,
        tags=["编程"],
        type="preference",
        importance=8,
        dedup_key="lang",
        scope="short_term",
        expires_in_days=3,
    ).added[0]
    store.update(a, expected_version=1, content="用户偏好 Rust")
    b = store.add(content="旧地址").added[0]
    store.supersede(b, content="新地址")
    gone = store.add(content="删掉的").added[0]
    store.delete(gone)
    store.touch([a])
    data = export_data(store)
    path = _write(tmp_path, "export.json", data)

    other = Store.open(tmp_path / "other.db")
    try:
        plan, changes = import_file(other, path)
        assert plan.format == "memdesk" and plan.summary()["new"] == 4
        for original in store.list(state="all"):
            copy = other.get(original.id)
            mine, theirs = original.to_json(), copy.to_json()
            for key in ("source", "version"):
                mine.pop(key), theirs.pop(key)
            assert theirs == mine
        assert other.persona(work).name == "工作助手" and other.persona(work).colour == "#112233"
        assert [r.after for r in other.revisions(a)] == [r.after for r in store.revisions(a)]
        # exporting the copy again gives the same memories
        again = export_data(other)
        assert [m["content"] for m in again["memories"]] == [m["content"] for m in data["memories"]]
    finally:
        other.close()


def test_failed_apply_leaves_store_unchanged(store, tmp_path):
    store.add(content="keep me", dedup_key="k")
    data = {
        "format": "memdesk",
        "version": 1,
        "personas": [],
        "memories": [{"id": "n1", "content": "new"}, {"id": "n2", "content": "clash", "dedup_key": "k"}],
    }
    plan = plan_import(store, data)
    assert [i.status for i in plan.items] == ["new", "invalid"]
    assert "already used" in plan.items[1].reason
    apply_import(store, plan)
    assert store.count() == 2
