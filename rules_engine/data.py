"""Static tables loaded once from the YAML files beside this module."""
from __future__ import annotations

import functools

import yaml

from .native import PACKAGE_DIR

# beside the package's own files, not this module's: a compiled build of this module
# lies in another folder (native.py)
DATA_DIR = PACKAGE_DIR / "data"
SIDES = ("union", "confederate")


def other(side: str) -> str:
    return "confederate" if side == "union" else "union"


@functools.cache
def _yaml(name: str) -> dict:
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@functools.cache
def pieces() -> dict:
    data = _yaml("pieces.yaml")
    for code, t in data["types"].items():
        t.setdefault("defense", 0)
        t["code"] = code
    return data


def unit_type(code: str) -> dict:
    return pieces()["types"][code]


@functools.cache
def options_table() -> dict[str, dict]:
    raw = _yaml("options.yaml")
    table = {}
    for group in ("optional", "ending", "advanced"):
        for oid, info in raw[group].items():
            table[str(oid)] = dict(info, id=str(oid), group=group)
    return table
