"""No import circles in memdesk: the modules' imports form a graph without a cycle.

What counts as an arrow from module A to module B: any import of B written in A's file — at
the top, inside a function, or under ``if TYPE_CHECKING`` — each kind reported by its name.
A circle closed by an import inside a function or a type-only import still ties the two
modules together (neither can be understood, moved or tested without the other); hiding the
import only moves the failure from import time to call time. ``from package import name``
is an arrow to ``package.name`` when that is a module, else to the package (its
``__init__``). The parent packages Python imports on the way are not arrows: they are the
packages' re-exports, not a dependency the importing module chose.
"""

from __future__ import annotations

import ast
from pathlib import Path

import memdesk

PACKAGE = Path(memdesk.__file__).parent


def module_files(package: Path = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> its file, for every module under ``package``."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _target(name: str, modules: dict[str, Path]) -> str | None:
    """The module ``name`` is or lies in (a name imported from a module is that module)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, modules) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]


def arrows(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, str, int]]:
    """(imported module, kind, line) for each import of a module of ours in the file; kind is
    "top", "function" or "type-only"."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[str, str, int]] = []

    def walk(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = kind
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = "function"
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test) and kind == "top":
                inner = "type-only"
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for name in _imported(child, module, path.name == "__init__.py", modules):
                    target = _target(name, modules)
                    if target is not None and target != module:
                        out.append((target, kind, child.lineno))
            walk(child, inner)

    walk(tree, "top")
    return out


def graph(package: Path = PACKAGE) -> dict[str, dict[str, tuple[str, int]]]:
    """module -> {imported module: (kind, line) of its first import there}."""
    modules = module_files(package)
    out: dict[str, dict[str, tuple[str, int]]] = {}
    for module, path in modules.items():
        edges: dict[str, tuple[str, int]] = {}
        for target, kind, line in arrows(module, path, modules):
            edges.setdefault(target, (kind, line))
        out[module] = edges
    return out


def cycles(edges: dict[str, dict[str, tuple[str, int]]]) -> list[list[str]]:
    """One circle for each group of modules that import each other (Tarjan's strongly
    connected components, iteratively), written as a path back to its start."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(_circle(sorted(group), edges))
    return groups


def _circle(group: list[str], edges) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    members, start = set(group), group[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(edges[node]):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node, start]
                if child in members and child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    return group


def _describe(circle: list[str], edges) -> str:
    steps = []
    for a, b in zip(circle, circle[1:]):
        kind, line = edges[a][b]
        steps.append(f"{a} -> {b} ({kind} import, line {line})")
    return "\n  ".join(steps)


def test_memdesk_has_no_import_circles():
    edges = graph()
    found = cycles(edges)
    assert not found, "import circles (move what is shared to the module both may import):\n" + "\n".join(
        "  " + _describe(circle, edges) for circle in found
    )


def test_the_check_sees_circles_through_functions_and_type_only_imports(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "sub" / "__init__.py").write_text("from .c import C\n", encoding="utf-8")
    (package / "a.py").write_text("from . import b\n", encoding="utf-8")
    (package / "b.py").write_text("def f():\n    from .a import thing\n", encoding="utf-8")
    (package / "sub" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..sub.d import D\nclass C: ...\n",
        encoding="utf-8",
    )
    (package / "sub" / "d.py").write_text("import pkg.sub.c\nfrom pkg.a import b\nimport os\n", encoding="utf-8")
    edges = graph(package)
    assert edges["pkg.b"] == {"pkg.a": ("function", 2)}
    assert edges["pkg.sub.c"] == {"pkg.sub.d": ("type-only", 3)}
    assert edges["pkg.sub.d"] == {"pkg.sub.c": ("top", 1), "pkg.a": ("top", 2)}  # a name in pkg.a
    assert edges["pkg.sub"] == {"pkg.sub.c": ("top", 1)}
    assert sorted(cycles(edges)) == [["pkg.a", "pkg.b", "pkg.a"], ["pkg.sub.c", "pkg.sub.d", "pkg.sub.c"]]
