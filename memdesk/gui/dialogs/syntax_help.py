"""Help → Search syntax: every operator of the search language with an example.

The language itself is memdesk.core.search.query.query; the operators and their
values (type:preference, tier:hot…) are what the user types, so they stay as
written in every language — the explanations are translated. Each filter is
shown twice, by its English and its Chinese name (类型:偏好), as both are typed.
A click on an example puts it in the search box.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout


class SyntaxHelpDialog(QDialog):
    example_chosen = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("syntaxHelpDialog")
        self.setWindowTitle(self.tr("Search syntax"))
        intro = QLabel(
            self.tr(
                "Type words to find memories that contain any of them, best first. "
                "Combine them with the operators below; click an example to try it."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.page = QTextBrowser(self)
        self.page.setObjectName("syntaxPage")
        self.page.setOpenLinks(False)
        self.page.anchorClicked.connect(self._clicked)
        self.page.setHtml(self.page_html())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.page, 1)
        layout.addWidget(buttons)
        self.resize(720, 620)

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(section or "", example query, the same in Chinese words or "", what it finds)."""
        return [
            (self.tr("Words"), "咖啡 过敏", "", self.tr("Memories with 咖啡 or 过敏 (or both), the best match first")),
            ("", '"下午不喝"', "", self.tr("Quotation marks: exactly these characters, in this order")),
            ("", "咖啡 -茶", "", self.tr("A minus sign: leave out memories that contain 茶")),
            ("", "咖啡 OR 茶", "", self.tr("OR in capitals: either one (words without OR are ranked together)")),
            ("", "(咖啡 OR 茶) 习惯", "", self.tr("Brackets group a part of the query")),
            (
                self.tr("Where a memory belongs"),
                "persona:工作助手",
                "角色:工作助手",
                self.tr("Memories of one persona"),
            ),
            ("", "group:工作/项目", "分组:工作/项目", self.tr("In a group (and the groups inside it)")),
            ("", "tag:健康", "标签:健康", self.tr("With a tag")),
            ("", "-tag:旧", "-标签:旧", self.tr("Without a tag: a minus sign works before every filter")),
            (
                self.tr("What kind of memory"),
                "type:preference",
                "类型:偏好",
                self.tr("Type: fact, preference, project, task or note"),
            ),
            (
                "",
                "scope:short_term",
                "范围:短期",
                self.tr("Short-term memories (scope:long_term for long-term ones)"),
            ),
            ("", "tier:hot", "层级:热", self.tr("Tier by recent use: hot, warm, cold or archive")),
            ("", "importance>=7", "重要性>=7", self.tr("Importance 7 or more (also >, <, <=, =)")),
            (self.tr("State"), "is:deleted", "已删除", self.tr("In the trash")),
            ("", "is:expired", "已过期", self.tr("Expired short-term memories")),
            ("", "is:superseded", "已被取代", self.tr("Replaced by a newer memory")),
            (
                self.tr("Time"),
                "created>2024-05",
                "创建时间>2024-05",
                self.tr("Added after May 2024 (a year, month or day)"),
            ),
            (
                "",
                "updated<7d",
                "更新时间<7d",
                self.tr("Changed within the last 7 days (d days, w weeks, m months, y years)"),
            ),
            (self.tr("One memory"), "id:af8d77ed", "编号:af8d77ed", self.tr("The memory whose id starts like this")),
        ]

    @staticmethod
    def _link(example: str) -> str:
        if not example:
            return ""
        link = QUrl.toPercentEncoding(example).data().decode()
        return f'<a href="query:{link}"><code>{html.escape(example)}</code></a>'

    def page_html(self) -> str:
        parts = ['<table cellspacing="0" cellpadding="5" width="100%">']
        for section, example, chinese, meaning in self.rows():
            if section:
                parts.append(f'<tr><td colspan="3" style="padding-top:10px"><b>{html.escape(section)}</b></td></tr>')
            parts.append(
                f'<tr><td width="24%">{self._link(example)}</td><td width="20%">{self._link(chinese)}</td>'
                f"<td>{html.escape(meaning)}</td></tr>"
            )
        parts.append("</table>")
        notes = (
            self.tr(
                "Every filter has an English and a Chinese name, and its values are accepted in either "
                "language: type:偏好 and 类型:preference work too. A filter with a value it does not know "
                "(类型:不存在) is not searched for as words: the search box says what is wrong and where."
            ),
            self.tr(
                "Full-width characters（：＂－）work as well as their half-width forms, "
                "and 「」 or “” quote too. "
                "A query that cannot be read is marked red; its tooltip names the place."
            ),
        )
        parts += [f"<p>{html.escape(note)}</p>" for note in notes]
        return "".join(parts)

    def _clicked(self, url: QUrl) -> None:
        if url.scheme() == "query":
            self.example_chosen.emit(QUrl.fromPercentEncoding(url.path().encode()))
