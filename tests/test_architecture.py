"""The layout is the architecture: no import cycles, every module importable on its
own, the live half's packages apart, and no file in ``assistant/`` holding two jobs.

An import counts wherever it stands: at the top of a module, inside a function (the
usual way to hide a cycle) or under ``TYPE_CHECKING``. A cycle means two modules that
cannot be understood, tested or changed one without the other.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("assistant", "vision", "web", "hardware", "table_assistant")
#: Past this a file usually holds two jobs (DEVELOPERS.md, issue #27).
MAX_LINES = {"assistant": 600}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if ".venv" not in path.parts
    }


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports, anywhere in its text."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            # "a.b.c" imports the modules a.b.c if it is one, else the nearest package
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    graph = {name: imports_of(name, path, known) for name, path in modules.items()}
    # a package's __init__ is run by importing any module under it; importing a
    # package from inside it is what its own modules do, not a cycle of ideas
    return {name: {t for t in targets if not name.startswith(t + ".")} for name, targets in graph.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_the_projects_modules() -> None:
    cycles = find_cycles(import_graph())
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(group) for group in cycles)


def test_the_assistant_imports_nothing_from_vision_web_or_hardware() -> None:
    graph = import_graph()
    leaks = sorted(
        f"{name} -> {target}"
        for name, targets in graph.items() if name.split(".")[0] == "assistant"
        for target in targets if target.split(".")[0] in ("vision", "web", "hardware", "table_assistant")
    )
    assert leaks == []


@pytest.mark.parametrize("package", sorted(MAX_LINES))
def test_no_file_holds_two_jobs(package: str) -> None:
    limit = MAX_LINES[package]
    long = sorted(
        f"{path.relative_to(ROOT)}: {count} lines"
        for path in (ROOT / package).rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > limit
    )
    assert long == []


def test_every_module_imports_alone_in_a_fresh_interpreter() -> None:
    """Each module imported first, by itself, in one child interpreter apiece (batched
    into one script so that the ~70 modules cost seconds, not minutes)."""
    names = sorted(project_modules())
    script = "\n".join([
        "import importlib, subprocess, sys",
        f"names = {names!r}",
        "failed = []",
        "for name in names:",
        "    code = f'import importlib; importlib.import_module({name!r})'",
        "    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)",
        "    if done.returncode:",
        "        failed.append(name + ': ' + (done.stderr.strip().splitlines() or ['?'])[-1])",
        "print('\\n'.join(failed))",
    ])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
