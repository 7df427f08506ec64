"""The package's import graph, read from the code: module-level and function-level imports
(type-only imports under ``TYPE_CHECKING`` aside) have no circle and flow one way, data and
loaders -> judges -> engine -> analysis / scoring -> Dask -> widgets -> CLI, with the facades at
the package's top (docs/architecture.md). A back end looked up by name
(``backends.backend("…")``) counts as an import of the modules its registered loader imports."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "ragwidgets"

LAYERS = {  # module (or package) -> layer; a module may import only from its own layer or below
    "errors": 0, "model": 0, "tutorials": 0, "reviews": 0, "jsonl_log": 0, "notes": 0, "loaders": 0, "sources": 0, "_fastload": 0, "atomic": 0, "arrow_json": 0, "_arrowload": 0,
    "_pages": 0, "_extras": 0,
    "backends": 0,
    "judges": 1,
    "engine": 2,
    "scenario": 3, "analysis": 3, "scoring": 3, "datasets": 3, "history_store": 3,
    "dask": 4,
    "widgets": 5,
    "export": 6, "output": 6,
    "api": 7, "": 7,  # the facades: ragwidgets/__init__.py and api.py
    "cli": 8, "notes_cli": 8, "compare_cli": 8, "history_cli": 8, "scoring.cli": 8, "dask.cli": 8,
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


PLUG_INS = {  # back end -> the packages that may look it up by name although it lives above them
    "cluster_run": {"analysis"},  # the run model of a Dask-scored run (its type's run_backend)
    "cluster_scoring": {"scoring"},  # RagChecker.score / dry_run on a Dask DataFrame
}


def _imports(nodes, name: str, path: Path, modules) -> set[str]:
    """The package's modules that the import statements among ``nodes`` name."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets = set()
    for node in nodes:
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
    return targets


def _is_call_of(node, function: str) -> bool:
    return isinstance(node, ast.Call) and (getattr(node.func, "id", None) == function
                                           or getattr(node.func, "attr", None) == function)


def registered_backends() -> dict[str, set[str]]:
    """back end name -> the package's modules its loader imports, from every ``register("name", loader)``."""
    modules, out = _modules(), {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
        for node in ast.walk(tree):
            if (_is_call_of(node, "register") and len(node.args) == 2 and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[1], ast.Name) and node.args[1].id in functions):
                out[node.args[0].value] = _imports(ast.walk(functions[node.args[1].id]), name, path, modules)
    return out


def lookups() -> dict[str, set[str]]:
    """module -> the back ends it looks up by name; a name computed at run time counts as each back end
    its package may look up (``PLUG_INS``), elsewhere as every registered one."""
    every, out = set(registered_backends()), {}
    for name, path in _modules().items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not _is_call_of(node, "backend") or name == "backends":
                continue
            if node.args and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
            else:
                allowed = {b for b, packages in PLUG_INS.items() if name.split(".")[0] in packages}
                found |= allowed or every
        out[name] = found
    return out


def import_graph(*, with_lookups: bool = True) -> dict[str, set[str]]:
    """module -> the package's modules it imports (names relative to ``ragwidgets``; '' is the top), and
    with ``with_lookups`` those its back ends looked up by name import."""
    modules = _modules()
    backends, looked_up = (registered_backends(), lookups()) if with_lookups else ({}, {})
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_only(tree)
        targets = _imports((node for node in ast.walk(tree) if id(node) not in skip), name, path, modules)
        for backend in looked_up.get(name, ()):
            targets |= backends.get(backend, set())
        graph[name] = targets - {name}
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
              for a, targets in import_graph(with_lookups=False).items() for b in sorted(targets) if layer(b) > layer(a)]
    assert upward == []


def test_back_ends_looked_up_by_name_flow_down_but_at_the_plug_in_points():
    """A lower layer reaches a higher one by name only where ``PLUG_INS`` says (engine -> widgets, say, fails)."""
    backends = registered_backends()
    upward = [f"{a} (layer {layer(a)}) looks up {name!r}, which imports {b} (layer {layer(b)})"
              for a, names in lookups().items() for name in sorted(names)
              if a.split(".")[0] not in PLUG_INS.get(name, ())
              for b in sorted(backends.get(name, ())) if layer(b) > layer(a)]
    assert upward == []


def test_every_plug_in_point_is_registered_and_looked_up():
    looked_up = {(a.split(".")[0], name) for a, names in lookups().items() for name in names}
    assert set(registered_backends()) == set(PLUG_INS)
    assert {(p, name) for name, packages in PLUG_INS.items() for p in packages} <= looked_up


def test_widgets_never_import_dask():
    """A cluster run reaches the widgets as a run model through the facades, not by import."""
    graph = import_graph()
    assert [(a, b) for a, targets in graph.items() if layer(a) == LAYERS["widgets"]
            for b in sorted(targets) if b.split(".")[0] == "dask"] == []


def test_the_import_graph_has_no_circle():
    graph, state, circles = import_graph(with_lookups=False), {}, []  # a plug-in point closes one by design

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


def test_the_graph_reader_sees_function_level_imports_and_lookups():
    graph, imports = import_graph(), import_graph(with_lookups=False)
    assert "dask.evaluate" in imports["api"]  # imported inside a function there
    assert "dask.judging" not in imports["scoring.config"]  # only a type-only import there
    assert "dask.judging" in graph["scoring.config"]  # RagChecker.score on a Dask DataFrame, looked up by name
