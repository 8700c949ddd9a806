"""The search language's Chinese words: each filter's Chinese name, the Chinese names of the values
of the closed fields, the states that are filters on their own, and the near-miss names that are
said as errors (memdesk.core.search.query.query reads them)."""

from __future__ import annotations

# The Chinese filter names, longest first where one starts another (创建时间 before 创建).
FIELD_NAMES = {
    "角色": "persona",
    "分组": "group",
    "标签": "tag",
    "类型": "type",
    "范围": "scope",
    "层级": "tier",
    "状态": "is",
    "编号": "id",
    "重要性": "importance",
    "创建时间": "created",
    "创建": "created",
    "更新时间": "updated",
    "更新": "updated",
}
# The values of the closed fields in Chinese: the words the editor and the tree show.
VALUE_NAMES = {
    "type": {"事实": "fact", "偏好": "preference", "项目": "project", "任务": "task", "笔记": "note"},
    "scope": {"长期": "long_term", "短期": "short_term"},
    "tier": {"热": "hot", "温": "warm", "冷": "cold", "归档": "archive"},
    "is": {
        "已删除": "deleted",
        "回收站": "deleted",
        "在回收站中": "deleted",
        "已过期": "expired",
        "已被取代": "superseded",
        "已取代": "superseded",
        "有效": "active",
    },
}
# Names people type for a filter that is not one: said as an error with the right name, not
# searched for as a word (the words they name would match nothing anyway).
NEAR_NAMES = {
    "tags": "tag",
    "types": "type",
    "groups": "group",
    "personas": "persona",
    "scopes": "scope",
    "tiers": "tier",
    "state": "is",
    "类别": "类型",
    "种类": "类型",
    "标记": "标签",
    "组": "分组",
    "人设": "角色",
    "重要度": "重要性",
    "期限": "范围",
    "热度": "层级",
}
# A state alone is a filter: 已删除 = is:deleted (quote it, "已删除", to search for the word).
STATE_WORDS = {"已删除": "deleted", "已过期": "expired", "已被取代": "superseded"}
