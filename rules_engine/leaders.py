"""A8.2 Leaders: Lee, Grant and Sherman (Advanced Rules 8.2 - 8.2.3).

A leader is not a military unit: it never counts for stacking, supply, army size or
victory. It stands in a box (``self.leaders[id]``), or is "waiting" to arrive, or
"captured" until its owner's next Recruitment Segment. Moving alone costs no March (up
to two leader moves a turn, like cavalry, never jumping); it may also follow a unit that
sailed from its box. In battle its value gives pluses to friendly shots each round
(announced before firing), adds to the daily battlefield leadership (A7.0) and lowers
desertion rolls (8.2.3)."""
from __future__ import annotations

from typing import Any

from . import calendar
from .advanced import tables
from .core import GameCore
from .errors import because

LEADER_MOVES = 2


def leader_info(lid: str) -> dict:
    return tables()["leaders"][lid]


class LeaderRules(GameCore):
    # ------------------------------------------------------------------ setup and values
    def _init_leaders(self) -> None:
        self.leaders = {}
        self.leader_moves = {}
        self.sea_trips = []
        if "A8.2" in self.options:
            self.leaders = {lid: "waiting" for lid in tables()["leaders"]}

    def _place_scenario_leaders(self) -> None:
        if "A8.2" not in self.options:
            return
        for side in ("union", "confederate"):
            for entry in self.scenario["leaders"].get(side, []):
                lid = entry["name"].lower()
                self.leaders[lid] = entry["box"]

    def leader_value(self, lid: str) -> int:
        info = leader_info(lid)
        changed = self.turn >= calendar.turn_of(*info["change"])
        return info["after"] if changed else info["value"]

    def _leaders_in(self, box: str, side: str) -> list[str]:
        return [lid for lid, loc in sorted(self.leaders.items())
                if loc == box and leader_info(lid)["side"] == side]

    def _leader_total(self, box: str, side: str) -> int:
        return sum(self.leader_value(lid) for lid in self._leaders_in(box, side))

    # ------------------------------------------------------------------ arrival / return
    def _leaders_due(self, when: str) -> list[str]:
        """Leaders of the moving side to place now: arrivals at the start of the Player
        Turn (when="marches"), captured ones in the Recruitment Segment (8.2, 8.2.2)."""
        due = []
        for lid, loc in sorted(self.leaders.items()):
            info = leader_info(lid)
            if info["side"] != self.side:
                continue
            if loc == "waiting" and when == "marches" and self.turn >= calendar.turn_of(*info["arrives"]):
                due.append(lid)
            elif loc == "captured" and when == "recruitment":
                due.append(lid)
        return due

    def _leader_placements(self, when: str | None = None) -> list[dict[str, Any]]:
        due = self._leaders_due(when or self.leader_resume or "")
        if not due:
            return []
        boxes = [b for b in self.occupied_boxes() if self._leader_box_refusal(b) is None]
        return [{"type": "place_leader", "leader": due[0], "box": b} for b in boxes]

    def _leader_box_refusal(self, box: Any) -> str | None:
        """8.2: a leader arrives, or comes back, where friendly units stand and no enemy."""
        if not isinstance(box, str) or box not in self.at or not self._side_units(box, self.side):
            return because("A leader is placed in a box with friendly units (8.2).")
        if self._enemy_in(box, self.side):
            return because("A leader is not placed in a box containing enemy units (8.2).")
        return None

    def _why_place_leader(self, leader: Any, box: Any) -> str | None:
        due = self._leaders_due(self.leader_resume or "")
        if not due:
            return because("No leader is waiting to be placed (8.2).")
        if leader != due[0]:
            return because("Leaders are placed one at a time: {leader} first (8.2).", leader=due[0].capitalize())
        return self._leader_box_refusal(box)

    def _do_place_leader(self, leader: str, box: str) -> None:
        self.leaders[leader] = box
        self._note("leader_placed", leader=leader, box=box, value=self.leader_value(leader))

    # ------------------------------------------------------------------ movement
    def _leader_moves_legal(self) -> list[dict[str, Any]]:
        acts: list[dict[str, Any]] = []
        for lid, loc in sorted(self.leaders.items()):
            if self._leader_mover_refusal(lid) is not None:
                continue
            for path, by in self._leader_paths(loc):
                acts.append({"type": "move_leader", "leader": lid, "path": path, "by": by})
            for origin, dest in self.sea_trips:
                if self._leader_sea_refusal(loc, [origin, dest]) is None:
                    acts.append({"type": "move_leader", "leader": lid, "path": [dest], "by": ["sea"]})
        return acts

    def _leader_mover_refusal(self, leader: Any) -> str | None:
        """Why this leader may not move now, wherever to (8.2.1)."""
        if not isinstance(leader, str) or leader not in self.leaders:
            return because("There is no leader {leader}.", leader=repr(leader))
        if leader_info(leader)["side"] != self.side:
            return because("{leader} is not yours to move.", leader=leader.capitalize())
        if self.leaders[leader] not in self.at:
            return because("{leader} is not on the map.", leader=leader.capitalize())
        if self.leader_moves.get(leader, 0) >= LEADER_MOVES:
            return because("A leader moves at most twice a turn (8.2.1).")
        return None

    def _leader_sea_refusal(self, loc: str, trip: list[str]) -> str | None:
        """8.2.1: a leader sails from ``loc`` with a piece that sailed or invaded from
        there this turn (``trip`` = [from, to] of one of this turn's sea moves)."""
        if trip[0] != loc or trip not in self.sea_trips:
            return because("A leader moves by sea only with a piece that sailed or invaded from its box this turn "
                           "(8.2.1).")
        if not self._leader_may_land(trip[1]):
            return because("A leader sailing with a piece lands among enemy units only where friendly pieces are "
                           "(8.2.1).")
        return None

    def _leader_may_land(self, dest: str) -> bool:
        """8.2.1: a leader "may naval move, invade ... with any piece" of its box. From
        engine version 2 that includes an invasion of a defended port (ruling R44):
        like any leader move it may end among enemy units where friendly pieces are.
        Version 1 let it sail only into a port free of enemy units."""
        if self.rules_since(2):
            return not self._enemy_in(dest, self.side) or bool(self._side_units(dest, self.side))
        return not self._enemy_in(dest, self.side)

    def _why_move_leader(self, leader: Any, path: Any, by: Any) -> str | None:
        refusal = self._leader_mover_refusal(leader)
        if refusal:
            return refusal
        loc = self.leaders[leader]
        if by == ["sea"]:
            if not isinstance(path, list) or len(path) != 1:
                return because('A leader at sea names its landing port as "path": [port] (8.2.1).')
            return self._leader_sea_refusal(loc, [loc, path[0]])
        if (path, by) in self._leader_paths(loc):
            return None
        return because("A leader moves like Cavalry, up to two boxes and two moves a turn, never "
                       "jumping or passing an enemy box, and enters one only where friendly "
                       "pieces are (8.2.1).")

    def _leader_paths(self, start: str) -> list[tuple[list[str], list[str]]]:
        """Like a cavalry March (two boxes by road/rail, or by river), never through an
        enemy box and into one only where friendly units stand."""
        side = self.side
        out = []
        for nxt, line in self.map.neighbours(start):
            if not self._line_usable(side, line) or not self._may_enter(side, nxt):
                continue
            if self._enemy_in(nxt, side):
                if self._side_units(nxt, side):
                    out.append(([nxt], [line.kind]))
                continue
            out.append(([nxt], [line.kind]))
            for nxt2, line2 in self.map.neighbours(nxt):
                if nxt2 == start or not self._line_usable(side, line2) or not self._may_enter(side, nxt2):
                    continue
                if (line.kind == "river") != (line2.kind == "river"):
                    continue
                if self._enemy_in(nxt2, side) and not self._side_units(nxt2, side):
                    continue
                out.append(([nxt, nxt2], [line.kind, line2.kind]))
        return out

    def _do_move_leader(self, leader: str, path: list[str], by: list[str]) -> None:
        self.leader_moves[leader] = self.leader_moves.get(leader, 0) + 1
        self.leaders[leader] = path[-1]

    def _catch_lone_leaders(self) -> None:
        """8.2.2: a leader alone with enemy pieces is not destroyed; it comes back in
        its owner's next Recruitment Segment."""
        for lid, loc in sorted(self.leaders.items()):
            side = leader_info(lid)["side"]
            if loc in self.at and self._enemy_in(loc, side) and not self._side_units(loc, side):
                self.leaders[lid] = "captured"
                self._note("leader_caught", leader=lid, box=loc)

    # ------------------------------------------------------------------ battle
    def _leaders_follow(self, frm: str, to: str, side: str) -> None:
        """Leaders go with their army when it retreats or withdraws (8.2.1)."""
        for lid in self._leaders_in(frm, side):
            self.leaders[lid] = to

    def _bonus_legal(self) -> list[dict[str, Any]]:
        b = self._current_battle
        return ([{"type": "leader_bonus", "unit": uid} for uid in b["units"][b["firing"]]
                 if self._why_leader_bonus(uid) is None]
                + [{"type": "bonus_done"}])

    def _why_leader_bonus(self, unit: Any) -> str | None:
        """8.2.2: each leader gives as many +1s as its value, spread over at most as
        many units as its spread."""
        b = self._current_battle
        side = b["firing"]
        lids = self._leaders_in(b["box"], side)
        given = b.get("bonus", {})
        if sum(given.values()) >= sum(self.leader_value(lid) for lid in lids):
            return because("Your leaders have given all their pluses this round (8.2.2).")
        if unit not in b["units"][side]:
            return because("{unit} is not one of your units in this battle.", unit=unit)
        spread = sum(leader_info(lid)["spread"] for lid in lids)
        if unit not in given and len(given) >= spread:
            return because("Your leaders' pluses go to at most {n} units (8.2.2).", n=spread)
        return None

    def _why_reinforce_leader(self, leader: Any) -> str | None:
        """The leaders _prepare_legal offers: the firing side's, in adjacent boxes."""
        if leader in self._leader_reinforcements(self._current_battle["firing"]):
            return None
        return because("A leader reinforces a battle from an adjacent box, from the second round (8.2.1).")

    def _do_leader_bonus(self, unit: str) -> None:
        bonus = self._current_battle.setdefault("bonus", {})
        bonus[unit] = bonus.get(unit, 0) + 1

    def _do_bonus_done(self) -> None:
        self._current_battle["step"] = "target"

    def _bonus_step_needed(self) -> bool:
        b = self._current_battle
        return "A8.2" in self.options and bool(self._leaders_in(b["box"], b["firing"]))

    def _leader_reinforcements(self, side: str) -> list[str]:
        b = self._current_battle
        return [lid for n in self._adjacent(b["box"], side) for lid in self._leaders_in(n, side)]

    def _do_reinforce_leader(self, leader: str) -> None:
        self.leaders[leader] = self._current_battle["box"]
        side = leader_info(leader)["side"]
        self._current_battle["leaders"].setdefault(side, []).append(leader)
        self._note("leader_reinforces", leader=leader, box=self._current_battle["box"])
        if self.rules_since(2):
            self._leader_joins_the_day(leader, side)

    def _leader_joins_the_day(self, leader: str, side: str) -> None:
        """8.2.2: "leaders who reinforce a battle may add their effects immediately upon
        their arrival", so with A7.0 the value joins this day's battlefield leadership
        at once (ruling R44; the track still ends at eight)."""
        lead = self._current_battle.get("leadership")
        if lead is None:
            return                                   # no A7.0: only the pluses, as ever
        lead[side] = min(lead[side] + self.leader_value(leader), tables()["max_firing_units"])
        self._note("battle_leadership", box=self._current_battle["box"], side=side, leadership=lead[side])
