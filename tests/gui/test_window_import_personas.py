"""The import preview's persona mapping: three unknown persona ids mapped three ways, a second
import that maps by itself, the persona column, and a conflict when a file would move a memory."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from memdesk.core.io.personas import ALIASES_KEY
from memdesk.core.store import Store

A = "3f2a9c1e-8d4b-4c1a-9f00-0123456789ab"
B = "7b1e0d22-1111-4222-8333-444455556666"
C = "c0ffee00-aaaa-4bbb-8ccc-dddddddddddd"


def zorv_file(tmp_path, name="zorv.json", records=None):
    path = tmp_path / name
    path.write_text(
        json.dumps(
            {
                "memories": records
                or [
                    {"id": "m1", "personaId": A, "content": "用户喜欢爬山", "title": "爬山"},
                    {"id": "m2", "personaId": A, "content": "用户养了一只猫", "title": "猫"},
                    {"id": "m3", "personaId": B, "content": "周五提交周报", "title": "周报"},
                    {"id": "m4", "personaId": C, "content": "用户对花生过敏", "title": "过敏"},
                ]
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    return path


def column(dialog, col):
    return [dialog.model.index(r, col).data() for r in range(dialog.model.rowCount())]


def choose(dialog, qtbot, row, data):
    combo = dialog.mapping.combos[row]
    with qtbot.waitSignal(dialog.plan_updated, timeout=10000):
        combo.setCurrentIndex(combo.findData(data))


def test_three_unknown_personas_mapped_three_ways_then_the_next_import_maps_by_itself(
    launch, db_path, tmp_path, qtbot, type_text, open_preview
):
    store = Store.open(db_path)
    work, _ = store.create_persona(name="工作助手")
    store.close()
    window = launch(db_path)
    dialog = open_preview(window, zorv_file(tmp_path))

    mapping = dialog.mapping
    assert mapping.isVisible() and mapping.ids == [A, B, C]  # each listed once, above the records
    assert [n.text() for n in mapping.names] == [f"Imported persona {x[:8]}" for x in (A, B, C)]
    assert column(dialog, 4) == ["Imported persona 3f2a9c1e (new)"] * 2 + [
        "Imported persona 7b1e0d22 (new)",
        "Imported persona c0ffee00 (new)",
    ]
    assert dialog.model.headerData(4, Qt.Orientation.Horizontal) == "Persona"

    # A: a new persona with a name typed in Chinese (an input method, as a user types it)
    mapping.names[0].clear()
    assert "Type a name" in mapping.problem.text() and not dialog.import_button.isEnabled()
    type_text(mapping.names[0], "生活管家")
    assert mapping.names[0].text() == "生活管家" and mapping.problem.isHidden()
    # B: an existing persona; C: global
    choose(dialog, qtbot, 1, f"map:{work}")
    choose(dialog, qtbot, 2, "global")
    assert not mapping.names[1].isEnabled() and not mapping.names[2].isEnabled()
    assert column(dialog, 4) == ["生活管家 (new)", "生活管家 (new)", "工作助手", "Global"]
    assert window.session.store.count(state="all") == 0  # still nothing written
    assert dialog.import_button.text() == "Import 4 memories"

    with qtbot.waitSignal(window.importer.imported, timeout=10000):
        dialog.import_button.click()
    store = window.session.store
    life = store.persona_by_name("生活管家").id
    owners = {m.id: m.persona_id for m in store.list(limit=50)}
    assert owners == {"m1": life, "m2": life, "m3": work, "m4": None}
    assert sorted(p.name for p in store.personas()) == ["工作助手", "生活管家"]
    assert store.setting(ALIASES_KEY) == {A: life, B: work, C: None}

    # the next file with the same persona ids: no question, the same owners
    again = zorv_file(
        tmp_path,
        "later.json",
        [
            {"personaId": A, "content": "新的一条"},
            {"personaId": B, "content": "另一条"},
            {"personaId": C, "content": "第三条"},
        ],
    )
    dialog = open_preview(window, again)
    assert dialog.mapping.isHidden() and dialog.plan.unknown_personas == []
    assert column(dialog, 4) == ["生活管家", "工作助手", "Global"]
    with qtbot.waitSignal(window.importer.imported, timeout=10000):
        dialog.import_button.click()
    by_text = {m.content: m.persona_id for m in store.list(limit=50)}
    assert (by_text["新的一条"], by_text["另一条"], by_text["第三条"]) == (life, work, None)
    assert len(store.personas()) == 2


def test_bad_names_are_explained_and_block_the_import(launch, db_path, tmp_path, qtbot, type_text, open_preview):
    store = Store.open(db_path)
    store.create_persona(name="工作助手")
    store.close()
    window = launch(db_path)
    dialog = open_preview(window, zorv_file(tmp_path))
    names, problem = dialog.mapping.names, dialog.mapping.problem
    for text, words in [("工作助手", "exists already"), (A, "looks like an id")]:
        names[0].clear()
        type_text(names[0], text)
        assert words in problem.text() and not dialog.import_button.isEnabled()
    names[0].clear()
    type_text(names[0], "同名")
    names[1].clear()
    type_text(names[1], "同名")
    assert "cannot both be named" in problem.text() and not dialog.import_button.isEnabled()
    dialog.import_button.click()
    dialog._accept()  # even if asked directly: nothing happens while a name is wrong
    assert dialog.isVisible() and window.session.store.count(state="all") == 0
    names[1].clear()
    type_text(names[1], "另一个")
    assert problem.isHidden() and dialog.import_button.isEnabled()
    dialog.reject()


def test_a_file_that_would_move_a_memory_shows_a_conflict_and_the_user_decides(
    launch, db_path, tmp_path, qtbot, open_preview
):
    store = Store.open(db_path)
    work, _ = store.create_persona(name="工作助手")
    store.add(id="m1", content="用户喜欢爬山", title="爬山", persona_id=work)
    store.add(id="m2", content="用户养了一只猫", title="猫", persona_id=work)
    store.close()
    window = launch(db_path)
    path = zorv_file(
        tmp_path,
        records=[
            {"id": "m1", "personaId": A, "content": "用户喜欢爬山", "title": "爬山"},
            {"id": "m2", "content": "用户养了一只猫和一只狗", "title": "猫"},
        ],
    )
    dialog = open_preview(window, path)
    statuses = column(dialog, 1)
    assert statuses == ["Conflict", "Updated"]
    reason = dialog.model.index(0, 3).data()
    assert "Imported persona 3f2a9c1e" in reason and "工作助手" in reason
    assert column(dialog, 4) == ["Imported persona 3f2a9c1e (new)", "工作助手"]  # no persona: keeps its owner
    assert dialog.skip_conflicts.isVisible() and dialog.skip_conflicts.isChecked()
    with qtbot.waitSignal(window.importer.imported, timeout=10000):
        dialog.import_button.click()  # conflicts skipped: nothing moves
    store = window.session.store
    assert store.get("m1").persona_id == work
    assert store.get("m2").persona_id == work and store.get("m2").content == "用户养了一只猫和一只狗"

    dialog = open_preview(window, path)
    dialog.take_conflicts.setChecked(True)  # the user decides: the file's persona
    with qtbot.waitSignal(window.importer.imported, timeout=10000):
        dialog.import_button.click()
    assert store.persona(store.get("m1").persona_id).name == "Imported persona 3f2a9c1e"
    with qtbot.waitSignal(window.session.changes_applied):
        window.session.undo()  # the import, the persona it made and the choice it remembered go
    assert store.get("m1").persona_id == work
    assert [p.name for p in store.personas()] == ["工作助手"] and not store.setting(ALIASES_KEY)
