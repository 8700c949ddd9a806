"""Errors and refusals carry a code; the window says every code in Chinese and English, the CLI in
English, all from the code (never by matching the English words)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from memdesk.cli import main
from memdesk.core.domain.error_codes import CODES, VALIDATION, english
from memdesk.core.domain.errors import MemDeskError, ValidationError
from memdesk.core.io.plan import plan_file
from memdesk.core.store import Store
from memdesk.gui import i18n, reasons
from memdesk.gui.main import application

CORE = Path(__file__).resolve().parents[2] / "memdesk" / "core"
CHINESE = re.compile(r"[\u4e00-\u9fff]")
SAMPLE = {  # a value for every param a code's wording takes
    "field": "content",
    "name": "content",
    "names": "content, tags",
    "accepted": "content, title",
    "others": "tags",
    "key": "it's",
    "query": "咖啡",
    "text": "a note",
    "detail": "bad date",
    "note": "",
    "kind": "memories",
    "file_persona": "工作助手",
    "here_persona": "",
    "where": "trash",
    "op": ">=",
    "path": "/tmp/notes",
    "expected": "CSV",
    "format": "csv",
    "detected": "",
    "found": 9,
    "supported": 8,
    "holders": "an MCP server (pid 42)",
}


def _params(code: str) -> dict:
    words = CODES[code]
    if callable(words):
        return dict(SAMPLE, id="ab12cd34")
    names = {name.split(".")[0] for _, name, _, _ in string.Formatter().parse(words) if name}
    if code in VALIDATION:
        names.add("field")  # a ValidationError's params always name its field
    return {n: SAMPLE.get(n, 7) for n in names}


@pytest.fixture
def language(qapp):
    application()

    def use(lang: str) -> None:
        i18n.install(lang)

    yield use
    i18n.install("en")


def test_every_code_has_a_wording_and_no_wording_lacks_a_code(language):
    language("en")
    assert set(reasons.wordings()) == set(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_reads_in_english_and_chinese(code, language):
    params = _params(code)
    language("en")
    en = reasons.reason_text(code, params, fallback="<fallback>")
    language("zh_CN")
    zh = reasons.reason_text(code, params, fallback="<fallback>")
    assert en != "<fallback>" and zh != "<fallback>"
    if code not in reasons.AS_IS:
        assert CHINESE.search(zh), (code, zh)
        assert not CHINESE.search(en.replace("工作助手", "").replace("咖啡", "")), (code, en)


def test_every_code_the_core_raises_is_listed():
    """Codes written in the core's source (code="…", the search's QuerySyntaxError("query_…"),
    an import plan's item(status, "…")) are all in error_codes.CODES."""
    used = set()
    for path in CORE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r"\bcode=\"([a-z_0-9]+)\"", text))
        used.update(re.findall(r"QuerySyntaxError\(\s*\"([a-z_0-9]+)\"", text))
        used.update(re.findall(r"FileContentError\(\s*\"([a-z_0-9]+)\"", text))
        used.update(re.findall(r"\bitem\(\"\w+\", \"([a-z_0-9]+)\"", text))
        used.update(re.findall(r"_because\([^)]*?\"invalid\", None, \"([a-z_0-9]+)\"", text))
    assert used and used <= set(CODES), used - set(CODES)


def test_a_key_with_an_apostrophe_is_said_in_chinese(store, tmp_path, language):
    """The English-matching patterns this replaced let a key with ' fall through untranslated."""
    path = tmp_path / "notes.json"
    records = [{"content": "用户喝茶", "dedup_key": "it's"}, {"content": "用户喝咖啡", "dedup_key": "it's"}]
    data = {"format": "memdesk", "version": 1, "memories": records}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    item = plan_file(store, path).items[1]
    assert item.code == "duplicate_key" and item.params == {"key": "it's"}
    assert item.reason == 'dedup_key: "it\'s" appears more than once in this file'  # the English: str()
    language("zh_CN")
    assert reasons.reason_text(item.code, item.params, item.reason) == "去重键 it's 在文件中出现了不止一次"
    language("en")
    assert (
        reasons.reason_text(item.code, item.params, item.reason)
        == "the dedup key it's appears more than once in the file"
    )


def test_a_refused_file_is_said_by_its_code(store, tmp_path, language):
    from memdesk.core.io.reading import ImportFileError

    path = tmp_path / "notes.json"
    path.write_text('{"memories": [', encoding="utf-8")
    with pytest.raises(ImportFileError) as raised:
        plan_file(store, path)
    assert raised.value.code == "json_invalid" and str(raised.value).startswith("notes.json: not valid JSON (line 1")
    language("zh_CN")
    assert reasons.error_text(raised.value).startswith("notes.json 不是有效的 JSON（第 1 行")


def test_an_error_is_said_by_its_code_and_keeps_its_english(store, language):
    with pytest.raises(ValidationError) as raised:
        store.add(content="  ")
    assert raised.value.code == "blank" and str(raised.value) == "content: must not be blank"
    language("zh_CN")
    assert reasons.error_text(raised.value) == "「内容」为空"
    plain = MemDeskError("the disk is full")
    assert reasons.error_text(plain) == "the disk is full"  # no code of its own: its words as they are


def test_an_assistants_refusal_is_logged_with_its_code(store, language):
    from memdesk.core.tools import log
    from memdesk.core.tools.args import ToolError
    from memdesk.core.tools.service import MemoryTools

    with pytest.raises(ToolError):
        MemoryTools(store, client="test").call("memory_save", {"content": "x", "colour": "red"})
    (entry,) = log.calls(limit=1)
    assert entry.result["code"] == "tool_unknown_args" and entry.result["params"]["names"] == "colour"
    language("zh_CN")
    shown = reasons.reason_text(entry.result["code"], entry.result["params"], entry.result["error"])
    assert shown.startswith("给了不支持的参数：colour")


def test_the_cli_prints_the_words_of_the_code(db_path, capsys):
    Store.open(db_path).close()
    assert main(["--db", str(db_path), "show", "zzzz"]) == 1
    assert english("no_id_prefix", {"typed": "zzzz"}) in capsys.readouterr().err
    assert main(["--db", str(db_path), "search", 'tag:"open']) == 1
    err = capsys.readouterr().err
    assert english("query_quote_open", {}) in err
