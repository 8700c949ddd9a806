"""CSV with a header row, written the way spreadsheet apps write it."""

import pytest

from memdesk.core.io.export import export_file
from memdesk.core.io.plan import import_file
from memdesk.core.io.reading import ImportFileError
from memdesk.core.store import Store


def test_aliases_excel_bom_and_bad_rows(store, tmp_path):
    path = tmp_path / "memories.csv"
    text = (
        "Memory,Tags,Category,createdAt,Importance,Persona,Colour\r\n"
        '"用户喜欢猫, 也喜欢狗","宠物,猫",生活,1700000000000,0.8,小助手,red\r\n'
        'Meeting at 3pm,"[""work""]",工作,2024-05-01T15:00:00+08:00,7,,\r\n'
        ",,,,,,\r\n"
        "\"=cmd|' /C calc'!A0\",,,,,,\r\n"
        "too,many,cells,here,1,2,3,4\r\n"
        '"  ",x,,,,,\r\n'
    )
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))  # Excel's "CSV UTF-8"
    plan, changes = import_file(store, path)
    assert plan.format == "csv" and plan.notes == ["columns ignored: Colour"]
    assert [i.status for i in plan.items] == ["new", "new", "new", "invalid", "invalid"]
    assert "cells" in plan.items[3].reason and "content" in plan.items[4].reason
    cats = next(m for m in store.list() if m.content.startswith("用户喜欢猫"))
    assert cats.tags == ("宠物", "猫") and cats.group == "生活" and cats.importance == 8
    assert store.persona(cats.persona_id).name == "小助手" and cats.created_at.year == 2023
    meeting = next(m for m in store.list() if m.content == "Meeting at 3pm")
    assert meeting.tags == ("work",) and meeting.importance == 7 and meeting.created_at.hour == 7


def test_tab_separated_gbk_and_no_content_column(store, tmp_path):
    path = tmp_path / "export.csv"
    path.write_bytes("内容\t标签\t分组\n每天早上跑步\t运动\t习惯\n".encode("gb18030"))
    plan, _ = import_file(store, path)
    [memory] = store.list()
    assert memory.content == "每天早上跑步" and memory.tags == ("运动",) and memory.group == "习惯"
    bad = tmp_path / "bad.csv"
    bad.write_text("name,age\nbob,3\n", encoding="utf-8")
    with pytest.raises(ImportFileError, match="content column"):
        import_file(store, bad)
    assert store.count(state="all") == 1


def test_csv_round_trip(store, tmp_path):
    work, _ = store.create_persona(name="工作助手")
    store.add(
        content="=SUM(A1) 不是公式",
        tags=["a", "b"],
        group="组/子组",
        title="标题",
        persona_id=work,
        importance=9,
        type="task",
    )
    store.add(content="多行\n内容", scope="short_term")
    path = tmp_path / "out.csv"
    assert export_file(store, path, format="csv").count == 2
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert "'=SUM(A1)" in path.read_text(encoding="utf-8-sig")  # not run as a formula by spreadsheets
    other = Store.open(tmp_path / "other.db")
    try:
        plan, _ = import_file(other, path)
        assert plan.summary()["new"] == 2
        for original in store.list():
            copy = other.get(original.id)
            for name in ("content", "tags", "group", "title", "importance", "type", "scope", "created_at"):
                assert getattr(copy, name) == getattr(original, name), name
            assert other.persona(copy.persona_id).name == "工作助手" if original.persona_id else copy.persona_id is None
    finally:
        other.close()
