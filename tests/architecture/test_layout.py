"""The server's layout rules, checked on the source: short modules and functions, only
the store touches the event table, no module reaches into another's private names."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
MODULES = sorted(APP.rglob("*.py"))
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
# names of the private attributes any object may carry (Python's and SQLAlchemy's own)
ALLOWED_PRIVATE = {"_mapping", "_asdict", "_fields"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def _name(path: Path) -> str:
    return str(path.relative_to(APP.parent))


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_modules_are_short(path):
    assert len(path.read_text().splitlines()) <= MAX_MODULE_LINES


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_functions_are_short(path):
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(_tree(path))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == []


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_module_uses_another_modules_private_names(path):
    bad = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom):
            bad += [f"import {a.name} from {node.module}" for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")) and node.attr not in ALLOWED_PRIVATE:
                bad.append(f"line {node.lineno}: .{node.attr}")
    assert bad == []


def test_only_the_store_touches_the_event_table():
    store = APP / "store"
    users = []
    for path in MODULES:
        if path.parent == store or path.parent == APP / "models":
            continue
        text = path.read_text()
        if "game_events" in text or "GameEvent" in text:
            users.append(_name(path))
    assert users == []
