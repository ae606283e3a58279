"""Putting pieces on the board: a scenario's setup (2.0, 11.5 - 11.7) or a position.

Pools and stocks are derived, never listed: Union Militia Infantry not on the map
are held back for the Drafts still to come (7.2) and the rest are in the
Recruitment Pool; Militia not on the map are in the pool; Veteran and Crack pieces
not on the map are in stock."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from . import calendar
from .data import SIDES, pieces
from .state import Unit

if TYPE_CHECKING:
    from .game import Game

_UNIT_ID = re.compile(r"^[UC]-(MI|VI|CI|MC|VC|CC)-\d\d$")
_SPEC = re.compile(r"^(MI|VI|CI|MC|VC|CC)([*-]*)$")


def place_scenario(g: Game) -> None:
    sc = g.scenario
    g.turn = g.first_turn
    for side in SIDES:
        for entry in sc["units"].get(side, []):
            for _ in range(entry.get("count", 1)):
                uid = _take(g, side, entry["type"], entry["box"])
                g.units[uid].ent = bool(entry.get("entrenched"))
        for box in sc["control_markers"].get(side, []):
            if g.map.boxes[box].color != side:
                g.control[box] = side
    _occupation_control(g)
    g._control_changed()
    g._place_scenario_leaders()                            # A8.2
    _fill_pools(g, draft_now=True)
    g._start_game_turn()


def _occupation_control(g: Game) -> None:
    """At a scenario start, occupied boxes belong to the occupier (8.0)."""
    for box, uids in g.at.items():
        if not uids:
            continue
        sides = {g.units[u].side for u in uids}
        if len(sides) != 1:
            continue
        side = sides.pop()
        if g.map.boxes[box].color != side:
            g.control[box] = side
            if all(g.units[u].is_cav for u in uids):
                g.cav_only.add(box)


def _take(g: Game, side: str, type_: str, box: str) -> str:
    uid = g._pick_off_map(side, type_, "stock")
    if uid is None:
        raise ValueError(f"the counter mix has no more {side} {type_} for {box} (Game Piece Inventory)")
    g._place(uid, box)
    return uid


def _fill_pools(g: Game, draft_now: bool, pool: dict[str, dict[str, int]] | None = None) -> None:
    """Move off-map Militia from stock to the draft reserve and the pool."""
    per = pieces()["drafts"]["per_draft"]
    later = [y for y in pieces()["drafts"]["years"]
             if calendar.turn_of(y, 4) > g.turn or (draft_now and calendar.turn_of(y, 4) == g.turn)]
    for side in SIDES:
        reserve = per * len(later) if side == "union" else 0
        for type_ in ("MI", "MC"):
            spare = sorted(g.pieces_at(side, type_, "stock"))
            if pool is not None:
                wanted = pool.get(side, {}).get(type_, 0)
                if wanted > len(spare):
                    raise ValueError(f"only {len(spare)} {side} {type_} are off the map, not {wanted}")
                for uid in spare[:wanted]:
                    g._place(uid, "pool")
                rest = spare[wanted:]
                if side == "union" and type_ == "MI":
                    for uid in rest:
                        g._place(uid, "draft")
                continue
            held = reserve if type_ == "MI" else 0
            if held > len(spare):
                raise ValueError(f"{side} has {len(spare)} spare Militia, fewer than the {held} held for drafts")
            for uid in spare[:len(spare) - held]:
                g._place(uid, "pool")
            for uid in spare[len(spare) - held:]:
                g._place(uid, "draft")


def place_position(g: Game, pos: dict[str, Any]) -> None:
    """Load a position (docs/rules-api.md): compact, or a full ``state()`` dict."""
    if isinstance(pos.get("units"), list):
        _load_state(g, pos)
        return
    g.turn = int(pos.get("turn", g.first_turn))
    for side in SIDES:
        for box, specs in pos.get("units", {}).get(side, {}).items():
            box = g.map.resolve(box)
            for spec in specs:
                _place_spec(g, side, box, spec)
        for box in pos.get("control", {}).get(side, []):
            g.control[g.map.resolve(box)] = side
    for box in pos.get("control", {}).get("neutral", []):
        g.control.pop(g.map.resolve(box), None)
    g.cav_only = {g.map.resolve(b) for b in pos.get("cav_only", [])}
    g._control_changed()
    g.ky_entered = bool(pos.get("ky_entered", False))
    _fill_pools(g, draft_now=False, pool=pos.get("pool"))
    g.side = pos.get("side", "union")
    for u in g.units.values():
        if u.loc in g.at and g.map.boxes[u.loc].fort and pos.get("forts_entrench", True):
            u.ent = True                                   # 4.3, as at a Player Turn start
    g.phase = pos.get("phase", "movement")
    g.washington_loss = int(pos.get("washington_loss", 0))
    g.border_raised = list(pos.get("border_raised", []))
    g.contained = sorted(g.map.resolve(b) for b in pos.get("contained", []))
    g.march_spent = bool(pos.get("march_spent", False))
    g.invaded_ports = sorted(g.map.resolve(b) for b in pos.get("invaded_ports", []))
    for lid, loc in pos.get("leaders", {}).items():
        if lid not in g.leaders:
            raise ValueError(f"no leader {lid!r} in this game (the A8.2 option places leaders)")
        g.leaders[lid] = g.map.resolve(loc) if loc not in ("waiting", "captured") else loc
    if pos.get("intervention"):
        g.intervention = True
        for uid in g.units:
            if g.units[uid].foreign and g.units[uid].loc == "abroad":
                g._place(uid, "europe")
    if g.phase not in ("marches_roll", "movement", "battle_choice", "promotion", "recruit_roll"):
        raise ValueError(f"a position cannot start in phase {g.phase!r}")
    g.marches = int(pos.get("marches", 2 if g.phase == "movement" else 0))
    g.invasion = bool(pos.get("invasion", False))
    g.promotions = int(pos.get("promotions", 1 if g.phase == "promotion" else 0))
    g.csa_losses = int(pos.get("csa_losses", 0))
    g._advance()                          # settle whatever needs no decision


def _place_spec(g: Game, side: str, box: str, spec: str) -> None:
    if _UNIT_ID.match(spec):
        uid, flags = spec, ""
    else:
        m = _SPEC.match(spec)
        if not m:
            raise ValueError(f"bad unit {spec!r}: use a type (MI VI CI MC VC CC) with * for "
                             "entrenched and - for reduced, or a unit id like U-VI-03")
        uid, flags = _take(g, side, m.group(1), box), m.group(2)
    if g.units[uid].side != side:
        raise ValueError(f"{uid} is not a {side} unit")
    if g.units[uid].loc != box:
        g._place(uid, box)
    g.units[uid].ent = "*" in flags
    g.units[uid].red = "-" in flags


def _load_state(g: Game, st: dict[str, Any]) -> None:
    for d in st["units"]:
        u = Unit.from_dict(d)
        g._place(u.id, "stock")            # from wherever the counter mix keeps it
        g._place(u.id, u.loc)
        loaded = g.units[u.id]
        for slot in Unit.__slots__:
            if slot != "loc":
                setattr(loaded, slot, getattr(u, slot))
        g._flag(loaded)                    # it may come with per-turn flags set
    g.turn, g.side, g.phase = st["turn"], st["side"], st["phase"]
    g.marches, g.invasion, g.active = st["marches"], st["invasion"], st["active"]
    g.march_units = list(st["march_units"])
    g.battle, g.recruit = st["battle"], st["recruit"]
    g.promotions = st["promotions"]
    g.control = dict(st["control"])
    g._control_changed()
    g.cav_only = set(st["cav_only"])
    g.ky_entered, g.csa_losses = st["ky_entered"], st["csa_losses"]
    g.result, g.rolls = st["result"], st["rolls"]
    g.supply_boxes = list(st.get("supply_boxes", []))
    g.washington_loss = st.get("washington_loss", 0)
    g.border_raised = list(st.get("border_raised", []))
    g.intervention = bool(st.get("intervention", False))
    g.leaders = dict(st.get("leaders", {}))
    g.leader_moves = dict(st.get("leader_moves", {}))
    g.sea_trips = [list(t) for t in st.get("sea_trips", [])]
    g.leader_resume = st.get("leader_resume")
    g.contained = list(st.get("contained", []))
    g.march_spent = bool(st.get("march_spent", False))
    g.invaded_ports = list(st.get("invaded_ports", []))
