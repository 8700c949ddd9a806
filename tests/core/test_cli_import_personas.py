"""`memdesk import` and the file's persona ids: readable names, --persona-map, --persona, --dry-run --json."""

import json
import os
import subprocess
import sys

import pytest

from memdesk.core.store import Store

A = "3f2a9c1e-8d4b-4c1a-9f00-0123456789ab"
B = "7b1e0d22-1111-4222-8333-444455556666"
C = "c0ffee00-aaaa-4bbb-8ccc-dddddddddddd"


def run(db, *args, lang="en_US.UTF-8"):
    env = {k: val for k, val in os.environ.items() if not k.startswith("LC_") and k != "LANGUAGE"}
    env.update(PYTHONIOENCODING="utf-8", LANG=lang)
    return subprocess.run(
        [sys.executable, "-m", "memdesk", *args, "--db", str(db), "--create"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture
def zorv(tmp_path):
    path = tmp_path / "zorv.json"
    path.write_text(
        json.dumps(
            {
                "memories": [
                    {"id": "m1", "personaId": A, "content": "用户喜欢爬山"},
                    {"id": "m2", "personaId": A, "content": "用户养了一只猫"},
                    {"id": "m3", "personaId": B, "content": "周五提交周报"},
                    {"id": "m4", "personaId": C, "content": "用户对花生过敏"},
                    {"id": "m5", "personaId": "", "content": "全局的一条"},
                ]
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    return path


def personas(db):
    store = Store.open(db)
    try:
        return {p.name: p.id for p in store.personas()}, {m.id: m.persona_id for m in store.list(limit=50)}
    finally:
        store.close()


def test_dry_run_json_lists_unknown_persona_ids_and_writes_nothing(tmp_path, zorv):
    db = tmp_path / "x.db"
    out = run(db, "import", str(zorv), "--dry-run", "--json")
    assert out.returncode == 0, out.stderr
    listed = {u["id"]: u for u in json.loads(out.stdout)["unknown_personas"]}
    assert set(listed) == {A, B, C} and listed[A]["records"] == 2
    assert listed[A]["action"] == "create" and listed[A]["name"] == "Imported persona 3f2a9c1e"
    assert personas(db) == ({}, {})


def test_without_a_mapping_names_are_readable_and_the_hint_is_printed(tmp_path, zorv):
    db = tmp_path / "x.db"
    out = run(db, "import", str(zorv), lang="zh_CN.UTF-8")
    assert out.returncode == 0, out.stderr
    names, owners = personas(db)
    assert set(names) == {"导入的角色 3f2a9c1e", "导入的角色 7b1e0d22", "导入的角色 c0ffee00"}
    assert "导入的角色 3f2a9c1e" in out.stdout and "--persona-map 3f2a9c1e=NAME" in out.stdout
    assert "persona rename" in out.stdout
    assert owners["m5"] is None


def test_persona_map_three_ways_then_the_next_import_maps_by_itself(tmp_path, zorv):
    db = tmp_path / "x.db"
    assert run(db, "persona", "add", "工作助手").returncode == 0
    out = run(
        db,
        "import",
        str(zorv),
        "--persona-map",
        f"{A}=生活管家",
        "--persona-map",
        "7b1e=工作助手",
        "--persona-map",
        "c0ffee00=global",
    )
    assert out.returncode == 0, out.stderr
    names, owners = personas(db)
    assert set(names) == {"工作助手", "生活管家"}
    assert owners == {"m1": names["生活管家"], "m2": names["生活管家"], "m3": names["工作助手"], "m4": None, "m5": None}
    assert "rename" not in out.stdout  # the user named them: no hint

    other = tmp_path / "more.json"
    other.write_text(
        json.dumps(
            [
                {"personaId": A, "content": "新的"},
                {"personaId": B, "content": "又一条"},
                {"personaId": C, "content": "第三条"},
            ],
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    dry = json.loads(run(db, "import", str(other), "--dry-run", "--json").stdout)
    assert dry["unknown_personas"] == [] and dry["summary"]["new"] == 3
    assert run(db, "import", str(other)).returncode == 0
    names2, owners2 = personas(db)
    assert names2 == names
    assert sorted(str(x) for x in owners2.values()) == sorted(
        str(x) for x in [*owners.values(), names["生活管家"], names["工作助手"], None]
    )


def test_persona_puts_everything_into_one(tmp_path, zorv):
    db = tmp_path / "x.db"
    out = run(db, "import", str(zorv), "--persona", "Zorv")
    assert out.returncode == 0, out.stderr
    names, owners = personas(db)
    assert list(names) == ["Zorv"] and set(owners.values()) == {names["Zorv"]}


@pytest.mark.parametrize(
    "args, words",
    [
        (["--persona-map", "zz=x"], "the file has no persona id 'zz'"),
        (["--persona-map", "3f2a"], "write it as ID=NAME"),
        (["--persona-map", "3f2a=" + A], "looks like an id"),
        (["--persona-map", "3f2a=a", "--persona-map", A + "=b"], "mapped twice"),
        (["--persona", "x", "--persona-map", "3f2a=y"], "leave out --persona-map"),
        (["--persona", B], "looks like an id"),
    ],
)
def test_bad_mappings_are_refused_and_nothing_is_written(tmp_path, zorv, args, words):
    db = tmp_path / "x.db"
    out = run(db, "import", str(zorv), *args)
    assert out.returncode == 1 and words in out.stderr, out.stderr
    assert personas(db) == ({}, {})


def test_reimport_never_moves_a_memory_silently(tmp_path, zorv):
    db = tmp_path / "x.db"
    run(db, "persona", "add", "工作助手")
    store = Store.open(db)
    work = store.persona_by_name("工作助手").id
    store.add(id="m1", content="用户喜欢爬山", persona_id=work)
    store.add(id="m5", content="全局的一条", persona_id=work)
    store.close()
    out = run(db, "import", str(zorv))
    assert "record 1 (m1): conflict: persona: the file puts it in persona “Imported persona 3f2a9c1e”" in out.stdout
    assert "--on-conflict theirs" in out.stdout
    _, owners = personas(db)
    assert owners["m1"] == work and owners["m5"] == work  # m5 has no persona in the file: keeps its owner
