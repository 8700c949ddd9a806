"""No memdesk module uses another module's private names (a leading underscore).

Read from the source (ast): a module may use the private names it defines itself — module
names, classes, functions and methods, attributes it assigns (``self._x = …``, ``other._x``
of its own class, ``__slots__``) — and nothing else private. What is found:
- ``from module import _name`` of one of our modules;
- ``something._name`` read where this module defines no ``_name`` (``engine._index`` in a
  module that is not the engine's). ``self._x`` and ``cls._x`` are the class's own (an
  attribute from a base class in another module is a defect there too, but the check cannot
  tell a class from its bases, so it leaves those to review).
A name that two modules both happen to define privately is not seen; the check is a net for
reaching across modules, not a type checker. Libraries' underscored names that are their
public interface are allowed by name below, each with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import memdesk

PACKAGE = Path(memdesk.__file__).parent

LIBRARY_NAMES = {
    # peewee documents Model._meta as the model's metadata (fields, sorted_fields, table_name).
    # Its database is not read there: models.database is the proxy the Store binds.
    "_meta": "peewee's model metadata",
    # argparse has no public way to walk a parser's sub-commands (cli/options.py adds --db and
    # --json to every one); both names have been stable since Python 3.2.
    "_actions": "argparse's parser actions",
    "_SubParsersAction": "argparse's sub-command action",
}


def own_private_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            names.update(
                c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            )
    return {name for name in names if _private(name)}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def others_private_uses(path: Path, root: Path) -> list[str]:
    """ "file:line: what" for each use of another module's private name in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mine = own_private_names(tree)
    where = path.relative_to(root).as_posix()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("memdesk")):
            found += [f"{where}:{node.lineno}: import {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and node.attr == "database" and isinstance(node.value, ast.Attribute):
            if node.value.attr == "_meta":
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)} (use models.database)")
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and _private(node.attr):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if node.attr not in mine and node.attr not in LIBRARY_NAMES:
                found.append(f"{where}:{node.lineno}: {ast.unparse(owner)}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        offenders += others_private_uses(path, PACKAGE.parent)
    assert not offenders, "give these a public name in the module that owns them:\n" + "\n".join(offenders)


def test_the_check_sees_private_uses_across_modules(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from .engine import _index_of, Engine\n"
        "from os import _exit\n"
        "class Ranker:\n"
        "    __slots__ = ('_slot',)\n"
        "    def __init__(self, engine, other):\n"
        "        self._mine = engine._index\n"
        "        other._mine, other._slot, self._anything, engine.__class__\n"
        "        Memory._meta.fields, Memory._meta.database\n",
        encoding="utf-8",
    )
    assert others_private_uses(sample, tmp_path) == [
        "sample.py:1: import _index_of",
        "sample.py:6: engine._index",
        "sample.py:8: Memory._meta.database (use models.database)",
    ]
