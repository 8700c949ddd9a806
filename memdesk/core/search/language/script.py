"""Traditional and simplified Chinese matched as one script.

Users paste traditional text from Taiwan and Hong Kong sources, and
assistants write whichever script the conversation used: 飲料 must find 饮料
and the other way round. Every text the index holds and every query is
folded to simplified (tokenize.normalise calls ``fold``); the memory itself
is stored as written. Script only (OpenCC's "t2s": characters and the
phrases whose characters convert differently); regional vocabulary such as
軟體/软件 is not rewritten, it is a different word.

OpenCC's official Python package (``opencc``, Apache-2.0, C++ with the
dictionaries compiled to .ocd2) does the conversion. Measured on the 2-core
dev machine: the converter loads in ~35 ms; an 84-character sentence takes
~10 µs; texts without a CJK character are not handed to it at all. What a
bundle needs is the extension (~1.0 MB) and t2s's five dictionary files
(~95 KB); the wheel's command-line tools and static libraries (~5 MB) are
left out (packaging/memdesk.spec). Without the package, search still works,
each script finding only itself.
"""

from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)

_lock = threading.Lock()
_converter = None
_loaded = False


def _load():
    global _converter, _loaded
    with _lock:
        if not _loaded:
            try:
                import opencc

                _converter = opencc.OpenCC("t2s")
            except Exception as exc:  # missing package or dictionaries: match each script alone
                log.warning("traditional/simplified folding is off: %s", exc)
                _converter = None
            _loaded = True
    return _converter


def fold(text: str) -> str:
    """``text`` in simplified characters (text without CJK comes back as it is)."""
    converter = _converter if _loaded else _load()
    if converter is None:
        return text
    return converter.convert(text)


_changing: frozenset[str] | None = None


def has_traditional(text: str) -> bool:
    """Whether ``text`` holds a character t2s changes on its own (~4,200 of them;
    worked out once, ~40 ms). A quick test for "why found", which runs on every
    keystroke; matching itself always folds whole texts (phrases count there)."""
    global _changing
    if _changing is None:
        codes = [*range(0x3400, 0x4DC0), *range(0x4E00, 0xA000), *range(0xF900, 0xFB00)]
        chars = [chr(c) for c in codes]
        out = fold("\n".join(chars)).split("\n")  # one call; newlines keep characters apart
        _changing = frozenset(c for c, o in zip(chars, out) if c != o) if len(out) == len(chars) else frozenset()
    return not _changing.isdisjoint(text)


def available() -> bool:
    return (_converter if _loaded else _load()) is not None


def originals(original: str, folded: str, words) -> dict[str, str]:
    """For each folded word, the form ``original`` wrote it in where that differs
    ({'饮料': '飲料'}). Relies on t2s keeping lengths, which it does for the
    script differences; a text whose length changed is skipped."""
    if len(original) != len(folded):
        return {}
    out = {}
    for word in words:
        start = folded.find(word)
        while start >= 0:
            written = original[start : start + len(word)]
            if written != word:
                out[word] = written
                break
            start = folded.find(word, start + 1)
    return out
