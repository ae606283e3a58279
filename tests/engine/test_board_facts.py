"""The map data against the printed board's facts (docs/board/boxes.csv and
lines.csv), fact by fact. Any difference fails unless it is a documented ruling;
the rulings that touch the data are listed here with their numbers."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rules_engine.map import load_map

BOARD = Path(__file__).resolve().parents[2] / "docs" / "board"
COLOURS = {"union": "union", "confederate": "confederate", "kentucky": "neutral"}


def _rows(name: str) -> list[dict[str, str]]:
    with open(BOARD / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def m():
    return load_map()


def _box_facts(row: dict[str, str]) -> dict:
    shields = {side: int(row[f"{side}_shield"]) for side in ("union", "confederate")
               if row[f"{side}_shield"]}
    return {"name": row["name"], "state": row["state"], "color": COLOURS[row["colour"]],
            "shields": shields, "port": row["port"] == "yes",
            "fort": row["permanent_entrenchment"] == "yes",
            "river_side": row["river_side"] == "yes",
            "lat": float(row["lat"]), "lon": float(row["lon"])}


def _data_facts(box) -> dict:
    return {"name": box.name, "state": box.state, "color": box.color,
            "shields": dict(box.shields), "port": box.port, "fort": box.fort,
            "river_side": box.river_side, "lat": box.lat, "lon": box.lon}


def test_the_same_boxes(m):
    assert sorted(m.boxes) == sorted(r["id"] for r in _rows("boxes.csv"))
    assert len(m.boxes) == 129


@pytest.mark.parametrize("row", _rows("boxes.csv"), ids=lambda r: r["id"])
def test_every_box_fact(m, row):
    assert _data_facts(m.boxes[row["id"]]) == _box_facts(row)


def _line_key(a: str, b: str, kind: str) -> tuple[str, str, str]:
    return (*sorted((a, b)), kind)


def test_the_same_lines(m):
    board = sorted(_line_key(r["a"], r["b"], r["kind"]) for r in _rows("lines.csv"))
    data = sorted(_line_key(ln.a, ln.b, ln.kind) for ln in m.lines)
    assert data == board
    assert len(data) == 231


@pytest.mark.parametrize("row", _rows("lines.csv"), ids=lambda r: f"{r['a']}~{r['b']}~{r['kind']}")
def test_every_line_fact(m, row):
    ln = m.line_between(row["a"], row["b"], row["kind"])
    assert ln is not None
    assert (ln.downstream or "") == row["downstream"]
    assert sorted(ln.river_side) == sorted(filter(None, row["river_side_of"].split(";")))
    if ln.kind == "river":
        # the river's name opens the board's note on a river line
        assert row["note"].startswith(ln.river.split(" (")[0])


def test_rulings_on_the_board_data(m):
    # R46: 7.5 names Pittsburgh, New York, Philadelphia and Richmond; Scranton keeps
    # the board's 3 for the Army Maximum but recruits one unit a turn.
    assert m.boxes["scranton"].shields["union"] == 3 and not m.boxes["scranton"].two_recruits
    # R47: the 4.5 example needs a non-river line Pittsburg Landing - Corinth.
    assert m.line_between("pittsburg_landing", "corinth", "road") is not None
    # R48: the Potomac is the only line the Confederates may never use (4.2).
    assert [ln.id for ln in m.lines if ln.river == "Potomac"] == [
        "fredericksburg~washington~river"]
