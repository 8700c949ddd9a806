"""Why a search found this memory: the engine's score breakdown for the hit."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list, tuple)) for v in value):
        return ", ".join(_fmt(v) for v in value)
    return str(value)


class ExplainPanel(QWidget):
    def _names(self) -> dict:
        """Readable names for the engine's HitExplanation fields and ranking names."""
        return {
            "matched_words": self.tr("Matched words"), "matched_bigrams": self.tr("Matched character pairs"),
            "bm25": self.tr("Keyword score (words)"), "bigram_bm25": self.tr("Keyword score (character pairs)"),
            "keyword_score": self.tr("Keyword score"), "vector_similarity": self.tr("Meaning similarity"),
            "ranks": self.tr("Place in each ranking"), "fusion": self.tr("Fused relevance (0–1)"),
            "importance": self.tr("Importance (0–1)"), "heat": self.tr("Heat (0–1)"),
            "freshness": self.tr("Freshness (0–1)"), "final": self.tr("Final score"),
            "found_by": self.tr("Found by"), "position": self.tr("Place in the results"),
            "keyword": self.tr("keywords"), "expansion": self.tr("related words"),
            "substring": self.tr("exact text"), "vector": self.tr("meaning"),
            "context": self.tr("next to a match, same conversation"),
            "backend": self.tr("Search"), "order": self.tr("Order"),
            "matched_pinyin": self.tr("Matched by pinyin"),
            "matched_script": self.tr("Matched across traditional and simplified"),
            "pinyin_score": self.tr("Keyword score (pinyin)"),
        }

    def __init__(self, parent=None):
        super().__init__(parent)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("explainTree")
        self.tree.setColumnCount(2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.tree)
        self.tree.setHeaderLabels([self.tr("Part"), self.tr("Value")])
        self.show_hit(None, "")

    def show_hit(self, hit, query: str) -> None:
        self.tree.clear()
        if hit is None:
            self.note.setText(self.tr("Open a search result to see how it scored."))
            self.tree.hide()
            return
        self.note.setText(self.tr("Search “{query}”: score {score:.4f}").format(query=query, score=hit.score))
        self.tree.show()
        explain = hit.explain.to_json() if hasattr(hit.explain, "to_json") else (hit.explain or {})
        self._add(self.tree.invisibleRootItem(), explain)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)

    def _add(self, parent, value) -> None:
        names = self._names()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            label = names.get(key, str(key))
            if isinstance(child, dict) or (isinstance(child, (list, tuple)) and any(
                    isinstance(c, (dict, list, tuple)) for c in child)):
                node = QTreeWidgetItem(parent, [label, ""])
                self._add(node, child)
            else:
                if key == "found_by":
                    child = [names.get(c, c) for c in child]
                elif child is None:
                    child = "—"
                QTreeWidgetItem(parent, [label, _fmt(child)])
