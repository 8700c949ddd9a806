"""Rules every import follows: duplicates by content hash, strict mode, all or nothing,
a file that is not what it claims is refused and changes nothing."""

import json

import pytest

from memdesk.core.domain.errors import ValidationError
from memdesk.core.io import plan as plan_module
from memdesk.core.io.plan import STATUSES, apply_import, import_file, plan_file
from memdesk.core.io.reading import ImportFileError
from memdesk.core.storage.backup import list_backups


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_exact_duplicates_are_recognised_by_content_hash(store, tmp_path):
    kept = store.add(content="用户 不喝 咖啡").added[0]
    binned = store.add(content="在回收站里").added[0]
    store.delete(binned)
    data = [
        {"content": "用户  不喝 咖啡"},  # same text after whitespace normalisation
        {"content": "在回收站里"},
        {"content": "新的一条"},
        {"content": "新的一条"},
        {"content": "用户不喝咖啡"},
    ]  # different text: new
    plan, changes = import_file(store, _write(tmp_path, "d.json", data))
    statuses = [i.status for i in plan.items]
    assert statuses == ["unchanged", "unchanged", "new", "unchanged", "new"]
    assert set(statuses) <= set(STATUSES)
    assert plan.items[0].reason == f"duplicate: same text as memory {kept}" and plan.items[0].is_duplicate
    assert "in the trash" in plan.items[1].reason and "record 3" in plan.items[3].reason
    assert plan.duplicates == 3 and len(changes.added) == 2


def test_strict_refuses_and_default_skips_invalid(store, tmp_path):
    path = _write(tmp_path, "m.json", {"memories": [{"content": "ok"}, {"content": ""}]})
    plan = plan_file(store, path)
    with pytest.raises(ImportFileError, match="strict"):
        apply_import(store, plan, strict=True)
    assert store.count(state="all") == 0
    assert apply_import(store, plan).added and store.count() == 1


def test_import_is_all_or_nothing_after_a_backup(store, tmp_path, monkeypatch):
    store.add(content="before")
    plan = plan_file(store, _write(tmp_path, "m.json", [{"content": f"n{i}"} for i in range(50)]))

    def broken(memory_id, revisions):  # fail after the rows went in
        raise ValidationError("revision", "disk full")

    monkeypatch.setattr(plan_module, "copy_revisions", lambda pairs: broken(*next(iter(pairs))))
    with pytest.raises(ValidationError):
        apply_import(store, plan)
    assert store.count(state="all") == 1
    if not store.is_postgres:  # a file copy first; PostgreSQL has no file (the transaction is the guard)
        assert [b.reason for b in list_backups(store.path)] == ["import"]


@pytest.mark.parametrize(
    "name, content, fmt, message",
    [
        ("x.json", b'{"memories": [{"content": "a"}]}', "mem0", "not a mem0 file"),
        ("x.json", b'{"memories": [{"content": "a"}]}', "blockcell", "not an SQLite"),
        ("x.json", b'[{"memory": "a"}]', "seed000", "not a seed000 file (it looks like mem0)"),
        ("x.zip", b'{"memories": []}', "openmemory", "not a zip"),
        ("x.md", b"\x00\x01 binary", "auto", "binary file"),
        ("x.csv", b"just text\n", "csv", "content column"),
        ("x.json", b'{"format": "memdesk", "memories": 3}', "auto", "must be a list"),
    ],
)
def test_a_file_that_is_not_what_it_claims_is_refused(store, tmp_path, name, content, fmt, message):
    store.add(content="existing")
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ImportFileError) as err:
        import_file(store, path, format=fmt)
    assert message in str(err.value)
    assert store.count(state="all") == 1


def test_nanosecond_times_and_mixed_epochs(store, tmp_path):
    data = [
        {"content": "a", "createdAt": "2025-03-01T08:15:30.123456789+08:00"},
        {"content": "b", "createdAt": 1700000000},
        {"content": "c", "createdAt": 1700000000000},
        {"content": "d", "tags": "x，y、z"},
    ]
    import_file(store, _write(tmp_path, "t.json", data))
    got = {m.content: m for m in store.list()}
    assert got["a"].created_at.isoformat() == "2025-03-01T00:15:30.123456+00:00"
    assert got["b"].created_at == got["c"].created_at
    assert got["d"].tags == ("x", "y", "z")


def test_personas_are_created_only_for_memories_written(store, tmp_path):
    store.add(content="已经有了")
    data = [
        {"memory": "已经有了", "user_id": "dave"},  # new: the stored one is global, this is dave's
        {"memory": "", "user_id": "erin"},  # invalid: erin is not created
        {"memory": "新的", "user_id": "frank"},
    ]
    plan, _ = import_file(store, _write(tmp_path, "mem0.json", data))
    assert sorted(f["name"] for f in plan.new_personas.values()) == ["dave", "frank"]
    assert sorted(p.name for p in store.personas()) == ["dave", "frank"]
    plan, changes = import_file(store, _write(tmp_path, "again.json", data[:1] + [{"memory": "x", "user_id": ""}]))
    assert plan.items[0].is_duplicate and not plan.new_personas
