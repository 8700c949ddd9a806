"""The memory brief: seed 001's format, ordering, the token budget and the autoSaveMemory switch."""

from datetime import timedelta

from memdesk.core.domain.times import now_utc
from memdesk.core.tools.brief import build_brief, estimate_tokens
from memdesk.core.tools.service import MemoryTools, brief_for


def test_format_and_ordering(store):
    store.add(content="用户偏好 Python 编程，关注 A 股科技板块", type="preference", importance=8)
    store.add(content="正在开发量化交易系统，使用 backtrader 框架", type="project", importance=9)
    store.add(content="今天天气不错", importance=2)
    store.add(
        content="今天正在分析 Q3 财报数据",
        type="task",
        scope="short_term",
        expires_at=now_utc() + timedelta(hours=2, minutes=5),
    )
    brief = build_brief(store, persona_id=None)
    lines = brief.text.splitlines()
    assert lines[0] == "[Memory Brief]" and lines[1] == "Long-term (top 20):"
    assert lines[2] == "- 正在开发量化交易系统，使用 backtrader 框架 [project, importance:9]"
    assert lines[3] == "- 用户偏好 Python 编程，关注 A 股科技板块 [preference, importance:8]"
    assert lines[4] == "- 今天天气不错 [note, importance:2]"
    assert lines[5] == "Short-term (top 10):" and lines[6] == "- 今天正在分析 Q3 财报数据 [task, expires: 2h]"
    assert brief.tokens == estimate_tokens(brief.text)


def test_budget_keeps_the_most_important_first(store):
    for i in range(40):
        store.add(content=f"第{i}条记忆：" + "很长的内容" * 10, importance=1 + i % 10)
    brief = build_brief(store, persona_id=None, budget=200, record_access=False)
    assert 0 < brief.tokens <= 200
    kept = store.get_many(brief.long_term)
    assert min(m.importance for m in kept.values()) == 10  # only the top ones fit
    assert build_brief(store, persona_id=None, budget=5).text == ""


def test_limits_and_access_counting(store):
    for i in range(30):
        store.add(content=f"长期 {i}")
    brief = build_brief(store, persona_id=None, long_limit=20)
    assert len(brief.long_term) == 20
    assert store.get(brief.long_term[0]).access_count == 1  # the brief counts as a read
    preview = build_brief(store, persona_id=None, record_access=False)
    assert store.get(preview.long_term[0]).access_count == 1


def test_message_ranks_related_memories_first(store):
    store.add(content="用户家里有三只猫", importance=3)
    store.add(content="用户喜欢喝乌龙茶", importance=9)
    tools = MemoryTools(store)
    brief = brief_for(tools, message="我的猫最近不吃东西")
    assert brief.text.splitlines()[2].startswith("- 用户家里有三只猫")


def test_switch_off_injects_nothing(store):
    persona_id, _ = store.create_persona(name="安静助手")
    store.add(content="秘密", persona_id=persona_id)
    store.update_persona(persona_id, auto_save_memory=False)
    brief = brief_for(MemoryTools(store, persona="安静助手"))
    assert not brief.enabled and brief.text == ""


def test_token_estimate():
    assert estimate_tokens("用户偏好") == 4
    assert estimate_tokens("hello world") == 2 + 2
    assert estimate_tokens("Python 编程") == 2 + 2
