"""The shape of the code, kept: rooms of one noun stay small, and hunter's modules import each
other without a cycle (an import made at module level, that is: one inside a function or under
TYPE_CHECKING runs later and cannot loop at import time)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "hunter"
MAX_CLASS_LINES = 200


def modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def module_level_imports(name: str, tree: ast.Module, known: set[str]) -> set[str]:
    """hunter's modules that `name` imports while it is imported."""
    imported: set[str] = set()
    for node in tree.body:  # module level only: not in functions, not in `if TYPE_CHECKING`
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from a import b` imports the module a.b when there is one, else a name of a
            targets = [
                f"{node.module}.{alias.name}"
                if f"{node.module}.{alias.name}" in known
                else node.module
                for alias in node.names
            ]
        imported |= {target for target in targets if target in known and target != name}
    return imported


def test_no_class_in_hunter_is_over_200_lines() -> None:
    large = [
        f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines"  # type: ignore[operator]
        for name, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES  # type: ignore[operator]
    ]
    assert large == []


def test_hunters_modules_import_each_other_without_a_cycle() -> None:
    trees = modules()
    known = set(trees)
    graph = {name: module_level_imports(name, tree, known) for name, tree in trees.items()}
    cycles: list[list[str]] = []
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []
