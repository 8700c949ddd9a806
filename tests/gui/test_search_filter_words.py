"""Search filters in Chinese words (类型:偏好, 层级:热, 已删除…) and filters that cannot be read, in the window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

from memdesk.core.store import Store


def use_language(language: str) -> None:
    QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "MemDesk", "MemDesk").setValue(
        "ui/language", language
    )


def seed(path):
    store = Store.open(path)
    store.create_persona(name="工作助手")
    ids = {}
    ids["tea"] = store.add(content="用户喜欢喝绿茶", title="饮品偏好", type="preference", tags=["习惯"]).added[0]
    ids["peanut"] = store.add(content="用户对花生严重过敏", title="对花生过敏", type="fact", importance=9).added[0]
    ids["trip"] = store.add(
        content="下周去深圳出差", title="出差", type="task", scope="short_term", group="工作/出差"
    ).added[0]
    ids["old"] = store.add(content="以前用过的旧邮箱", title="旧邮箱", type="note").added[0]
    store.delete([ids["old"]])
    store.close()
    return ids


def search(window, qtbot, text):
    with qtbot.waitSignal(window.browser.search_finished, timeout=10000) as finished:
        window.search_bar.set_text(text)
    return finished.args[0]  # the Outcome, as shown


@pytest.mark.parametrize(
    "query, found",
    [
        ("类型:偏好", {"tea"}),
        ("类型:事实", {"peanut"}),
        ("type:偏好", {"tea"}),
        ("类型:preference", {"tea"}),
        ("标签:习惯", {"tea"}),
        ("分组:工作", {"trip"}),
        ("范围:短期", {"trip"}),
        ("重要性>=9", {"peanut"}),
        ("层级:热 类型:任务", {"trip"}),
        ("已删除", {"old"}),
    ],
)
def test_chinese_filter_words_find_what_the_english_ones_find(launch, db_path, qtbot, query, found):
    ids = seed(db_path)
    window = launch(db_path, wait_index=True)
    outcome = search(window, qtbot, query)
    assert not outcome.error
    assert {h.id for h in outcome.hits} == {ids[name] for name in found}


@pytest.mark.parametrize(
    "language, query, words",
    [
        ("zh_CN", "咖啡 类型:不存在", ("第 7 个字", "类型", "不存在", "事实、偏好、项目、任务、笔记")),
        ("zh_CN", "type:xyz", ("第 6 个字", "type", "xyz", "fact")),
        ("zh_CN", "层级:很热", ("第 4 个字", "热、温、冷、归档")),
        ("zh_CN", "重要性>=11", ("第 6 个字", "1 到 10")),
        ("zh_CN", "类别:偏好", ("第 1 个字", "没有“类别”这个筛选条件", "类型:")),
        ("en", "type:xyz", ("At character 6", "type has no value “xyz”", "fact, preference")),
        ("en", "(coffee", ("At character 1", "never closed")),
    ],
)
def test_a_filter_that_cannot_be_read_says_where_and_what(launch, db_path, qtbot, language, query, words):
    seed(db_path)
    use_language(language)
    window = launch(db_path)
    outcome = search(window, qtbot, query)
    assert not outcome.hits
    for word in words:
        assert word in outcome.error, (word, outcome.error)
    assert window.search_bar.edit.toolTip() == outcome.error
    # and the line above the results says it too
    assert any(outcome.error in label.text() for label in window.findChildren(QLabel) if label.isVisible())
