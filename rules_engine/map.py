"""The A House Divided mapboard: boxes, transportation lines and scenario setups.

The data live in ``data/map.yaml`` and ``data/scenarios/*.yaml`` beside this
module (the printed board: see docs/map.md). This module loads and validates
them once and exposes them as immutable objects.

The data are versioned with the engine: a game is played on the map and setups of
the engine version named in its header, so games stored before a change of the data
replay and continue on the data they began with. ``data/`` holds the current
version; ``data/v1/`` the reconstructed map that engine version 1 used.

Public API::

    Box, Line, Map, load_map(version), load_scenario(id, version), scenario_ids(version),
    SCENARIO_IDS, DATA_VERSIONS, project(lat, lon)
"""
from __future__ import annotations

import dataclasses
import functools
import math
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn
from collections.abc import Mapping

import yaml

from .data import DATA_DIR


#: Engine version -> (folder of its map.yaml and scenarios/, its scenario ids).
#: Frozen: a version's files are never edited once games were stored with it.
DATA_VERSIONS: dict[int, tuple[Path, tuple[str, ...]]] = {
    1: (DATA_DIR / "v1", ("1861", "1861-short", "1862", "1863", "1864")),
    2: (DATA_DIR, ("1861", "1861-short", "1861-first-printing", "1862", "1863", "1864")),
    # version 3 plays the map and rules of version 2; its action events carry what
    # each action changed, so that its games replay by folding (changes.py)
    3: (DATA_DIR, ("1861", "1861-short", "1861-first-printing", "1862", "1863", "1864")),
    # version 4 plays the map of version 2 and the correction of ruling R51
    4: (DATA_DIR, ("1861", "1861-short", "1861-first-printing", "1862", "1863", "1864")),
    # version 5: cavalry that withdraws before combat has not fought (5.5, 5.6); no
    # entrenching in a port whose coastal defence still holds it (A5.0 with 4.3, 4.7)
    5: (DATA_DIR, ("1861", "1861-short", "1861-first-printing", "1862", "1863", "1864")),
}
CURRENT_DATA_VERSION = max(DATA_VERSIONS)

#: The scenarios new games may use.
SCENARIO_IDS: tuple[str, ...] = DATA_VERSIONS[CURRENT_DATA_VERSION][1]

SIDES = ("union", "confederate")
COLORS = ("union", "confederate", "neutral")
KINDS = ("road", "rail", "river")
UNIT_TYPES = ("MI", "VI", "CI", "MC", "VC", "CC")

# --------------------------------------------------------------------------
# Projection (shared with the browser background: keep these names stable)
# --------------------------------------------------------------------------
#: Albers equal-area conic parameters (degrees).
ALBERS_PARALLEL_1 = 29.5
ALBERS_PARALLEL_2 = 45.5
ALBERS_CENTRAL_MERIDIAN = -86.0
ALBERS_REFERENCE_LATITUDE = 37.0

#: The board's frame in raw (unit-sphere) Albers coordinates: (xmin, xmax, ymin, ymax),
#: y growing northward. It is the boxes' extent (St. Joseph / Fort Smith in the
#: west, New York in the east, Chicago/Cleveland in the north, Gainesville in the
#: south) padded by about half a degree. Every box must project inside it.
PROJECTION_FRAME = (-0.128, 0.166, -0.137, 0.096)

#: Width of the viewport the frame is scaled into, and the margin kept free on each side.
VIEWPORT_WIDTH = 1000.0
VIEWPORT_MARGIN = 20.0


