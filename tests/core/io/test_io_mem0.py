"""mem0 get_all dumps and OpenMemory export zips (memories.json + memories.jsonl.gz),
plus the zip safety checks: zip-slip paths, zip bombs, lying sizes."""

import gzip
import io
import json
import zipfile

import pytest

from memdesk.core.io.plan import import_file
from memdesk.core.io.reading import ImportFileError

GET_ALL = {
    "results": [
        {
            "id": "0b1c7c35-1b0a-4f5a-9a53-3c3e2a1f0001",
            "memory": "Likes to play cricket on weekends",
            "hash": "285d07801ae42054732314853e9eadd7",
            "metadata": {"category": "hobbies"},
            "categories": ["hobbies", "sports"],
            "created_at": "2024-07-20T02:24:56.123456-07:00",
            "updated_at": "2024-07-21T02:24:56.123456-07:00",
            "user_id": "alice",
        },
        {
            "id": "0b1c7c35-1b0a-4f5a-9a53-3c3e2a1f0002",
            "memory": "是素食主义者",
            "hash": "x",
            "metadata": None,
            "created_at": "2024-07-22T10:00:00+08:00",
            "updated_at": None,
            "user_id": "alice",
            "agent_id": "diet-bot",
        },
        {
            "id": "0b1c7c35-1b0a-4f5a-9a53-3c3e2a1f0003",
            "memory": "Prefers dark mode",
            "user_id": "bob",
            "created_at": "2024-07-23T00:00:00Z",
            "expiration_date": "2030-01-01",
        },
    ]
}


def test_get_all_dump_user_becomes_persona(store, tmp_path):
    path = tmp_path / "mem0.json"
    path.write_text(json.dumps(GET_ALL, ensure_ascii=False), encoding="utf-8")
    plan, changes = import_file(store, path)
    assert plan.format == "mem0" and len(changes.added) == 3
    alice = store.persona_by_name("alice")
    cricket = store.get("0b1c7c35-1b0a-4f5a-9a53-3c3e2a1f0001")
    assert cricket.persona_id == alice.id and cricket.tags == ("hobbies", "sports")
    assert cricket.created_at.isoformat() == "2024-07-20T09:24:56.123456+00:00"
    veg = store.get("0b1c7c35-1b0a-4f5a-9a53-3c3e2a1f0002")
    assert veg.tags == ("agent:diet-bot",) and veg.created_at.hour == 2
    dark = store.get("0b1c7c35-1b0a-4f5a-9a53-3c3e2a1f0003")
    assert store.persona(dark.persona_id).name == "bob" and dark.expires_at.year == 2030
    # a bare list (older get_all) works the same
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(GET_ALL["results"]), encoding="utf-8")
    plan, _ = import_file(store, bare)
    assert plan.format == "mem0" and plan.summary()["unchanged"] == 3


