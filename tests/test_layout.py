"""The core's folders show its design: a few packages named for what they own, each saying so."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.cli import main

CORE = Path(__file__).resolve().parents[1] / "memdesk" / "core"


def _entries(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name not in ("__init__.py", "__pycache__")]


def test_the_core_has_few_entries_and_search_is_split_into_packages():
    core = _entries(CORE)
    assert len(core) <= 12, sorted(p.name for p in core)
    search = _entries(CORE / "search")
    modules = [p for p in search if p.suffix == ".py"]
    packages = [p for p in search if (p / "__init__.py").is_file()]
    assert len(modules) <= 8, sorted(p.name for p in modules)
    assert {"index", "language", "query", "rank"} <= {p.name for p in packages}


def test_every_core_package_says_what_it_owns():
    missing = []
    for init in sorted(CORE.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        if not doc or len(doc.split()) < 5:
            missing.append(str(init.relative_to(CORE)))
    assert not missing, missing


def test_the_command_line_loads_no_qt():
    """An assistant's `memdesk search` starts fast and works where Qt cannot load."""
    code = (
        "import sys; from memdesk.cli import main, run; "
        "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'memdesk.gui', 'pyqtgraph'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_command_line_alone_asks_for_a_command(capsys):
    with pytest.raises(SystemExit) as stopped:
        main([])
    assert stopped.value.code == 2
    assert "give a command" in capsys.readouterr().err