def _albers_raw(lat: float, lon: float) -> tuple[float, float]:
    """Unscaled spherical Albers (unit sphere); y grows northward."""
    p1 = math.radians(ALBERS_PARALLEL_1)
    p2 = math.radians(ALBERS_PARALLEL_2)
    p0 = math.radians(ALBERS_REFERENCE_LATITUDE)
    n = (math.sin(p1) + math.sin(p2)) / 2.0
    c = math.cos(p1) ** 2 + 2.0 * n * math.sin(p1)
    rho0 = math.sqrt(c - 2.0 * n * math.sin(p0)) / n
    rho = math.sqrt(c - 2.0 * n * math.sin(math.radians(lat))) / n
    theta = n * math.radians(lon - ALBERS_CENTRAL_MERIDIAN)
    return rho * math.sin(theta), rho0 - rho * math.cos(theta)


_XMIN, _XMAX, _YMIN, _YMAX = PROJECTION_FRAME
#: Pixels per raw Albers unit (radian of arc).
PROJECTION_SCALE = (VIEWPORT_WIDTH - 2 * VIEWPORT_MARGIN) / (_XMAX - _XMIN)
#: Height of the viewport (width is VIEWPORT_WIDTH).
VIEWPORT_HEIGHT = round((_YMAX - _YMIN) * PROJECTION_SCALE + 2 * VIEWPORT_MARGIN, 2)


def project(lat: float, lon: float) -> tuple[float, float]:
    """Project a geographic position to viewport coordinates.

    Albers equal-area conic (standard parallels ALBERS_PARALLEL_1/2, central
    meridian ALBERS_CENTRAL_MERIDIAN, reference latitude ALBERS_REFERENCE_LATITUDE,
    spherical), scaled so that PROJECTION_FRAME fills a VIEWPORT_WIDTH-wide
    viewport with VIEWPORT_MARGIN on every side. x grows eastward, y grows southward
    (SVG/canvas convention); the viewport is VIEWPORT_WIDTH x VIEWPORT_HEIGHT.
    """
    rx, ry = _albers_raw(lat, lon)
    x = (rx - _XMIN) * PROJECTION_SCALE + VIEWPORT_MARGIN
    y = (_YMAX - ry) * PROJECTION_SCALE + VIEWPORT_MARGIN
    return round(x, 2), round(y, 2)


