"""The arrows between the server's packages, read from the imports in the source: each
package imports only the packages below it (docs/architecture.md, "Layers"), so no
package can import its way back to itself. A new import that breaks a layer fails here,
naming the file and line."""
from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"

# lowest first; a package may import the packages of lower layers only
LAYERS: list[set[str]] = [
    {"i18n"},
    {"core", "models"},
    {"guard", "store"},
    {"accounts", "ratings"},
    {"games"},
    {"notices"},
    {"playbyturn", "realtime", "admin", "bots"},
    {"computer"},
    {"http"},
    {"main", "__main__", "mailworker", "__version__"},   # the composition: builds and starts the parts
]
LAYER_OF = {pkg: n for n, layer in enumerate(LAYERS) for pkg in layer}


def package_of(module: str) -> str | None:
    """app.games.core -> games; app.main -> main; anything outside app -> None."""
    parts = module.split(".")
    return parts[1] if parts[0] == "app" and len(parts) > 1 else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, is_package: bool = False) -> list[tuple[str, int]]:
    """(module imported, line) for every import in the source of `module`, relative ones
    resolved, those inside functions included."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + [node.module]) if node.module else ".".join(base)
            if node.module:
                found.append((target, node.lineno))
            else:   # from . import x: x is a module of that package
                found += [(f"{target}.{a.name}", node.lineno) for a in node.names]
    return found


def arrows() -> list[tuple[str, str, str]]:
    """(from package, to package, file:line) for every import across packages."""
    out = []
    for path in sorted(APP.rglob("*.py")):
        name = module_name(path)
        source = package_of(name)
        for module, line in imported(path.read_text(), name, path.name == "__init__.py"):
            target = package_of(module)
            if source and target and target != source:
                out.append((source, target, f"{path.relative_to(APP.parent)}:{line}"))
    return out


def test_every_package_has_a_layer():
    packages = {p.name for p in APP.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in APP.glob("*.py") if p.stem != "__init__"}
    assert sorted((packages | modules) - set(LAYER_OF)) == []


def upward(found: list[tuple[str, str, str]]) -> list[str]:
    """The arrows that do not point to a lower layer (the top layer, which builds the
    others, may use its own modules)."""
    top = len(LAYERS) - 1
    return [f"{where}: app.{a} imports app.{b}" for a, b, where in found
            if LAYER_OF[b] >= LAYER_OF[a] and not LAYER_OF[a] == LAYER_OF[b] == top]


def test_packages_import_only_the_layers_below():
    assert upward(arrows()) == []


def test_the_check_reads_every_kind_of_import():
    """Relative imports of one and two levels, `from . import x`, an absolute import and
    one inside a function all count, and an upward one is reported."""
    source = ("from ..store import events\nfrom . import core\nimport app.http.api\n"
              "def later():\n    from ...http.pages import render\n")
    found = imported(source, "app.games.deep.mod")
    assert [m for m, _ in found] == ["app.games.store", "app.games.deep.core", "app.http.api", "app.http.pages"]
    found = imported("from ..http import limits\n", "app.realtime.socket")
    assert found == [("app.http", 1)]
    assert upward([("realtime", "http", "app/realtime/socket.py:1")]) == [
        "app/realtime/socket.py:1: app.realtime imports app.http"]
    assert upward([("http", "games", "x"), ("main", "mailworker", "y")]) == []
