"""Each assistant tool against a real store, the way an assistant calls it."""

import pytest

from memdesk.core.tools.args import ToolError
from memdesk.core.tools.log import calls, revert
from memdesk.core.tools.schemas import TOOLS
from memdesk.core.tools.service import MemoryTools


@pytest.fixture
def tools(store):
    store.create_persona(name="工作助手")
    return MemoryTools(store, persona="工作助手", client="test")


def test_schemas_are_openai_function_form():
    names = [t["function"]["name"] for t in TOOLS]
    assert names == [
        "memory_save",
        "memory_list",
        "memory_search",
        "memory_delete",
        "memory_upsert",
        "memory_query",
        "memory_forget",
    ]
    for tool in TOOLS:
        assert tool["type"] == "function"
        assert tool["function"]["parameters"]["type"] == "object"


def test_save_as_persona_and_no_duplicates(tools, store):
    result = tools.call("memory_save", {"content": "用户偏好 Python", "tags": "编程, 偏好", "group": "偏好"})
    memory = store.get(result["id"])
    assert memory.persona_id == store.resolve_persona("工作助手")
    assert memory.tags == ("编程", "偏好") and memory.source == "ai"
    again = tools.call("memory_save", {"content": "用户偏好  python"})
    assert again["saved"] is False and again["id"] == result["id"]
    assert store.count() == 1


def test_list_pages_and_names_only(tools):
    for i in range(45):
        tools.call("memory_save", {"content": f"记忆 {i}"})
    page = tools.call("memory_list", {"page": 2, "limit": 20})
    assert page["total"] == 45 and page["pages"] == 3 and len(page["memories"]) == 20
    last = tools.call("memory_list", {"page": 3, "page_size": 20, "names_only": True})
    assert len(last["memories"]) == 5 and set(last["memories"][0]) == {"id", "title"}


def test_search_touches_what_it_returns(tools, store):
    saved = tools.call("memory_save", {"content": "家里有三只猫"})["id"]
    tools.call("memory_save", {"content": "喜欢喝茶"})
    result = tools.call("memory_search", {"q": "猫"})
    assert [r["id"] for r in result["results"]] == [saved]
    assert store.get(saved).access_count == 1


def test_search_says_how_many_match_beyond_its_limit(tools, store):
    for i in range(12):
        tools.call("memory_save", {"content": f"第 {i} 只猫喜欢晒太阳"})
    result = tools.call("memory_search", {"query": "猫", "limit": 5})
    assert len(result["results"]) == 5 and result["total"] == 12


def test_delete_by_text_goes_to_trash_and_says_which(tools, store):
    keep = tools.call("memory_save", {"content": "喜欢喝茶"})["id"]
    gone = tools.call("memory_save", {"content": "讨厌上班"})["id"]
    dry = tools.call("memory_delete", {"query": "上班", "dry_run": True})
    assert [d["id"] for d in dry["would_delete"]] == [gone] and store.count() == 2
    result = tools.call("memory_delete", {"query": "上班"})
    assert [d["id"] for d in result["deleted"]] == [gone]
    assert store.get(gone).deleted_at is not None and store.get(keep).deleted_at is None


def test_delete_refuses_vague_queries(tools, store):
    for i in range(25):
        tools.call("memory_save", {"content": f"用户记忆 {i}"})
    with pytest.raises(ToolError) as err:
        tools.call("memory_delete", {"query": "用户"})
    assert "too many" in str(err.value) and store.count() == 25


def test_upsert_query_forget(tools, store):
    first = tools.call(
        "memory_upsert",
        {
            "title": "用户偏好：编程语言",
            "content": "用户偏好 Python，不喜欢 JavaScript",
            "type": "preference",
            "scope": "long_term",
            "importance": "8",
            "tags": ["编程", "偏好"],
            "dedup_key": "user_lang_preference",
        },
    )
    second = tools.call("memory_upsert", {"content": "用户偏好 Rust", "dedup_key": "user_lang_preference"})
    assert second["id"] == first["id"] and second["updated"] is True
    tools.call("memory_upsert", {"content": "今天在分析 Q3 财报", "type": "task", "expires_in_days": 1})
    found = tools.call("memory_query", {"query": "财报", "scope": "short_term", "top_k": 3})
    assert [r["content"] for r in found["results"]] == ["今天在分析 Q3 财报"]
    forgot = tools.call("memory_forget", {"action": "delete", "type": "task"})
    assert forgot["count"] == 1
    back = tools.call("memory_forget", {"action": "restore", "type": "task"})
    assert back["count"] == 1
    with pytest.raises(ToolError) as err:
        tools.call("memory_forget", {"action": "delete"})
    assert "at least one filter" in str(err.value)


