"""MEMORY.md and daily notes, as blockcell's pre-SQLite memory (seed 001) kept them."""

import pytest

from memdesk.core.io.plan import import_file
from memdesk.core.io.reading import ImportFileError

MEMORY_MD = """# Long-term Memory

## User Information
- 用户做量化交易，关注 A 股科技板块
- **编程语言**：偏好 Python，不喜欢 Excel #编程 #偏好

## Preferences
喜欢简洁的回答，
不要长篇大论。

- 早上不喝咖啡
  因为会心慌

## Projects
### 智能选股系统
1. 用 Python + backtrader
2. 目标是跑赢沪深300

```
## not a heading inside code
```

## Notes
(empty)
"""


def test_sections_become_groups_items_and_paragraphs_memories(store, tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_text(MEMORY_MD, encoding="utf-8")
    plan, changes = import_file(store, path)
    assert plan.format == "markdown"
    memories = {m.content: m for m in store.list()}
    assert set(memories) == {
        "用户做量化交易，关注 A 股科技板块",
        "偏好 Python，不喜欢 Excel",
        "喜欢简洁的回答，\n不要长篇大论。",
        "早上不喝咖啡\n因为会心慌",
        "用 Python + backtrader",
        "目标是跑赢沪深300",
        "```\n## not a heading inside code\n```",
    }
    titled = memories["偏好 Python，不喜欢 Excel"]
    assert titled.title == "编程语言" and titled.tags == ("编程", "偏好") and titled.group == "User Information"
    assert titled.type == "fact"
    assert memories["早上不喝咖啡\n因为会心慌"].group == "Preferences"
    assert memories["早上不喝咖啡\n因为会心慌"].type == "preference"
    assert memories["用 Python + backtrader"].group == "Projects/智能选股系统"
    assert memories["用 Python + backtrader"].type == "project"
    assert len(changes.added) == 7


def test_daily_note_is_dated_and_gbk_is_read(store, tmp_path):
    path = tmp_path / "2025-03-01.md"
    path.write_bytes("## 今日\n- 分析了茅台 Q3 财报\n".encode("gb18030"))
    import_file(store, path)
    [memory] = store.list()
    assert memory.created_at.date().isoformat() == "2025-03-01" and "daily" in memory.tags
    assert memory.group == "今日"


def test_markdown_without_anything_to_import_is_refused(store, tmp_path):
    path = tmp_path / "empty.md"
    path.write_text("# Title only\n\n## (nothing)\n", encoding="utf-8")
    with pytest.raises(ImportFileError, match="no list items"):
        import_file(store, path)
    assert store.count(state="all") == 0