def openmemory_zip(path, *, json_member=True, gz_member=True):
    payload = {
        "user": {
            "id": "u-1",
            "user_id": "carol",
            "name": None,
            "email": None,
            "metadata": {},
            "created_at": "2025-01-01T00:00:00+00:00",
            "updated_at": "2025-01-01T00:00:00+00:00",
        },
        "apps": [
            {
                "id": "app-1",
                "owner_id": "u-1",
                "name": "cursor",
                "description": None,
                "metadata": {},
                "is_active": True,
                "created_at": None,
                "updated_at": None,
            }
        ],
        "categories": [{"id": "c-1", "name": "work", "description": None, "created_at": None, "updated_at": None}],
        "memories": [
            {
                "id": "m-1",
                "user_id": "u-1",
                "app_id": "app-1",
                "content": "Uses vim keybindings",
                "metadata": {},
                "state": "active",
                "created_at": "2025-02-01T12:00:00+00:00",
                "updated_at": "2025-02-01T12:00:00+00:00",
                "archived_at": None,
                "deleted_at": None,
                "category_ids": ["c-1"],
            },
            {
                "id": "m-2",
                "user_id": "u-1",
                "app_id": "app-1",
                "content": "Old laptop is a ThinkPad",
                "metadata": {},
                "state": "archived",
                "created_at": "2025-02-02T12:00:00+00:00",
                "updated_at": None,
                "archived_at": "2025-03-01T00:00:00+00:00",
                "deleted_at": None,
                "category_ids": [],
            },
            {
                "id": "m-3",
                "user_id": "u-1",
                "app_id": None,
                "content": "Deleted thought",
                "metadata": {},
                "state": "deleted",
                "created_at": "2025-02-03T12:00:00+00:00",
                "updated_at": None,
                "archived_at": None,
                "deleted_at": "2025-03-02T00:00:00+00:00",
                "category_ids": [],
            },
        ],
        "memory_categories": [{"memory_id": "m-1", "category_id": "c-1"}],
        "status_history": [],
        "access_controls": [],
        "export_meta": {
            "app_id_filter": None,
            "from_date": None,
            "to_date": None,
            "version": "1",
            "generated_at": "2025-04-01T00:00:00+00:00",
        },
    }
    lines = b"".join(
        (
            json.dumps(
                {
                    "id": m["id"],
                    "content": m["content"],
                    "metadata": {},
                    "created_at": m["created_at"],
                    "updated_at": m["updated_at"],
                    "state": m["state"],
                    "app": "cursor",
                    "categories": ["work"],
                }
            )
            + "\n"
        ).encode()
        for m in payload["memories"]
    )
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        if json_member:
            zf.writestr("memories.json", json.dumps(payload, indent=2))
        if gz_member:
            zf.writestr("memories.jsonl.gz", gzip.compress(lines))
    return path


def test_openmemory_export_zip(store, tmp_path):
    plan, changes = import_file(store, openmemory_zip(tmp_path / "memories_export_carol.zip"))
    assert plan.format == "openmemory" and len(changes.added) == 3
    vim = store.get("m-1")
    assert store.persona(vim.persona_id).name == "carol" and vim.tags == ("work", "app:cursor")
    assert "archived" in store.get("m-2").tags and store.get("m-3").is_deleted


def test_openmemory_gzip_only_fallback(store, tmp_path):
    plan, _ = import_file(store, openmemory_zip(tmp_path / "x.zip", json_member=False))
    assert plan.format == "openmemory" and plan.summary()["new"] == 3
    assert store.get("m-1").tags == ("work", "app:cursor") and store.get("m-3").is_deleted


def test_zip_slip_bomb_and_foreign_zips_are_refused(store, tmp_path):
    store.add(content="existing")
    slip = tmp_path / "slip.zip"
    with zipfile.ZipFile(slip, "w") as zf:
        zf.writestr("memories.json", "{}")
        zf.writestr("../../etc/evil.json", "{}")
    with pytest.raises(ImportFileError, match="outside the archive"):
        import_file(store, slip)
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("memories.json", b" " * (60 * 1024 * 1024))  # ~60 MB of spaces packs to ~60 KB
    with pytest.raises(ImportFileError, match="zip bomb"):
        import_file(store, bomb)
    gz_bomb = tmp_path / "gzbomb.zip"
    with zipfile.ZipFile(gz_bomb, "w") as zf:  # stored: the zip ratio is 1, the gzip inside is the bomb
        zf.writestr("memories.jsonl.gz", gzip.compress(b"\n" * (40 * 1024 * 1024)))
    with pytest.raises(ImportFileError, match="bomb"):
        import_file(store, gz_bomb)
    other = tmp_path / "photos.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("cat.jpg", b"\xff\xd8")
    with pytest.raises(ImportFileError, match="not an OpenMemory export"):
        import_file(store, other)
    not_zip = tmp_path / "fake.zip"
    not_zip.write_bytes(b"PK\x03\x04" + b"\x00" * 10)
    with pytest.raises(ImportFileError):
        import_file(store, not_zip)
    assert store.count(state="all") == 1


def test_member_larger_than_its_header_says(store, tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("memories.json", json.dumps({"memories": [], "export_meta": {}}))
    raw = bytearray(buf.getvalue())
    # shrink the declared size in the central directory so the real data overflows it
    central = raw.rfind(b"PK\x01\x02")
    raw[central + 24 : central + 28] = (3).to_bytes(4, "little")
    path = tmp_path / "liar.zip"
    path.write_bytes(bytes(raw))
    with pytest.raises(ImportFileError):
        import_file(store, path)
