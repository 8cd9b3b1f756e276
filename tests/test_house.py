"""The house rules of the source tree (issue 53), read from the code itself with ``ast``: no import cycle inside
``charrestore`` (an import inside a function counts too), no import from a lower layer into a higher one, no
script that edits ``sys.path``, and a tracked tree that fits what travels to an accelerator."""

import ast
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "charrestore"

# module prefix -> prefixes it must never import: the engines know nothing of the Restorer, the CLI, the formats or
# the tools around them; formats, spans and the codec know nothing of the engines (a Restorer is handed to them).
LOWER_THAN = {
    "charrestore.engines": ("charrestore.restorer", "charrestore.cli", "charrestore.serve", "charrestore.batch",
                            "charrestore.formats", "charrestore.evaluation", "charrestore.training",
                            "charrestore.tuning"),
    "charrestore.formats": ("charrestore.engines", "charrestore.restorer", "charrestore.cli", "charrestore.serve",
                            "charrestore.batch"),
    "charrestore.codec": ("charrestore.engines", "charrestore.restorer", "charrestore.segmenter"),
    "charrestore.clusters": ("charrestore.codec", "charrestore.packs", "charrestore.engines"),
    "charrestore.counts": ("charrestore.segmenter", "charrestore.engines"),
    "charrestore.spans": ("charrestore.engines", "charrestore.restorer"),
    "charrestore.segmenter": ("charrestore.engines", "charrestore.restorer", "charrestore.cli"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``charrestore`` that ``path`` imports anywhere in its body (the package itself, which every
    submodule's import runs first, left out)."""
    name, is_package = module_name(path), path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + is_package]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            found.update([prefix, *(f"{prefix}.{a.name}" for a in node.names)])
    return {m for m in found if m in modules and m != name and not name.startswith(m + ".")}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: imports_of(path, set(files)) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle(graph):
    assert len(graph) > 50
    assert cycles(graph) == []


def test_no_import_from_a_lower_layer_into_a_higher_one(graph):
    def under(module: str, prefix: str) -> bool:
        return module == prefix or module.startswith(prefix + ".")

    wrong = [(m, d) for m, deps in graph.items() for low, highs in LOWER_THAN.items() if under(m, low)
             for d in deps if any(under(d, h) for h in highs)]
    assert wrong == []


def test_formats_use_the_restorer_they_are_handed_not_its_engine():
    for path in (PACKAGE / "formats").glob("*.py"):
        assert "restorer.engine" not in path.read_text(encoding="utf-8"), path.name


def test_no_script_edits_sys_path():
    for path in (ROOT / "scripts").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edits = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "path"
                 and isinstance(node.value, ast.Name) and node.value.id == "sys"]
        assert not edits, f"{path.name} edits sys.path"


def test_the_tracked_tree_travels_to_an_accelerator():
    """What goes to a lent GPU machine is at most 64 MiB (tracked files and what a run carries with it)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0 or not listed.stdout:
        pytest.skip("not a git checkout")
    total = sum((ROOT / name).stat().st_size for name in listed.stdout.decode().split("\0")
                if name and (ROOT / name).is_file())
    assert total < 64 * 2**20, f"{total / 2**20:.1f} MiB tracked"
