"""memdesk.core must never pull in Qt (the GUI calls the core, never the reverse)."""

import pkgutil
import subprocess
import sys

import memdesk.core


def test_importing_every_core_module_loads_no_qt():
    names = [m.name for m in pkgutil.walk_packages(memdesk.core.__path__, "memdesk.core.")]
    assert "memdesk.core.store" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'PyQt5', 'PyQt6', 'shiboken6'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
