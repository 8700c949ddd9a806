"""Real failures of stores, backups, models and import files carry a code and params, and a
Chinese window says them in Chinese (str() keeps the English for the CLI and the logs)."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
import zipfile

import pytest
from PySide6.QtCore import QSettings

from memdesk.core.domain.errors import CorruptDatabaseError, MemDeskError, ModelError, StoreInUseError
from memdesk.core.io.reading import ImportFileError
from memdesk.core.io.sources import read_file
from memdesk.core.storage.backup import make_backup, restore_backup
from memdesk.core.store import Store
from memdesk.gui import i18n, reasons
from memdesk.gui.main import App, application

CHINESE = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def chinese(qapp):
    application()
    i18n.install("zh_CN")
    yield
    i18n.install("en")


def _said(exc: BaseException) -> str:
    """The window's words for ``exc``: Chinese, and none of the core's English sentence."""
    text = reasons.error_text(exc)
    assert CHINESE.search(text), text
    assert text != str(exc)
    return text


def test_restoring_a_damaged_backup_is_said_in_chinese(tmp_path, chinese):
    path = tmp_path / "m.db"
    Store.open(path).close()
    backup = make_backup(path, "manual")
    backup.write_bytes(b"not an SQLite file" * 100)
    with pytest.raises(MemDeskError) as raised:
        restore_backup(path, backup)
    assert raised.value.code == "backup_damaged" and raised.value.params == {"name": backup.name}
    assert str(raised.value) == f"{backup.name} is damaged too; choose another backup"
    assert _said(raised.value) == f"备份 {backup.name} 也已损坏；请选择另一个备份"


def test_a_file_that_is_not_a_store_is_said_in_chinese(tmp_path, chinese):
    path = tmp_path / "m.db"
    path.write_bytes(b"this is not an SQLite file" * 100)
    with pytest.raises(CorruptDatabaseError) as raised:
        Store.open(path)
    assert raised.value.code == "not_a_store" and raised.value.params == {"path": str(path)}
    assert str(raised.value).startswith(f"{path} is not a MemDesk database")
    assert _said(raised.value).startswith(f"{path} 不是 MemDesk 数据库")


def test_the_damaged_file_dialog_says_the_error_in_chinese(tmp_path, asker, qtbot):
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", "zh_CN"
    )
    path = tmp_path / "m.db"
    path.write_bytes(b"this is not an SQLite file" * 100)
    app = App(ask=asker, maintenance_delay_ms=10**9)
    try:
        assert not app.open(str(path))
        assert asker.informed[0].startswith(f"{path} 不是 MemDesk 数据库"), asker.informed
        assert "not a MemDesk database" not in asker.informed[0]
    finally:
        i18n.install("en")


def test_a_store_in_use_and_a_missing_store_have_chinese_words(chinese):
    busy = StoreInUseError("/tmp/m.db", ["an MCP server (pid 42)"])
    assert busy.code == "store_in_use" and str(busy).startswith("/tmp/m.db is open in an MCP server (pid 42)")
    assert _said(busy).startswith("/tmp/m.db 正在 an MCP server (pid 42) 中打开")
    from memdesk.core.domain.errors import NoStoreError

    assert _said(NoStoreError("/tmp/none.db")) == "/tmp/none.db 处没有数据库"


def test_a_folder_that_is_not_a_model_is_said_in_chinese(tmp_path, chinese, monkeypatch):
    from memdesk.core.embed import install_model
    from memdesk.gui.semantic.wording import describe_error

    monkeypatch.setenv("MEMDESK_MODELS_DIR", str(tmp_path / "models"))
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "readme.txt").write_text("not a model", encoding="utf-8")
    with pytest.raises(ModelError) as raised:
        install_model(folder)
    assert raised.value.code == "model_no_tokenizer" and raised.value.kind == "not_model"
    assert str(raised.value) == "no tokenizer.json found (a model needs model.onnx and tokenizer.json)"
    assert _said(raised.value) == "找不到 tokenizer.json（模型需要 model.onnx 和 tokenizer.json）"
    shown = describe_error(raised.value)  # the model tab: what it means, then the reason by its code
    assert "找不到 tokenizer.json" in shown and "当前模型未改变" in shown and "found" not in shown


def test_an_unknown_model_name_is_said_in_chinese(tmp_path, chinese, monkeypatch):
    from memdesk.core.embed import use_model

    monkeypatch.setenv("MEMDESK_MODELS_DIR", str(tmp_path / "models"))
    with pytest.raises(MemDeskError) as raised:
        use_model("nothing-here")
    assert raised.value.code == "model_not_installed"
    assert _said(raised.value) == "没有安装名为 nothing-here 的模型"


def _blockcell_without_table(path):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE other (x)")
    conn.commit()
    conn.close()


def _zip(path, members: dict[str, bytes]):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)


BAD_FILES = [  # (file name, how to write it, format, code, Chinese words)
    ("notes.csv", lambda p: p.write_text("title,colour\na,b\n", encoding="utf-8"), "csv",
     "csv_no_content_column", "notes.csv 的标题行里没有内容列（content、memory 或 text）"),
    ("notes.csv", lambda p: p.write_text("", encoding="utf-8"), "csv",
     "csv_empty", "notes.csv 是空的；CSV 文件应以标题行开头"),
    ("notes.json", lambda p: p.write_text(json.dumps({"format": "memdesk", "memories": {}}), encoding="utf-8"),
     "auto", "native_not_list", "notes.json：“memories”必须是列表"),
    ("export.zip", lambda p: _zip(p, {"readme.txt": b"hello"}), "auto",
     "zip_not_openmemory", "export.zip 是 zip 压缩包，但不是 OpenMemory 导出文件（里面没有 memories.json）"),
    ("export.zip", lambda p: _zip(p, {"memories.jsonl.gz": b"not gzip at all"}), "auto",
     "gzip_damaged", "export.zip 中的 gzip 数据已损坏"),
    ("export.zip", lambda p: _zip(p, {"memories.json": gzip.compress(b"x")[:0] + b"\xff\xfe bad"}), "auto",
     "zip_member_not_utf8", "export.zip：其中的文件不是 UTF-8 文本"),
    ("memory.db", _blockcell_without_table, "auto",
     "blockcell_no_table", "memory.db 中没有 memory_items 表：它不是 blockcell 的记忆数据库"),
]  # fmt: skip


@pytest.mark.parametrize("name, write, format, code, words", BAD_FILES, ids=[f[3] for f in BAD_FILES])
def test_a_refused_import_file_is_said_in_chinese(tmp_path, chinese, name, write, format, code, words):
    path = tmp_path / name
    write(path)
    with pytest.raises(ImportFileError) as raised:
        read_file(path, format)
    assert raised.value.code == code, str(raised.value)
    assert raised.value.params["name"] == name
    assert _said(raised.value).startswith(words)


def test_json_lines_without_one_valid_line_are_said_in_chinese(chinese):
    from memdesk.core.io.mcp_graph import parse_lines

    with pytest.raises(ImportFileError) as raised:
        parse_lines('{"type": "entity"\n{"type": "relation"\n', "memory.jsonl")
    assert raised.value.code == "jsonl_no_valid_line"
    assert _said(raised.value) == "memory.jsonl：没有一行是有效的 JSON；应为 MCP 记忆服务器的 JSON Lines 文件"
