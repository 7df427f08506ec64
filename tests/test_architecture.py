"""The package's import graph, read from the code: module-level and function-level imports
(type-only imports under ``TYPE_CHECKING`` aside) have no circle and flow one way, data and
loaders -> judges -> engine -> analysis / scoring -> Dask -> widgets -> CLI, with the facades at
the package's top (README, "Architecture")."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "ragwidgets"

LAYERS = {  # module (or package) -> layer; a module may import only from its own layer or below
    "errors": 0, "model": 0, "reviews": 0, "loaders": 0, "sources": 0, "_fastload": 0, "atomic": 0, "arrow_json": 0, "_arrowload": 0,
    "_pages": 0,
    "backends": 0,
    "judges": 1,
    "engine": 2,
    "scenario": 3, "analysis": 3, "scoring": 3, "datasets": 3,
    "dask": 4,
    "widgets": 5,
    "export": 6, "output": 6,
    "api": 7, "": 7,  # the facades: ragwidgets/__init__.py and api.py
    "cli": 8, "scoring.cli": 8, "dask.cli": 8,
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_only(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def import_graph() -> dict[str, set[str]]:
    """module -> the package's modules it imports (names relative to ``ragwidgets``; '' is the top)."""
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip, package = _type_only(tree), name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                found = [a.name.removeprefix("ragwidgets").lstrip(".") for a in node.names
                         if a.name.split(".")[0] == "ragwidgets"]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = [p for p in package if p][:len([p for p in package if p]) - (node.level - 1)]
                    module = ".".join(base + ([node.module] if node.module else []))
                elif (node.module or "").split(".")[0] == "ragwidgets":
                    module = node.module.removeprefix("ragwidgets").lstrip(".")
                else:
                    continue
                found = [f"{module}.{a.name}".lstrip(".") if f"{module}.{a.name}".lstrip(".") in modules else module
                         for a in node.names]
            else:
                continue
            targets |= {t for t in found if t in modules and t != name}
        graph[name] = targets
    return graph


def layer(module: str) -> int:
    parts = module.split(".")
    for k in range(len(parts), -1, -1):
        key = ".".join(parts[:k])
        if key in LAYERS:
            return LAYERS[key]
    raise AssertionError(f"module {module!r} has no layer in LAYERS")


def test_every_module_has_a_layer():
    for module in _modules():
        layer(module)


def test_imports_flow_down_the_layers():
    upward = [f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})"
              for a, targets in import_graph().items() for b in sorted(targets) if layer(b) > layer(a)]
    assert upward == []


def test_widgets_never_import_dask():
    """A cluster run reaches the widgets as a run model through the facades, not by import."""
    graph = import_graph()
    assert [(a, b) for a, targets in graph.items() if layer(a) == LAYERS["widgets"]
            for b in sorted(targets) if b.split(".")[0] == "dask"] == []


def test_the_import_graph_has_no_circle():
    graph, state, circles = import_graph(), {}, []

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                circles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_the_graph_reader_sees_function_level_imports():
    graph = import_graph()
    assert "widgets.dataset" in graph["api"]  # imported inside a function there
    assert "dask.judging" not in graph["scoring.config"]  # only a type-only import there
