"""Why a search hit is in the table, in a few words for its row: a hit found through a tag or
its group says so (else it looks random: the words are nowhere in its title or content),
and so do matches by pinyin, across traditional and simplified script, by meaning only
(the vector ranking), or by a fragment of text. From the hit's explanation (core/search/
explain.py), which the search lane has already worked out."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from memdesk.core.search.rank.explain import PINYIN_SEP, SCRIPT_SEP

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for
SEP = " · "


def hit_marks(hit, brief) -> str:
    explain = getattr(hit, "explain", None)
    if explain is None or isinstance(explain, dict):
        return ""
    terms = [t.casefold() for t in (*explain.matched_words, *explain.matched_bigrams) if t.strip()]
    record = getattr(hit, "record", None)
    text = f"{record.title}\n{record.content}".casefold() if record is not None else brief.title.casefold()
    marks = []
    tags = [t for t in brief.tags if any(term in t.casefold() for term in terms)]
    if tags:
        marks.append(translate("HitMarks", "tag {tags}").format(tags="、".join(tags)))
    group = brief.group
    if group and any(term in group.casefold() for term in terms):
        marks.append(translate("HitMarks", "group {group}").format(group=group))
    if explain.matched_pinyin:
        reading = explain.matched_pinyin[0].replace(PINYIN_SEP, "→")
        marks.append(translate("HitMarks", "pinyin {reading}").format(reading=reading))
    if explain.matched_script:
        fold = explain.matched_script[0].replace(SCRIPT_SEP, "=")
        marks.append(translate("HitMarks", "traditional {fold}").format(fold=fold))
    found_by = set(explain.found_by)
    if not marks and found_by == {"substring"}:
        marks.append(translate("HitMarks", "part of a word"))
    if not marks and found_by and found_by <= {"vector", "context"}:
        marks.append(translate("HitMarks", "by meaning"))
    if not marks and terms and not any(term in text for term in terms):
        marks.append(translate("HitMarks", "summary"))
    return SEP.join(marks)
