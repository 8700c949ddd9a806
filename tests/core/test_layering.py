"""Layering rules import-linter cannot see (the import contracts are in pyproject.toml).

Only the Store touches its own private members: io, maintenance and everything else go
through its public API (store.bind(), store.execute_sql(), store.write(), …), so the Store
can change how it holds its database without breaking them.
"""

import ast
from pathlib import Path

import memdesk

PACKAGE = Path(memdesk.__file__).parent


def _private_store_uses(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        if name == "store" or name.endswith("_store"):
            found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {name}.{node.attr}")
    return found


def test_no_module_outside_the_store_uses_its_private_members():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "core" / "store.py":
            continue
        offenders += _private_store_uses(path)
    assert not offenders, "use the Store's public API instead:\n" + "\n".join(offenders)


def test_the_check_sees_a_private_use(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(store, self):\n    return store._db, self.store._writing, store.__class__\n", encoding="utf-8"
    )
    assert _private_store_uses(sample, tmp_path) == ["sample.py:2: store._db", "sample.py:2: store._writing"]
