"""Why a search found this memory: one plain sentence, and the engine's numbers a click away.

The sentence says where the query's words matched and how the memory was
found ("Matched “过敏” in the content; 1st by keywords"); the score breakdown
(memdesk.core.search.rank.explain.HitExplanation) is behind "Show the numbers".
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list, tuple)) for v in value):
        return ", ".join(_fmt(v) for v in value)
    return str(value)


def _matched_terms(explain) -> list[str]:
    """The query's words that matched, without the character pairs a longer matched word contains."""
    words = list(dict.fromkeys(explain.matched_words))
    pairs = [p for p in dict.fromkeys(explain.matched_bigrams) if not any(p in w for w in words)]
    return words + pairs


class ExplainPanel(QWidget):
    def _names(self) -> dict:
        """Readable names for the engine's HitExplanation fields and ranking names."""
        return {
            "matched_words": self.tr("Matched words"),
            "matched_bigrams": self.tr("Matched character pairs"),
            "bm25": self.tr("Keyword score (words)"),
            "bigram_bm25": self.tr("Keyword score (character pairs)"),
            "keyword_score": self.tr("Keyword score"),
            "vector_similarity": self.tr("Meaning similarity"),
            "ranks": self.tr("Place in each ranking"),
            "fusion": self.tr("Fused relevance (0–1)"),
            "importance": self.tr("Importance (0–1)"),
            "heat": self.tr("Heat (0–1)"),
            "freshness": self.tr("Freshness (0–1)"),
            "final": self.tr("Final score"),
            "found_by": self.tr("Found by"),
            "position": self.tr("Place in the results"),
            "keyword": self.tr("keywords"),
            "expansion": self.tr("related words"),
            "substring": self.tr("exact text"),
            "vector": self.tr("meaning"),
            "context": self.tr("next to a match, same conversation"),
            "backend": self.tr("Search"),
            "order": self.tr("Order"),
            "matched_pinyin": self.tr("Matched by pinyin"),
            "matched_script": self.tr("Matched across traditional and simplified"),
            "pinyin_score": self.tr("Keyword score (pinyin)"),
        }

    def __init__(self, parent=None):
        super().__init__(parent)
        self.note = QLabel(self)
        self.note.setObjectName("explainSummary")
        self.note.setWordWrap(True)
        self.numbers_button = QToolButton(self)
        self.numbers_button.setObjectName("explainNumbers")
        self.numbers_button.setCheckable(True)
        self.numbers_button.setText(self.tr("Show the numbers"))
        self.numbers_button.toggled.connect(self._toggle_numbers)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("explainTree")
        self.tree.setColumnCount(2)
        top = QHBoxLayout()
        top.addWidget(self.note, 1)
        top.addWidget(self.numbers_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        layout.addStretch(0)
        self.tree.setHeaderLabels([self.tr("Part"), self.tr("Value")])
        self.show_hit(None, "")

    def _toggle_numbers(self, shown: bool) -> None:
        self.tree.setVisible(shown)
        self.numbers_button.setText(self.tr("Hide the numbers") if shown else self.tr("Show the numbers"))

    def show_hit(self, hit, query: str) -> None:
        self.tree.clear()
        if hit is None:
            self.note.setText(self.tr("Open a search result to see why it was found."))
            self.tree.hide()
            self.numbers_button.hide()
            return
        self.note.setText(self.tr("Search “{query}”: {why}").format(query=query, why=self.summary(hit)))
        self.numbers_button.show()
        self.tree.setVisible(self.numbers_button.isChecked())
        explain = hit.explain.to_json() if hasattr(hit.explain, "to_json") else (hit.explain or {})
        self._add(self.tree.invisibleRootItem(), explain)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)

    # ---- the sentence -------------------------------------------------------------------------
    def summary(self, hit) -> str:
        explain = hit.explain
        if not hasattr(explain, "found_by"):
            return self.tr("Found by this search.")
        parts = []
        terms = _matched_terms(explain)
        if terms:
            quoted = self.tr(", ").join(self.tr("“{term}”").format(term=t) for t in terms[:6])
            places = self._places(getattr(hit, "record", None), terms)
            parts.append(
                self.tr("Matched {terms} in the {places}").format(terms=quoted, places=places)
                if places
                else self.tr("Matched {terms}").format(terms=quoted)
            )
        ranks = explain.ranks or {}
        ways = {
            "keyword": self.tr("{nth} by keywords"),
            "vector": self.tr("{nth} by meaning"),
            "substring": self.tr("found as exact text"),
            "expansion": self.tr("{nth} through related words"),
            "context": self.tr("saved next to a match in the same conversation"),
        }
        for way in explain.found_by:
            if way in ways:
                parts.append(ways[way].format(nth=self._nth(ranks.get(way))))
        parts.append(self.tr("{nth} in the results").format(nth=self._nth(explain.position)))
        return self.tr("; ").join(parts) + self.tr(".")

    def _nth(self, rank) -> str:
        return self.tr("#{n}").format(n=rank) if rank else self.tr("ranked")

    def _places(self, record, terms) -> str:
        if record is None:
            return ""
        fields = (
            ("title", record.title or ""),
            ("content", record.content or ""),
            ("tags", " ".join(record.tags)),
            ("group", record.group or ""),
        )
        names = {
            "title": self.tr("title"),
            "content": self.tr("content"),
            "tags": self.tr("tags"),
            "group": self.tr("group"),
        }
        found = [names[f] for f, text in fields if any(t.lower() in text.lower() for t in terms)]
        if len(found) > 1:
            return self.tr("{first} and {last}").format(first=self.tr(", ").join(found[:-1]), last=found[-1])
        return found[0] if found else ""

    # ---- the numbers --------------------------------------------------------------------------
    def _add(self, parent, value) -> None:
        names = self._names()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            label = names.get(key, str(key))
            if isinstance(child, dict) or (
                isinstance(child, (list, tuple)) and any(isinstance(c, (dict, list, tuple)) for c in child)
            ):
                node = QTreeWidgetItem(parent, [label, ""])
                self._add(node, child)
            else:
                if key == "found_by":
                    child = [names.get(c, c) for c in child]
                elif child is None:
                    child = "—"
                QTreeWidgetItem(parent, [label, _fmt(child)])