@pytest.mark.parametrize(
    "name, args, message",
    [
        ("memory_save", {}, "'content' is required"),
        ("memory_save", {"content": "x", "colour": "red"}, "unknown argument"),
        ("memory_upsert", {"content": "x", "importance": 99}, "between 1 and 10"),
        ("memory_upsert", {"content": "x", "type": "opinion"}, "must be one of"),
        ("memory_search", {"query": "   "}, "'query' is required"),
        ("memory_forget", {"action": "explode"}, "must be one of"),
        ("memory_bogus", {}, "unknown tool"),
        ("memory_save", "not json", "JSON object"),
        ("memory_save", {"content": "x", "persona": "nobody"}, "no persona named"),
    ],
)
def test_bad_arguments_get_actionable_errors(tools, store, name, args, message):
    with pytest.raises(ToolError) as err:
        tools.call(name, args)
    assert message in str(err.value)
    assert store.count(state="all") == 0
    assert calls(limit=1)[0].ok is False


def test_switched_off_persona_gets_no_tools(tools, store):
    persona_id = store.resolve_persona("工作助手")
    store.update_persona(persona_id, auto_save_memory=False)
    assert tools.list_tools() == []
    with pytest.raises(ToolError) as err:
        tools.call("memory_save", {"content": "x"})
    assert "switched off" in str(err.value) and store.count() == 0


def test_every_call_is_logged_and_can_be_reverted(tools, store):
    saved = tools.call("memory_save", {"content": "住在北京"})["id"]
    tools.call("memory_upsert", {"content": "v1", "dedup_key": "k"})
    upsert = tools.call("memory_upsert", {"content": "v2", "dedup_key": "k"})
    tools.call("memory_delete", {"query": "北京"})
    log = calls()
    assert [c.tool for c in log] == ["memory_delete", "memory_upsert", "memory_upsert", "memory_save"]
    assert log[0].effects == [{"id": saved, "action": "deleted", "version": 2, "revision": None}]
    with store.write():
        revert(log[0].id)  # undo the delete
    assert store.get(saved).deleted_at is None
    with store.write():
        revert(log[1].id)  # undo the second upsert
    assert store.get(upsert["id"]).content == "v1"
    with pytest.raises(Exception) as err:
        with store.write():
            revert(log[1].id)
    assert "already reverted" in str(err.value)


def test_revert_never_overwrites_a_later_edit(tools, store):
    saved = tools.call("memory_save", {"content": "AI 写的"})["id"]
    store.update(saved, expected_version=1, content="用户改过了")
    with pytest.raises(Exception) as err:
        with store.write():
            revert(calls()[0].id)
    assert "changed after" in str(err.value)
    assert store.get(saved).content == "用户改过了" and store.get(saved).deleted_at is None


def test_a_call_refused_before_its_arguments_are_read_is_logged_under_its_persona(tools, store):
    life, _ = store.create_persona(name="生活管家")
    with pytest.raises(ToolError, match="'content' is required"):
        tools.call("memory_save", {"title": "会议纪要"})
    with pytest.raises(ToolError):
        tools.call("memory_save", {"persona": "生活管家", "importance": 3})  # an argument it does not take
    with pytest.raises(ToolError):
        tools.call("memory_save", {"persona": "没有这个角色", "content": "x"})
    unknown, named, missing_content = calls(limit=3)  # newest first
    assert missing_content.persona_id == store.resolve_persona("工作助手") and not missing_content.ok
    assert named.persona_id == life  # the persona it named
    assert unknown.persona_id == store.resolve_persona("工作助手")  # it named no persona that exists: the default
