"""The battle board's odds: each shooter's to-hit number against each enemy unit, shown
before targets are chosen, is the number the die is then rolled against."""
from __future__ import annotations

import httpx

from .helpers import Player, events, new_match


def _do(p: Player, gid: str, pick) -> None:
    acts = [a for a in p.legal(gid)["actions"] if pick(a)]
    assert acts, p.legal(gid)["actions"]
    r = p.act(gid, acts[0])
    assert r.status_code == 200, r.text


def union_attacks_manassas(base: str) -> tuple[Player, Player, str]:
    """A started 1861 game in which the Union has marched on Manassas Junction: a battle."""
    a, b, gid = new_match(base)
    _do(a, gid, lambda x: x == {"type": "activate", "box": "washington"})
    _do(a, gid, lambda x: x["type"] == "move" and x["path"][-1] == "manassas_junction")
    _do(a, gid, lambda x: x["type"] == "end_march")
    _do(a, gid, lambda x: x["type"] == "end_movement")
    _do(a, gid, lambda x: x["type"] == "fight")
    return a, b, gid


def test_to_hit_numbers_before_targets_are_chosen(server):
    url = f"{server.base}/api/games/{{}}/battle"
    a, b, gid = new_match(server.base)
    assert httpx.get(url.format(gid)).json() == {"seq": a.game(gid)["seq"], "battle": None, "to_hit": {}}
    assert httpx.get(url.format("nosuchgame")).status_code == 404
    a, b, gid = union_attacks_manassas(server.base)
    seats = {"union": a, "confederate": b}
    for _ in range(20):   # through withdraw / prepare / bonus steps to the choice of targets
        g = a.game(gid)
        battle = g["state"]["battle"]
        if battle and battle["step"] == "target":
            break
        p = seats[g["to_act"]]
        acts = p.legal(gid)["actions"]
        pick = next((x for x in acts if x["type"] in ("stand", "open_fire", "bonus_done")), acts[0])
        assert p.act(gid, pick).status_code == 200
    odds = httpx.get(url.format(gid)).json()   # anyone may look, like at the board itself
    assert odds["battle"]["box"] == "manassas_junction" and odds["battle"]["step"] == "target"
    firing = odds["battle"]["firing"]
    shooters = battle["units"][firing]
    enemies = battle["units"]["union" if firing == "confederate" else "confederate"]
    assert set(odds["to_hit"]) == set(shooters)
    assert all(set(row) == set(enemies) and all(1 <= n <= 6 for n in row.values()) for row in odds["to_hit"].values())
    # assign every target, then the dice are rolled against exactly those numbers
    before = a.game(gid)["seq"]
    shooter_side = seats[firing]
    def choosing(b):   # the same side still assigning targets (the volley fires once all are)
        return b and b["step"] == "target" and b["firing"] == firing and len(b["targets"]) < len(b["units"][firing])
    while choosing(a.game(gid)["state"]["battle"]):
        _do(shooter_side, gid, lambda x: x["type"] == "target")
    rolls = [e["data"] for e in events(server.base, gid, before) if e["type"] == "roll"
             and e["data"]["purpose"] == "fire" and e["data"]["side"] == firing]
    assert rolls
    for r in rolls:
        assert r["need"] == odds["to_hit"][r["unit"]][r["target"]], r
