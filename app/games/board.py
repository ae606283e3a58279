"""The map of the board as the browser draws it: the game page, the replay page and the
replay bundle all send it."""
from __future__ import annotations

import functools

import rules_engine


@functools.cache
def client_map(engine: int = rules_engine.ENGINE_VERSION) -> dict:
    """The map of an engine version as the browser draws it (no notes or aliases: fewer
    bytes). A game is drawn on the map of the engine version it was made with."""
    m = rules_engine.load_map(engine).to_json()
    boxes = [{"id": b["id"], "name": b["name"], "state": b["state"], "x": b["x"], "y": b["y"],
              "color": b["color"], "shields": b["shields"], "port": b["port"], "fort": b["fort"],
              "rc": b["recruitment_city"]} for b in m["boxes"]]
    lines = [{"a": ln["a"], "b": ln["b"], "kind": ln["kind"], "river": ln["river"],
              "downstream": ln["downstream"], "river_side": ln["river_side"]} for ln in m["lines"]]
    return {"boxes": boxes, "lines": lines, "viewport": m["viewport"]}
