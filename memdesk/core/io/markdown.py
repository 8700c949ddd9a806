"""MEMORY.md-style Markdown, in and out (seed 001's migration from files).

Reading: headings form the group path (a lone top "# Title" is the document's
name, not a group); every list item and every paragraph becomes a memory.
"- **Title**: text" gives the memory a title; trailing "#tags" become tags.
A "## Persona: NAME" / "## 人格：NAME" heading (what our export writes) sets
the persona of what follows. Daily notes named YYYY-MM-DD.md date their
memories. The heading words pick a type the way blockcell's migration does.

Writing: grouped by persona, then group, one list item per memory.
"""

from __future__ import annotations

import re

from memdesk.core.views.queries import means_global

from . import common

FORMAT = "markdown"
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TITLED = re.compile(r"^\*\*(.+?)\*\*\s*[:：]\s*(.+)$", re.S)
_TRAILING_TAGS = re.compile(r"(?:\s+#[^\s#\d][^\s#]*)+\s*$")
_PLACEHOLDER = re.compile(r"^[(（][^)）]{0,40}[)）]$")
_PERSONA = re.compile(r"^(?:persona|人格)\s*[:：]\s*(.+)$", re.I)
_GLOBAL_HEADINGS = {"global memories", "全局记忆"}  # besides the words of queries.means_global
_UNGROUPED = {"未分组", "ungrouped"}
_DAILY = re.compile(r"^(\d{4}-\d{2}-\d{2})$")
_SECTION_TYPES = (
    (("preference", "偏好"), "preference", None),
    (("project", "项目"), "project", None),
    (("task", "todo", "任务", "待办"), "task", None),
    (("policy", "rule", "规则"), "note", "policy"),
    (("contact", "联系"), "fact", "contact"),
    (("user", "用户", "info", "fact", "事实"), "fact", None),
)


def looks_like(text: str) -> bool:
    lines = [ln for ln in text.splitlines()[:200] if ln.strip()]
    return any(_HEADING.match(ln) for ln in lines) or sum(bool(_ITEM.match(ln)) for ln in lines) >= 2


def _is_persona(text: str) -> bool:
    return bool(_PERSONA.match(text.strip())) or _means_global(text)


def _means_global(text: str) -> bool:
    return means_global(text) or text.strip().lower() in _GLOBAL_HEADINGS


def _classify(path: list[str]) -> tuple[str, str | None]:
    words = " ".join(path).lower()
    for keys, kind, tag in _SECTION_TYPES:
        if any(k in words for k in keys):
            return kind, tag
    return "note", None


def parse(text: str, name: str = "MEMORY") -> list[dict]:
    """Memory records from Markdown text; ``name`` is the file's stem."""
    lines = text.splitlines()
    if lines and lines[0].strip() == "---":  # YAML front matter
        end = next((i for i, ln in enumerate(lines[1:], 1) if ln.strip() in ("---", "...")), None)
        if end is not None:
            lines = lines[end + 1 :]
    matches = [(i, _HEADING.match(ln)) for i, ln in enumerate(lines)]
    headings = [(i, m) for i, m in matches if m]
    h1 = [i for i, m in headings if len(m.group(1)) == 1 and not _is_persona(m.group(2))]
    title_line = h1[0] if len(h1) == 1 and headings[0][0] == h1[0] else None
    daily = _DAILY.match(name)
    parser = _Parser(daily.group(1) if daily else None)
    in_fence = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            parser.fence(line, opening=in_fence)
            continue
        if in_fence:
            parser.block.append(line.rstrip())
            continue
        match = _HEADING.match(line)
        if match:
            parser.flush()
            if i != title_line:
                parser.heading(len(match.group(1)), match.group(2).strip())
            continue
        parser.text(line)
    parser.flush()
    return parser.records


class _Parser:
    def __init__(self, date: str | None):
        self.date = date
        self.path: list[tuple[int, str]] = []
        self.persona: str | None = None
        self.persona_level: int | None = None
        self.block: list[str] = []
        self.item = False
        self.records: list[dict] = []

    def heading(self, level: int, text: str) -> None:
        persona = _PERSONA.match(text)
        if _is_persona(text):
            name = persona.group(1).strip() if persona else ""
            self.persona = None if _means_global(name) else name
            self.persona_level, self.path = level, []
            return
        if self.persona_level is not None and level <= self.persona_level:
            self.persona, self.persona_level = None, None  # the persona's part has ended
        self.path = [(lv, t) for lv, t in self.path if lv < level] + [(level, text)]

    def fence(self, line: str, *, opening: bool) -> None:
        """A code block stays whole: inside an item, or as its own paragraph."""
        if opening and self.item and self.block and self.block[-1] == "" and not line.startswith((" ", "\t")):
            self.flush()  # unindented after a blank line: not part of the item
        if self.item:
            self.block.append(line.strip())
            return
        if opening:
            self.flush()
        self.block.append(line.rstrip())
        if not opening:
            self.flush()

    def text(self, line: str) -> None:
        item = _ITEM.match(line)
        if item and len(item.group(1).expandtabs()) < 2:
            self.flush()
            self.item = True
            self.block = [item.group(2)]
        elif not line.strip():
            if not self.item:
                self.flush()
            elif self.block and self.block[-1] != "":
                self.block.append("")
        elif self.item and self.block and self.block[-1] == "" and not line.startswith((" ", "\t")):
            self.flush()  # an unindented line after a blank ends the item
            self.block = [line]
        else:
            self.block.append(line.strip() if self.item else line.rstrip())

    def flush(self) -> None:
        text = "\n".join(self.block).strip()
        self.block, self.item = [], False
        if not text or _PLACEHOLDER.match(text):
            return
        record: dict = {}
        tags = _TRAILING_TAGS.search(text)
        if tags and tags.start() > 0:
            record["tags"] = [t[1:] for t in tags.group(0).split()]
            text = text[: tags.start()].rstrip()
        titled = _TITLED.match(text)
        if titled:
            record["title"] = titled.group(1).strip()
            text = titled.group(2).strip()
        record["content"] = text
        names = [t for _, t in self.path if t.lower() not in _UNGROUPED]
        record["group"] = "/".join(names)
        kind, tag = _classify(names)
        record["type"] = kind
        if tag:
            common.add_tags(record, [tag])
        if self.persona:
            record["persona_id"] = self.persona
        if self.date:
            record["created_at"] = self.date
            common.add_tags(record, ["daily"])
        self.records.append(record)


def render(memories, persona_names: dict, *, title: str = "MemDesk") -> str:
    """Markdown grouped by persona, then group (global memories first)."""
    by_persona: dict = {}
    for memory in memories:
        by_persona.setdefault(memory.persona_id, {}).setdefault(memory.group, []).append(memory)
    order = sorted(by_persona, key=lambda pid: (pid is not None, persona_names.get(pid, pid or "")))
    out = [f"# {title}", ""]
    for pid in order:
        out += [f"## 人格：{persona_names.get(pid, pid)}" if pid else "## 全局", ""]
        for group in sorted(by_persona[pid]):
            out += [f"### {group or '未分组'}", ""]  # read back as no group
            for memory in by_persona[pid][group]:
                out.append(_item(memory))
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _item(memory) -> str:
    lines = memory.content.strip().splitlines() or [""]
    head = f"**{memory.title}**：" if memory.title else ""
    tags = "".join(f" #{t}" for t in memory.tags if not re.search(r"\s|#", t))
    body = [f"- {head}{lines[0]}"] + [f"  {ln}" if ln.strip() else "" for ln in lines[1:]]
    body[-1] += tags
    return "\n".join(body)
