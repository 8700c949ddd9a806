"""mcp-memory-service: its CLI export, its dashboard export and its old ChromaDB backup."""

import json

from memdesk.core.io.plan import import_file

CLI_EXPORT = {
    "export_metadata": {
        "source_machine": "laptop",
        "export_timestamp": "2025-05-01T10:00:00.123456",
        "total_memories": 2,
        "platform": "Linux",
        "exporter_version": "5.0.1",
    },
    "memories": [
        {
            "content": "We chose SQLite-vec for storage",
            "content_hash": "9f2c" + "0" * 60,
            "tags": ["decision", "source:laptop"],
            "created_at": 1714557600.25,
            "updated_at": 1714557600.25,
            "memory_type": "decision",
            "metadata": {"hostname": "laptop"},
            "export_source": "laptop",
        },
        {
            "content": "项目截止日期是下周五",
            "content_hash": "77ab" + "0" * 60,
            "tags": "项目,截止",
            "created_at": 1714557700,
            "updated_at": 1714557800,
            "memory_type": "note",
            "metadata": {},
            "export_source": "laptop",
        },
    ],
}
DASHBOARD = {
    "export_date": "2025-05-02T08:00:00.000Z",
    "total_memories": 1,
    "exported_memories": 1,
    "memories": [
        {
            "content": "Dashboard memory",
            "content_hash": "aa11" + "0" * 60,
            "tags": [],
            "memory_type": "observation",
            "metadata": {},
            "created_at": 1714640000.0,
            "created_at_iso": "2024-05-02T08:53:20Z",
            "updated_at": 1714640000.0,
            "updated_at_iso": "2024-05-02T08:53:20Z",
        }
    ],
}
OLD_BACKUP = {
    "timestamp": "2024-01-01T00:00:00",
    "memories": [
        {
            "id": "chroma-1",
            "document": "Old chroma memory",
            "metadata": {
                "content_hash": "bb22" + "0" * 60,
                "tags": '["legacy", "chroma"]',
                "type": "note",
                "timestamp": 1704067200,
            },
        },
        {
            "id": "chroma-2",
            "document": "Another",
            "metadata": {"content_hash": "cc33" + "0" * 60, "tags": "a, b", "timestamp": "2024-01-02T00:00:00Z"},
        },
        {"id": "chroma-3", "document": "", "metadata": {}},
    ],
}


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def test_cli_export(store, tmp_path):
    plan, changes = import_file(store, _write(tmp_path, "export.json", CLI_EXPORT))
    assert plan.format == "mcp-memory-service" and len(changes.added) == 2
    decision = store.get("9f2c" + "0" * 60)  # the content hash is the service's id
    assert decision.type == "note" and decision.tags == ("decision", "source:laptop")
    assert decision.created_at.timestamp() == 1714557600.25
    note = store.get("77ab" + "0" * 60)
    assert note.tags == ("项目", "截止") and note.updated_at.timestamp() == 1714557800
    again, _ = import_file(store, _write(tmp_path, "again.json", CLI_EXPORT))
    assert again.summary()["unchanged"] == 2


def test_dashboard_export_and_old_backup(store, tmp_path):
    plan, _ = import_file(store, _write(tmp_path, "mcp-memories-export-2025-05-02.json", DASHBOARD))
    assert plan.format == "mcp-memory-service"
    memory = store.get("aa11" + "0" * 60)
    assert memory.type == "fact" and "observation" in memory.tags and memory.created_at.year == 2024
    plan, _ = import_file(store, _write(tmp_path, "backup.json", OLD_BACKUP))
    assert [i.status for i in plan.items] == ["new", "new", "invalid"]
    old = store.get("bb22" + "0" * 60)
    assert old.content == "Old chroma memory" and old.tags == ("legacy", "chroma")
    assert old.created_at.timestamp() == 1704067200
    assert store.get("cc33" + "0" * 60).tags == ("a", "b")
