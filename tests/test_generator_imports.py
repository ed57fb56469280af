"""The generator's modules import only downwards: no import cycle among them, and no import placed inside a
function to dodge one (docs/architecture.md gives the counts).

An edge goes from a module to every generator module it imports, wherever the import is written (at the top, under
``TYPE_CHECKING``, or inside a function), and to the packages Python runs to reach it (``from .families.framing``
runs ``families/__init__.py`` first), except a package the importing module is itself inside. The hand-written
runtime and test support the generator copies (``py_package/``, ``py_tests/``) are data to it, not its modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "streamcodecs_gen"
COPIED = ("py_package", "py_tests", "java_runtime")


def _modules(package: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if any(part in COPIED for part in parts):
            continue
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _package_of(module: str, path: Path) -> list[str]:
    parts = module.split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> set[str]:
    """The generator modules an import statement names (a name of a module, else the module it is taken from)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = _package_of(module, path)[: len(_package_of(module, path)) - node.level + 1] if node.level else []
        source = ".".join([*base, *([node.module] if node.module else [])])
        names = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]
    return {name for name in names if name in modules and name != module}


def _with_packages(module: str, target: str, modules: dict[str, Path]) -> set[str]:
    """``target`` and the packages Python runs to import it, less those ``module`` sits in (already running)."""
    parts = target.split(".")
    found = {target}
    for end in range(1, len(parts)):
        package = ".".join(parts[:end])
        if package in modules and not (module == package or module.startswith(package + ".")):
            found.add(package)
    return found


def import_graph(package: Path = PACKAGE) -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    """The generator's import graph, and every import of a generator module written inside a function."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    in_functions: list[tuple[str, int, str]] = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        inside = {id(n) for f in functions for n in ast.walk(f) if isinstance(n, ast.Import | ast.ImportFrom)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(module, path, node, modules):
                graph[module] |= _with_packages(module, target, modules)
                if id(node) in inside:
                    in_functions.append((module, node.lineno, target))
    return graph, in_functions


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for succ in edges:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
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


def test_the_generator_has_no_import_cycle() -> None:
    graph, _ = import_graph()
    assert len(graph) > 40  # every module was read
    assert cycles(graph) == []


def test_no_generator_module_is_imported_inside_a_function() -> None:
    _, in_functions = import_graph()
    assert in_functions == []


def test_the_check_finds_a_cycle_and_an_import_in_a_function(tmp_path: Path) -> None:
    """The same analysis over a small package with a cycle through a package's ``__init__`` and a typing import."""
    package = tmp_path / "streamcodecs_gen"
    (package / "fam").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "model.py").write_text("from .fam.framing import Framing\n")
    (package / "fam" / "__init__.py").write_text("from .one import ONE\n")
    (package / "fam" / "framing.py").write_text("class Framing: ...\n")
    (package / "fam" / "one.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..model import X\nONE = 1\n"
    )
    (package / "late.py").write_text("def f():\n    from . import model\n    return model\n")
    graph, in_functions = import_graph(package)
    assert cycles(graph) == [["streamcodecs_gen.fam", "streamcodecs_gen.fam.one", "streamcodecs_gen.model"]]
    assert in_functions == [("streamcodecs_gen.late", 2, "streamcodecs_gen.model")]


LAYERS: tuple[tuple[str, ...], ...] = (
    # below everything: the definitions' loading and problems, names, versions, the wire-type registry, the message
    # catalog, the Kafka family's text patterns and the rendering helpers (Options, Renderer, the Jinja filters); the
    # packages' own __init__ files
    ("", "families", "load", "problems", "origin", "naming", "versions", "types", "catalog", "patterns")
    + ("filters", "render", "environment"),
    ("families.framing",),  # the typed framing
    ("model", "resolve", "layout"),  # the model
    ("families.*",),  # the family objects: flags and check hooks
    ("build", "schema", "checks", "checks.*", "pipeline"),  # validation
    ("vectors", "vectors.*", "analysis", "analysis.*"),  # what the targets read: reference encoders, analyses
    ("java_sources", "jar", "shared"),  # the shared outputs, built once before the targets
    ("target_*",),  # the targets
    ("targets",),  # their registry
    ("cli", "compat", "frozen", "write"),  # the command line, the compatibility check (and of frozen vectors), writing
)
"""The generator's layers, lowest first (docs/architecture.md, "Import layers"): a module imports only modules of
its own layer or of a lower one. A new module takes its place here."""


def _layer(module: str) -> int | None:
    name = module.removeprefix("streamcodecs_gen").removeprefix(".")
    exact = [i for i, layer in enumerate(LAYERS) if name in layer]
    if exact:
        return exact[0]
    for i, layer in enumerate(LAYERS):
        if any(p.endswith("*") and name.startswith(p[:-1]) for p in layer):
            return i
    return None


def test_every_module_imports_only_its_layer_or_lower_ones() -> None:
    graph, _ = import_graph()
    unplaced = sorted(m for m in graph if _layer(m) is None)
    assert unplaced == [], "give each new module its layer in LAYERS"
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if (_layer(target) or 0) > (_layer(module) or 0)
    )
    assert upward == []


def test_no_family_object_names_a_later_stage() -> None:
    """So that a new target, reference encoder or analysis touches no family file."""
    graph, _ = import_graph()
    later = {i for i in range(len(LAYERS)) if i > LAYERS.index(("families.*",))}
    named = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("streamcodecs_gen.families.")
        for target in targets
        if _layer(target) in later
    )
    assert named == []


def _copied_imports(package: Path = PACKAGE) -> list[tuple[str, int, str]]:
    """Every import, in a generator module, of the code the generator copies into its output (its runtime)."""
    found = []
    for module, path in _modules(package).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = (
                    _package_of(module, path)[: len(_package_of(module, path)) - node.level + 1] if node.level else []
                )
                names = [".".join([*base, *([node.module] if node.module else [])])]
                names += [f"{names[0]}.{alias.name}" for alias in node.names]
            else:
                continue
            found += [(module, node.lineno, n) for n in names if any(part in COPIED for part in n.split("."))]
    return found


def test_the_generator_does_not_import_the_runtime_it_copies() -> None:
    """The facts both runtimes share are written on the generator's side and rendered into the runtimes (the Kafka
    patterns in ``patterns.py``, the texts in ``catalog.py``), never read back from a runtime the generator ships."""
    assert _copied_imports() == []


def test_the_check_finds_an_import_of_the_runtime(tmp_path: Path) -> None:
    package = tmp_path / "streamcodecs_gen"
    (package / "analysis").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "analysis" / "__init__.py").write_text("")
    (package / "analysis" / "kafka.py").write_text("def f():\n    from ..py_package._runtime import kafkawire\n")
    assert _copied_imports(package) == [
        ("streamcodecs_gen.analysis.kafka", 2, "streamcodecs_gen.py_package._runtime"),
        ("streamcodecs_gen.analysis.kafka", 2, "streamcodecs_gen.py_package._runtime.kafkawire"),
    ]
