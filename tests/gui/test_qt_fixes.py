"""The work-arounds in gui/app/qt_fixes.py, checked against the installed PySide6."""

from __future__ import annotations

import linecache
import sys

import memdesk.gui  # noqa: F401 - applies the work-arounds
from memdesk.gui.app import qt_fixes


def test_modules_imported_after_pyside_are_classified_without_reading_their_source(tmp_path, monkeypatch):
    from PySide6.support import feature

    (tmp_path / "md_fix_uses_qt.py").write_text("import PySide6.QtCore  # a module of the window\n")
    (tmp_path / "md_fix_plain.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("md_fix_uses_qt", "md_fix_plain"):
        sys.modules.pop(name, None)
        feature.pyside_feature_dict.pop(name, None)
    try:
        # an import statement: PySide6 hooks builtins.__import__ (importlib.import_module bypasses it)
        uses_qt = __import__("md_fix_uses_qt")
        plain = __import__("md_fix_plain")
        assert qt_fixes.QUIET_SCAN
        # the answers PySide6's own scan gives: 0 = "uses PySide, no feature", -1 = "ignore"
        assert feature.pyside_feature_dict["md_fix_uses_qt"] == 0
        assert feature.pyside_feature_dict["md_fix_plain"] == -1
        # ... without tokenising the files into linecache, as inspect.getsource did
        assert uses_qt.__file__ not in linecache.cache
        assert plain.__file__ not in linecache.cache
    finally:
        for name in ("md_fix_uses_qt", "md_fix_plain"):
            sys.modules.pop(name, None)


def test_modules_without_source_are_not_taken_for_pyside_users():
    import math

    assert qt_fixes._mentions_pyside(math) is False  # an extension module: no .py file
    assert qt_fixes._mentions_pyside(qt_fixes) is True
