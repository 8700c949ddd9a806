"""No module in memdesk/ over 450 lines and no function over 60 (docs STYLE.md), unless the
module's docstring says why in a line of its own starting "Size:" (e.g. "Size: one table of
…, read best in one place").

The allow-list below names what is over the limits on purpose for now; each entry must still
be over them (an entry that is not is reported, so the list cannot go stale).
"""

import ast
import re
from pathlib import Path

import memdesk

PACKAGE = Path(memdesk.__file__).parent
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 450, 60
REASON = re.compile(r"^\s*Size: \S", re.M)

# Empty now: every module and function is within the limits.
ALLOWED: dict[str, str] = {}


def oversized(path: Path, name: str) -> list[str]:
    """ "name" (module over the limit) and "name::function" entries for one file, unless its
    docstring gives the reason."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    if REASON.search(ast.get_docstring(tree) or ""):
        return []
    found = [name] if len(source.splitlines()) > MAX_MODULE_LINES else []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                found.append(f"{name}::{node.name}")
    return found


def _all_oversized() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += oversized(path, path.relative_to(PACKAGE).as_posix())
    return found


def _allowed(entry: str) -> bool:
    return entry in ALLOWED or entry.split("::")[0] in ALLOWED


def test_no_module_or_function_over_the_limits():
    found = _all_oversized()
    offenders = [entry for entry in found if not _allowed(entry)]
    assert not offenders, (
        f"over {MAX_MODULE_LINES} lines (module) or {MAX_FUNCTION_LINES} (function); split it, or say why "
        "in a 'Size:' line of the module docstring:\n" + "\n".join(offenders)
    )
    stale = [entry for entry in ALLOWED if not any(f == entry or f.startswith(entry + "::") for f in found)]
    assert not stale, "within the limits now: remove from ALLOWED:\n" + "\n".join(stale)


def test_the_check_sees_long_modules_and_functions(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    sample = tmp_path / "sample.py"
    sample.write_text(f'"""A sample."""\n\n\ndef short():\n    return 1\n\n\ndef long():\n{body}\n')
    assert oversized(sample, "sample.py") == ["sample.py::long"]
    sample.write_text(f'"""A sample."""\n\n\ndef long():\n{body}\n' + "\n" * 400)
    assert oversized(sample, "sample.py") == ["sample.py", "sample.py::long"]
    sample.write_text(f'"""A sample.\n\nSize: generated tables.\n"""\n\n\ndef long():\n{body}\n' + "\n" * 400)
    assert oversized(sample, "sample.py") == []
