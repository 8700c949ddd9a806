"""Export: native (lossless), seed 000 JSON, Markdown and CSV; of everything, a persona,
a group or given ids; written atomically."""

import json
import os
import subprocess
import sys

import pytest

from memdesk.core.io import export as export_module
from memdesk.core.io.export import export_file, export_text
from memdesk.core.io.plan import import_file
from memdesk.core.store import Store
from memdesk.core.views.queries import GLOBAL


@pytest.fixture
def filled(store):
    work, _ = store.create_persona(name="工作助手")
    ids = {
        "pref": store.add(content="用户偏好 Python", group="偏好", tags=["编程"], title="语言").added[0],
        "job": store.add(content="在做量化交易系统", group="项目/量化", persona_id=work).added[0],
        "multi": store.add(content="第一行\n第二行", group="项目", persona_id=work, tags=["多 行"]).added[0],
        "gone": store.add(content="删掉的").added[0],
    }
    store.delete(ids["gone"])
    store.update(ids["pref"], expected_version=None, content="用户偏好 Python 和 Rust")
    return store, work, ids


def test_native_round_trip_is_lossless_with_history(filled, tmp_path):
    store, work, ids = filled
    path = tmp_path / "all.json"
    result = export_file(store, path, format="native")
    assert result.count == 4 and json.loads(path.read_text(encoding="utf-8"))["format"] == "memdesk"
    other = Store.open(tmp_path / "copy.db")
    try:
        plan, _ = import_file(other, path)
        assert plan.summary()["new"] == 4
        for original in store.list(state="all"):
            mine, theirs = original.to_json(), other.get(original.id).to_json()
            for key in ("source", "version"):
                mine.pop(key), theirs.pop(key)
            assert theirs == mine
        assert [r.after for r in other.revisions(ids["pref"])] == [r.after for r in store.revisions(ids["pref"])]
    finally:
        other.close()


def test_seed000_export_shape_and_reimport(filled, tmp_path):
    store, work, ids = filled
    text, count = export_text(store, format="seed000")
    data = json.loads(text)
    assert count == 3 and set(data) == {"memories"}  # the trash is left out
    pref = next(m for m in data["memories"] if m["id"] == ids["pref"])
    assert set(pref) == {"id", "personaId", "group", "title", "content", "tags", "createdAt", "updatedAt"}
    assert pref["personaId"] == "" and isinstance(pref["createdAt"], int) and pref["createdAt"] > 10**12
    job = next(m for m in data["memories"] if m["id"] == ids["job"])
    assert job["personaId"] == work
    path = tmp_path / "quro_memory.json"
    path.write_text(text, encoding="utf-8")
    plan, _ = import_file(store, path)
    assert plan.format == "seed000" and plan.summary()["unchanged"] == 3


def test_selection_by_persona_group_and_ids(filled):
    store, work, ids = filled
    _, count = export_text(store, format="seed000", persona=work)
    assert count == 3  # the persona's two plus the global one
    _, count = export_text(store, format="seed000", persona=work, merge_global=False)
    assert count == 2
    _, count = export_text(store, format="seed000", persona=GLOBAL)
    assert count == 1
    text, count = export_text(store, format="seed000", group="项目")
    assert count == 2 and {m["group"] for m in json.loads(text)["memories"]} == {"项目", "项目/量化"}
    text, count = export_text(store, format="seed000", ids=[ids["multi"], ids["pref"], "missing"])
    assert [m["id"] for m in json.loads(text)["memories"]] == [ids["multi"], ids["pref"]]


def test_markdown_is_grouped_by_persona_and_group_and_reads_back(filled, tmp_path):
    store, work, ids = filled
    text, _ = export_text(store, format="markdown")
    assert text.index("## 全局") < text.index("### 偏好") < text.index("## 人格：工作助手") < text.index("### 项目")
    assert "- **语言**：用户偏好 Python 和 Rust #编程" in text
    assert "- 第一行\n  第二行" in text
    other = Store.open(tmp_path / "md.db")
    try:
        path = tmp_path / "memories.md"
        path.write_text(text, encoding="utf-8")
        import_file(other, path)
        copies = {m.content: m for m in other.list()}
        assert set(copies) == {"用户偏好 Python 和 Rust", "在做量化交易系统", "第一行\n第二行"}
        assert copies["在做量化交易系统"].group == "项目/量化"
        assert other.persona(copies["在做量化交易系统"].persona_id).name == "工作助手"
        assert copies["用户偏好 Python 和 Rust"].persona_id is None
        assert copies["用户偏好 Python 和 Rust"].tags == ("编程",) and copies["用户偏好 Python 和 Rust"].title == "语言"
    finally:
        other.close()


def test_writes_are_atomic(filled, tmp_path, monkeypatch):
    store, _, _ = filled
    target = tmp_path / "out.json"
    target.write_text("the previous export", encoding="utf-8")

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_module.os, "replace", failing_replace)
    with pytest.raises(OSError):
        export_file(store, target, format="native")
    assert target.read_text(encoding="utf-8") == "the previous export"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out.json")) == []


def test_cli_export_formats(tmp_path):
    db = tmp_path / "cli.db"
    env = dict(os.environ, PYTHONIOENCODING="utf-8")

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "memdesk", "--db", str(db), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )

    assert run("init").returncode == 0
    assert run("add", "--content", "用户喜欢猫", "--group", "宠物").returncode == 0
    assert run("add", "--content", "别的", "--group", "其他").returncode == 0
    out = tmp_path / "pets.csv"
    result = run("export", str(out), "--format", "csv", "--group", "宠物")
    assert result.returncode == 0 and "exported 1 memories" in result.stderr
    assert "用户喜欢猫" in out.read_text(encoding="utf-8-sig")
    markdown = run("export", "--format", "markdown")
    assert markdown.returncode == 0 and "### 宠物" in markdown.stdout
    assert run("export", "--format", "yaml").returncode == 2