# --------------------------------------------------------------------------
# Data classes
# --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Box:
    id: str
    name: str
    state: str
    color: str  # "union" | "confederate" | "neutral"
    shields: Mapping[str, int]  # e.g. {"union": 1, "confederate": 1}
    port: bool
    fort: bool
    lat: float
    lon: float
    x: float
    y: float
    aliases: tuple[str, ...]
    note: str = ""
    river_side: bool = False    # a blue box side (5.34); which lines enter it is on the lines
    two_recruits: bool = False  # may recruit two units a turn under optional rule 7.5

    @property
    def recruitment_city(self) -> bool:
        """A box with a numbered shield of either colour (7.0)."""
        return any(v > 0 for v in self.shields.values())

    def to_json(self) -> dict:
        return {
            "id": self.id, "name": self.name, "state": self.state, "color": self.color,
            "shields": dict(self.shields), "port": self.port, "fort": self.fort,
            "recruitment_city": self.recruitment_city,
            "river_side": self.river_side, "two_recruits": self.two_recruits,
            "lat": self.lat, "lon": self.lon, "x": self.x, "y": self.y,
            "aliases": list(self.aliases), "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class Line:
    id: str  # stable, e.g. "washington~fredericksburg~river"
    a: str
    b: str
    kind: str  # "road" | "rail" | "river"
    river: str | None
    downstream: str | None  # a or b for rivers, None otherwise
    river_side: tuple[str, ...]  # box ids whose river side this line end enters (5.34)
    note: str = ""

    def other(self, box_id: str) -> str:
        if box_id == self.a:
            return self.b
        if box_id == self.b:
            return self.a
        raise ValueError(f"box {box_id!r} is not an end of line {self.id}")

    def is_downriver_from(self, box_id: str) -> bool:
        """True if moving from box_id along this line goes downriver (4.5)."""
        if self.kind != "river":
            return False
        return self.downstream == self.other(box_id)

    def crosses_river_into(self, box_id: str) -> bool:
        """True if a unit entering box_id along this line attacks across the river (5.34)."""
        return box_id in self.river_side

    def to_json(self) -> dict:
        return {
            "id": self.id, "a": self.a, "b": self.b, "kind": self.kind,
            "river": self.river, "downstream": self.downstream,
            "river_side": list(self.river_side), "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class Map:
    boxes: dict[str, Box]
    lines: tuple[Line, ...]
    _adjacent: dict[str, tuple[tuple[str, Line], ...]] = field(repr=False, compare=False)
    _by_pair: dict[tuple[str, str, str], Line] = field(repr=False, compare=False)
    _names: dict[str, str] = field(repr=False, compare=False)

    def neighbours(self, box_id: str) -> tuple[tuple[str, Line], ...]:
        """(neighbour id, line) pairs, sorted by neighbour id then line kind (alphabetical)."""
        try:
            return self._adjacent[box_id]
        except KeyError:
            raise KeyError(f"unknown box id {box_id!r}") from None

    def line_between(self, a: str, b: str, kind: str) -> Line | None:
        return self._by_pair.get(_pair_key(a, b, kind))

    def lines_between(self, a: str, b: str) -> tuple[Line, ...]:
        return tuple(ln for k in KINDS if (ln := self.line_between(a, b, k)) is not None)

    def resolve(self, name_or_alias: str) -> str:
        """Box id for an id, printed name or alias (case-insensitive)."""
        key = _norm(name_or_alias)
        try:
            return self._names[key]
        except KeyError:
            raise KeyError(f"no box named {name_or_alias!r} (not an id, name or alias in map.yaml)") from None

    def to_json(self) -> dict:
        from .board_layout import lay_out  # boxes at their places on the drawn board
        return lay_out({
            "boxes": [b.to_json() for b in self.boxes.values()],
            "lines": [ln.to_json() for ln in self.lines],
            "viewport": {"width": VIEWPORT_WIDTH, "height": VIEWPORT_HEIGHT},
        })


def _pair_key(a: str, b: str, kind: str) -> tuple[str, str, str]:
    """A line's key whichever end is named first."""
    return (a, b, kind) if a <= b else (b, a, kind)


def _norm(s: str) -> str:
    return " ".join(str(s).casefold().split())


# --------------------------------------------------------------------------
# Loading and validation
# --------------------------------------------------------------------------
def _fail(what: str, msg: str) -> NoReturn:
    raise ValueError(f"map.yaml: {what}: {msg}")


def _build_map(raw: Any) -> Map:
    if not isinstance(raw, dict) or "boxes" not in raw or "lines" not in raw:
        raise ValueError("map.yaml: top level must be a mapping with 'boxes' and 'lines'")
    boxes, names = _build_boxes(raw["boxes"])
    lines, by_pair = _build_lines(raw["lines"], boxes)
    boxes = _with_river_sides(raw["boxes"], boxes, lines)
    adj: dict[str, list[tuple[str, Line]]] = {bid: [] for bid in boxes}
    for ln in lines:
        adj[ln.a].append((ln.b, ln))
        adj[ln.b].append((ln.a, ln))
    adjacent = {bid: tuple(sorted(v, key=lambda t: (t[0], t[1].kind))) for bid, v in adj.items()}
    _check_connected(boxes, adjacent)
    return Map(boxes=boxes, lines=tuple(lines), _adjacent=adjacent, _by_pair=by_pair, _names=names)


def _build_boxes(raw_boxes: Any) -> tuple[dict[str, Box], dict[str, str]]:
    """The boxes, and every id, name and alias (normalised) with the box it names."""
    boxes: dict[str, Box] = {}
    names: dict[str, str] = {}
    all_ids = {rb.get("id") for rb in raw_boxes if isinstance(rb, dict)}

    def claim(label: str, box_id: str, what: str) -> None:
        key = _norm(label)
        if what == "name" and key in all_ids and key != box_id:
            return    # an id names its own box: "bloomington" is Illinois, the name "Bloomington" Indiana's
        if key in names and names[key] != box_id:
            _fail(f"box {box_id!r}", f"{what} {label!r} already used by box {names[key]!r}")
        names[key] = box_id

    for i, rb in enumerate(raw_boxes):
        box = _build_box(i, rb, boxes)
        boxes[box.id] = box
        claim(box.id, box.id, "id")
        claim(box.name, box.id, "name")
        seen_alias: set[str] = set()
        for al in box.aliases:
            if _norm(al) in seen_alias:
                _fail(f"box #{i} ({box.id!r})", f"alias {al!r} listed twice")
            seen_alias.add(_norm(al))
            claim(al, box.id, "alias")
    return boxes, names


def _build_box(i: int, rb: Any, boxes: dict[str, Box]) -> Box:
    bid = rb.get("id") if isinstance(rb, dict) else None
    where = f"box #{i} ({bid!r})"
    if (not isinstance(bid, str) or not bid or bid != bid.lower()
            or not all(c.isalnum() or c == "_" for c in bid) or not bid.isascii()):
        _fail(where, "id must be lowercase snake_case ascii")
    if bid in boxes:
        _fail(where, "duplicate id")
    _check_box_fields(where, rb)
    shields = rb.get("shields") or {}
    lat, lon = rb["lat"], rb["lon"]
    x, y = project(float(lat), float(lon))
    if not (VIEWPORT_MARGIN <= x <= VIEWPORT_WIDTH - VIEWPORT_MARGIN
            and VIEWPORT_MARGIN <= y <= VIEWPORT_HEIGHT - VIEWPORT_MARGIN):
        _fail(where, f"position {lat},{lon} falls outside PROJECTION_FRAME")
    aliases = rb.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
        _fail(where, "aliases must be a list of strings")
    return Box(
        id=bid, name=str(rb["name"]), state=rb["state"], color=rb["color"],
        shields=MappingProxyType({s: shields[s] for s in SIDES if s in shields}),
        port=bool(rb.get("port", False)), fort=bool(rb.get("fort", False)),
        lat=float(lat), lon=float(lon), x=x, y=y,
        aliases=tuple(aliases), note=str(rb.get("note") or ""),
        river_side=bool(rb.get("river_side", False)),
        # 7.5 names the cities "with a value of 3 or more"; a box may be excepted
        two_recruits=bool(rb.get("two_recruits", max(shields.values(), default=0) >= 3)),
    )


def _check_box_fields(where: str, rb: dict[str, Any]) -> None:
    for key in ("name", "state", "color", "lat", "lon"):
        if key not in rb:
            _fail(where, f"missing {key!r}")
    unknown = set(rb) - {"id", "name", "state", "color", "shields", "port", "fort", "lat", "lon",
                         "aliases", "note", "river_side", "two_recruits"}
    if unknown:
        _fail(where, f"unknown fields {sorted(unknown)}")
    if rb["color"] not in COLORS:
        _fail(where, f"color must be one of {COLORS}")
    if not (isinstance(rb["state"], str) and len(rb["state"]) == 2 and rb["state"].isupper()):
        _fail(where, "state must be a 2-letter code")
    shields = rb.get("shields") or {}
    if not isinstance(shields, dict) or any(s not in SIDES or not isinstance(v, int) or v < 1
                                            for s, v in shields.items()):
        _fail(where, "shields must map union/confederate to a positive int")
    for flag in ("port", "fort", "river_side", "two_recruits"):
        if not isinstance(rb.get(flag, False), bool):
            _fail(where, f"{flag} must be a boolean")
    if not isinstance(rb["lat"], (int, float)) or not isinstance(rb["lon"], (int, float)):
        _fail(where, "lat/lon must be numbers")


def _build_lines(raw_lines: Any, boxes: dict[str, Box]) -> tuple[list[Line], dict[tuple[str, str, str], Line]]:
    lines: list[Line] = []
    by_pair: dict[tuple[str, str, str], Line] = {}
    for i, rl in enumerate(raw_lines):
        line = _build_line(i, rl, boxes)
        pair = _pair_key(line.a, line.b, line.kind)
        if pair in by_pair:
            _fail(f"line #{i} ({line.id})", f"duplicate {line.kind} line between {line.a} and {line.b}")
        by_pair[pair] = line
        lines.append(line)
    return lines, by_pair


def _build_line(i: int, rl: Any, boxes: dict[str, Box]) -> Line:
    if not isinstance(rl, dict):
        _fail(f"line #{i}", "must be a mapping")
    a: Any = rl.get("a")              # unchecked YAML until validated below
    b: Any = rl.get("b")
    kind: Any = rl.get("kind")
    where = f"line #{i} ({a}~{b}~{kind})"
    unknown = set(rl) - {"a", "b", "kind", "river", "downstream", "river_side", "note"}
    if unknown:
        _fail(where, f"unknown fields {sorted(unknown)}")
    for end in (a, b):
        if end not in boxes:
            _fail(where, f"unknown box id {end!r}")
    if a == b:
        _fail(where, "a line must join two different boxes")
    if kind not in KINDS:
        _fail(where, f"kind must be one of {KINDS}")
    river, downstream = rl.get("river"), rl.get("downstream")
    if kind == "river":
        if not isinstance(river, str) or not river:
            _fail(where, "a river line needs 'river' (its name)")
        if downstream not in (a, b):
            _fail(where, "downstream must be one of the line's two boxes")
    elif river is not None or downstream is not None:
        _fail(where, "only river lines may have 'river'/'downstream'")
    side = rl.get("river_side") or []
    if not isinstance(side, list) or not set(side) <= {a, b} or len(set(side)) != len(side):
        _fail(where, "river_side must be a list of the line's own box ids (0-2, no repeats)")
    return Line(
        id=f"{a}~{b}~{kind}", a=a, b=b, kind=kind,
        river=river if kind == "river" else None,
        downstream=downstream if kind == "river" else None,
        river_side=tuple(side), note=str(rl.get("note") or ""),
    )


def _check_connected(boxes: dict[str, Box], adjacent: dict[str, tuple[tuple[str, Line], ...]]) -> None:
    if not boxes:
        return
    start = next(iter(boxes))
    seen = {start}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        for nb, _ in adjacent[cur]:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    missing = sorted(set(boxes) - seen)
    if missing:
        raise ValueError(f"map.yaml: the map is not connected; unreachable from {start!r}: {missing}")


def _data_dir(version: int) -> Path:
    try:
        return DATA_VERSIONS[version][0]
    except (KeyError, TypeError):
        raise ValueError(f"unknown engine data version {version!r}; known: "
                         f"{', '.join(map(str, DATA_VERSIONS))}") from None


def scenario_ids(version: int = CURRENT_DATA_VERSION) -> tuple[str, ...]:
    _data_dir(version)
    return DATA_VERSIONS[version][1]


def _with_river_sides(raw_boxes: list, boxes: dict[str, Box], lines: list[Line]) -> dict[str, Box]:
    """The blue box sides (5.34). A map that states them on its boxes must agree with
    the lines that enter them; an older map that does not has them from its lines."""
    entered = {bid for ln in lines for bid in ln.river_side}
    stated = {rb["id"] for rb in raw_boxes if rb.get("river_side")}
    if any("river_side" in rb for rb in raw_boxes):
        if stated != entered:
            raise ValueError("map.yaml: boxes with a blue river side and the lines entering one "
                             f"disagree: {sorted(stated ^ entered)}")
    return {bid: dataclasses.replace(box, river_side=bid in entered) for bid, box in boxes.items()}


@functools.cache
def load_map(version: int = CURRENT_DATA_VERSION) -> Map:
    """The mapboard of an engine version, loaded from its map.yaml and validated
    (ValueError names the bad entry)."""
    with open(_data_dir(version) / "map.yaml", encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    return _build_map(raw)


# --------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------
def _validate_scenario(sid: str, sc: Any, m: Map) -> dict:
    def fail(msg: str) -> None:
        raise ValueError(f"scenario {sid}: {msg}")

    if not isinstance(sc, dict):
        fail("top level must be a mapping")
    for key in ("id", "name", "start", "last_turn", "units", "leaders", "control_markers", "printed_army_max"):
        if key not in sc:
            fail(f"missing {key!r}")
    if str(sc["id"]) != sid:
        fail(f"id {sc['id']!r} does not match the file name")
    sc["id"] = sid
    start = sc["start"]
    if not (isinstance(start, dict) and isinstance(start.get("year"), int) and isinstance(start.get("month"), int)):
        fail("start must be {year, month}")
    if not isinstance(sc["last_turn"], int) or not 1 <= sc["last_turn"] <= 45:
        fail("last_turn must be a game turn number (1-45)")
    for section in ("units", "leaders", "control_markers"):
        if not isinstance(sc[section], dict) or set(sc[section]) - set(SIDES):
            fail(f"{section} must map union/confederate to lists")
        for side in SIDES:
            sc[section].setdefault(side, [])
            if sc[section][side] is None:
                sc[section][side] = []
    for side in SIDES:
        for j, u in enumerate(sc["units"][side]):
            where = f"units.{side}[{j}]"
            if not isinstance(u, dict) or set(u) - {"box", "type", "count", "entrenched"}:
                fail(f"{where}: must be {{box, type, count, entrenched}}")
            if u.get("box") not in m.boxes:
                fail(f"{where}: unknown box {u.get('box')!r}")
            if u.get("type") not in UNIT_TYPES:
                fail(f"{where}: type must be one of {UNIT_TYPES}")
            if not isinstance(u.get("count"), int) or u["count"] < 1:
                fail(f"{where}: count must be a positive int")
            u.setdefault("entrenched", False)
            if not isinstance(u["entrenched"], bool):
                fail(f"{where}: entrenched must be a boolean")
        for j, ld in enumerate(sc["leaders"][side]):
            where = f"leaders.{side}[{j}]"
            if not isinstance(ld, dict) or set(ld) != {"name", "box", "value"}:
                fail(f"{where}: must be {{name, box, value}}")
            if ld["box"] not in m.boxes:
                fail(f"{where}: unknown box {ld['box']!r}")
        markers = sc["control_markers"][side]
        for bid in markers:
            if bid not in m.boxes:
                fail(f"control_markers.{side}: unknown box {bid!r}")
        if len(set(markers)) != len(markers):
            fail(f"control_markers.{side}: duplicate box")
    both = set(sc["control_markers"]["union"]) & set(sc["control_markers"]["confederate"])
    if both:
        fail(f"boxes with markers of both sides: {sorted(both)}")
    pam = sc["printed_army_max"]
    if not isinstance(pam, dict) or set(pam) != set(SIDES) or not all(isinstance(v, int) for v in pam.values()):
        fail("printed_army_max must be {union: int, confederate: int}")
    sc.setdefault("notes", "")
    return sc


@functools.cache
def _load_scenario(scenario_id: str, version: int) -> dict:
    with open(_data_dir(version) / "scenarios" / f"{scenario_id}.yaml", encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    return _validate_scenario(scenario_id, raw, load_map(version))


def load_scenario(scenario_id: str, version: int = CURRENT_DATA_VERSION) -> dict:
    """Parsed and validated scenario setup of an engine version (box ids checked
    against that version's map).

    Cached: the same dict is returned on every call, so callers must not mutate it
    (deep-copy first if they need to).
    """
    sid = str(scenario_id)
    known = scenario_ids(version)
    if sid not in known:
        raise KeyError(f"unknown scenario {scenario_id!r}; known: {', '.join(known)}")
    return _load_scenario(sid, version)
