"""Advanced Game rules, each switched on by its option id (Advanced Rules booklet):

  A2.0 Supply              stacks must trace supply at the start of each Player Turn
  A3.0 Movement & Command  Marches come from the Command Table
  A6.0 Capture of Washington   a die off the Union Army Maximum instead of defeat
  A7.0 Battles & Command Table battle days and battlefield leadership
  A8.3 Border State support    Border Militia for the Confederacy
"""
from __future__ import annotations

import functools
from typing import Any

from . import calendar
from .data import _yaml, unit_type
from .errors import because
from .core import GameCore
from .state import ABROAD, COAST, EUROPE, OFF_MAP, Unit

CAPITAL = "washington"
#: From this engine version a unit that deserts after a battle is no longer among the
#: winner's units offered a promotion (ruling R51); older games keep the old offer.
DESERTERS_LEAVE_THE_BATTLE_SINCE = 4


@functools.cache
def tables() -> dict:
    return _yaml("advanced.yaml")


def command_value(year: int, die: int, side: str) -> int:
    """The Command Table: the number for this side, year and die."""
    year = min(max(year, 1861), 1865)
    return tables()["command_table"][year][die][0 if side == "union" else 1]


class AdvancedRules(GameCore):
    def _make_garrisons(self) -> list[str]:
        """A5.0: one coastal defence garrison per port with a red shield, off the map."""
        if "A5.0" not in self.options:
            return []
        out = []
        for b, box in self.map.boxes.items():
            if box.port and box.shields.get("confederate"):
                self.units[f"C-CD-{b}"] = Unit(f"C-CD-{b}", "confederate", "CD", COAST)
                out.append(f"C-CD-{b}")
        return out

    # ------------------------------------------------------------------ turn start
    def _start_turn_steps(self) -> None:
        """What happens at the start of a Player Turn before movement."""
        if "A2.0" in self.options:
            boxes = self._unsupplied_boxes(self.side)
            if boxes:
                self.supply_boxes = boxes
                self.phase = "supply"
                return
        self._after_supply()

    def _after_supply(self) -> None:
        self.supply_boxes = []
        if "A8.3" in self.options and self.side == "confederate":
            self._border_state_support()
        if "A8.4" in self.options and self.side == "confederate":
            self._foreign_intervention_check()
        if self.leaders and self._leader_placements("marches"):
            self.leader_resume, self.phase = "marches", "leaders"          # A8.2 arrivals
            return
        self._start_marches()

    def _start_marches(self) -> None:
        if self.turn == self.first_turn:
            self.marches, self.invasion = 2, False                   # 4.1, 11.2
            self.phase = "movement"
        else:
            self.phase = "marches_roll"

    # ------------------------------------------------------------------ A2.0 supply
    def _supplied_boxes(self, side: str) -> set[str]:
        """A2.1: boxes joined, through friendly boxes along friendly railroads and
        rivers, to two or more friendly Recruitment Cities (so each city reaches another
        one), or for the Union to a friendly port."""
        friendly = {b for b in self.map.boxes if self.controller(b) == side}
        seen: set[str] = set()
        supplied: set[str] = set()
        for start in sorted(friendly):
            if start in seen:
                continue
            component, todo = {start}, [start]
            while todo:
                box = todo.pop()
                for nxt, line in self.map.neighbours(box):
                    if (nxt in friendly and nxt not in component and line.kind in ("rail", "river")
                            and self._line_usable(side, line)):
                        component.add(nxt)
                        todo.append(nxt)
            seen |= component
            cities = sum(1 for b in component if b in self._cities)
            port = side == "union" and any(self.map.boxes[b].port for b in component)
            if cities >= 2 or port:
                supplied |= component
        return supplied

    def _unsupplied_boxes(self, side: str) -> list[str]:
        """Boxes where two or more of the side's pieces cannot trace supply (A2.0)."""
        supplied = None
        out = []
        for box in self.occupied_boxes():
            mine = self._side_units(box, side)
            if len(mine) < 2:
                continue                           # a piece alone is always in supply
            if side == "union" and self.map.boxes[box].port:
                continue                           # Union pieces in ports are in supply
            if supplied is None:
                supplied = self._supplied_boxes(side)
            if box not in supplied:
                out.append(box)
        return out

    def _supply_legal(self) -> list[dict[str, Any]]:
        box = self.supply_boxes[0]
        return [{"type": "supply_loss", "unit": u.id} for u in self._side_units(box, self.side)]

    def _do_supply_loss(self, unit: str) -> None:
        """A2.2: out of supply, the owner eliminates one piece of his choice there."""
        box = self.supply_boxes.pop(0)
        self._note("out_of_supply", box=box, unit=unit)
        self._eliminate(unit)
        if not self.supply_boxes:
            self._after_supply()

    def _why_supply_loss(self, unit: Any) -> str | None:
        """The pieces _supply_legal offers: the moving side's in the first box listed."""
        box = self.supply_boxes[0]
        u = self.units.get(unit) if isinstance(unit, str) else None
        if u is not None and u.side == self.side and u.loc == box:
            return None
        return because("{box} is out of supply: eliminate one of your pieces there (A2.2).",
                       box=self.map.boxes[box].name)

    # ------------------------------------------------------------------ A3.0 command
    def _marches_from_die(self, value: int) -> int:
        if "A3.0" in self.options:
            return command_value(calendar.year(self.turn), value, self.side)   # A3.0
        return 2 if value == 1 else value                                   # 4.0: a 1 gives 2

    # ------------------------------------------------------------------ A6.0 Washington
    def _capital_captured(self) -> None:
        """A6.0: a die (a 1 counts 2) comes off the Union Army Maximum for good."""
        value = self._roll("washington", side="confederate")
        loss = 2 if value == 1 else value
        self.washington_loss += loss
        self._control_changed()
        self._note("washington_captured", loss=loss, total=self.washington_loss)

    # ------------------------------------------------------------------ A7.0 leadership
    def _new_battle_day(self) -> None:
        """A7.0: each side rolls on the Command Table at the start of each battle day;
        from the second day add half (rounded up) of the day before."""
        b = self._current_battle
        year = calendar.year(self.turn)
        previous = b.get("leadership") or {}
        lead = {}
        for side in (b["defender"], b["attacker"]):
            value = self._roll("leadership", side=side, day=b["day"])
            carried = -(-previous.get(side, 0) // 2)                 # half, rounded up
            leaders = self._leader_total(b["box"], side)              # 8.2.2
            lead[side] = min(command_value(year, value, side) + carried + leaders,
                             tables()["max_firing_units"])           # the track ends at 8
        b["leadership"] = lead
        self._note("battle_day", box=b["box"], day=b["day"], leadership=dict(lead))

    def _shots_allowed(self, side: str) -> int:
        b = self._current_battle
        count = len(b["units"][side])
        if "A7.0" not in self.options:
            return count
        return min(count, b["leadership"][side], tables()["max_firing_units"])

    # ------------------------------------------------------------------ A4.0 containment
    def _containable(self, box: str) -> bool:
        """A4.0: ports the Union took by naval invasion, plus Fort Monroe and Pensacola,
        while the Union holds them."""
        return ("A4.0" in self.options and self.controller(box) == "union"
                and (box in self.invaded_ports or box in ("fort_monroe", "pensacola")))

    def _do_contain(self, box: str) -> None:
        self.contained.append(box)
        self.contained.sort()
        self._note("contained", box=box)

    def _do_end_combat(self) -> None:
        self._end_combat_segment()

    def _breakout_legal(self) -> list[dict[str, Any]]:
        """A4.0: contained Union units must beat the garrison before they move; the
        battle costs a March."""
        return [{"type": "breakout", "box": b} for b in self.contained
                if self._why_breakout(b) is None]

    def _why_breakout(self, box: Any) -> str | None:
        """Why no break-out battle may be fought in ``box`` now; None if it may."""
        if self.side != "union" or box not in self.contained:
            return because("Only Union units contained in a port break out, in the Union "
                           "Movement Segment (A4.0).")
        if self.marches < 1:
            return because("The break-out battle consumes a March, and you have none left (A4.0).")
        if self.rules_since(2) and self.march_spent:
            return because("The break-out battle occurs at the beginning of the Movement Segment, "
                           "before any other March (A4.0).")
        if not any(u.m < 2 for u in self._side_units(box, "union")):
            return because("No unit may take part in more than two Marches in a turn (4.0).")
        return None

    def _sails_from_containment(self, u: Unit) -> bool:
        """A4.0: "before Union pieces may move out of a port where they are being
        contained, they must fight and defeat the Confederate containing garrison", by
        sea as well (from engine version 2, ruling R43)."""
        contained = self.contained            # empty but with A4.0: asked first
        return bool(contained) and u.loc in contained and u.side == "union" and self.rules_since(2)

    def _do_breakout(self, box: str) -> None:
        self.active, self.march_units = None, []
        self.marches -= 1                     # not _spend_march: more break-outs may follow
        self._do_fight(box)
        if self.battle is not None:
            self.battle["breakout"] = True

    def _note_invaded_ports(self, captured: list[str]) -> None:
        """Remember ports the Union captured with invading units (A4.0)."""
        for box in captured:
            if self.map.boxes[box].port and any(
                    u.frm == "sea" and u.river for u in self._side_units(box, "union")):
                if box not in self.invaded_ports:
                    self.invaded_ports.append(box)
                    self.invaded_ports.sort()

    # ------------------------------------------------------------------ A8.1 morale
    def morale_value(self, u: Unit) -> int:
        """Morale Table: Crack 5, Veteran 4, Militia 3 (2 in 1861)."""
        quality = unit_type(u.type)["quality"]
        if quality == "militia":
            return 2 if calendar.year(self.turn) == 1861 else 3
        return {"veteran": 4, "crack": 5}[quality]

    def _morale_checks(self, side: str) -> None:
        """A8.1: pieces the enemy just reduced check morale; above their value they rout."""
        b = self._current_battle
        for uid in b.get("fresh", []):
            u = self.units[uid]
            if uid not in b["units"][side] or u.type == "CD":
                continue                                        # eliminated meanwhile
            shelter = 1 if (u.ent or self.map.boxes[u.loc].fort) else 0
            value = self._roll("morale", side=side, unit=uid, morale=self.morale_value(u),
                               modifier=-shelter)
            if value - shelter > self.morale_value(u):
                b["units"][side].remove(uid)
                b.setdefault("routed", {}).setdefault(side, []).append(uid)
                b.setdefault("ever_routed", []).append(uid)
                self._note("routed", unit=uid)

    def _day_end_rally(self) -> None:
        """A8.11: after each fourth round each side may recover one routed unit."""
        b = self._current_battle
        queue = [s for s in (b["defender"], b["attacker"]) if b.get("routed", {}).get(s)]
        if queue:
            b["rally_queue"] = queue[1:]
            b["rallying"] = queue[0]
            b["resume_step"] = b["step"]
            b["step"] = "rally"

    def _do_rally(self, unit: str) -> None:
        b = self._current_battle
        b["routed"][b["rallying"]].remove(unit)
        b["units"][b["rallying"]].append(unit)                 # it returns reduced
        self._note("rallied", unit=unit)
        self._next_rally()

    def _do_no_rally(self) -> None:
        self._next_rally()

    def _next_rally(self) -> None:
        b = self._current_battle
        if b["rally_queue"]:
            b["rallying"] = b["rally_queue"].pop(0)
            return
        b["step"] = b.pop("resume_step")
        b.pop("rallying", None)
        b.pop("rally_queue", None)

    def _desertion_checks(self) -> None:
        """A8.12: after a battle every reduced participant rolls; above its morale value
        (+1 for the losing army, -1 if it did not rout) it deserts."""
        b = self._current_battle
        for uid in sorted(set(b["participants"])):
            u = self.units[uid]
            if u.loc in OFF_MAP or not u.red or u.type == "CD":
                continue
            mod = (1 if u.side != b["winner"] else 0) - (0 if uid in b.get("ever_routed", []) else 1)
            mod -= sum(self.leader_value(lid) for lid in b.get("leaders", {}).get(u.side, []))  # 8.2.3
            value = self._roll("desertion", side=u.side, unit=uid, morale=self.morale_value(u),
                               modifier=mod)
            if value + mod > self.morale_value(u):
                self._note("deserted", unit=uid)
                if self.rules_since(DESERTERS_LEAVE_THE_BATTLE_SINCE) and uid in b["units"][u.side]:
                    b["units"][u.side].remove(uid)    # not a survivor to promote (6.0, R51)
                self._eliminate(uid)

    # ------------------------------------------------------------------ A8.4 intervention
    def _make_foreign_units(self) -> None:
        if "A8.4" in self.options:
            for uid, type_ in tables()["foreign_units"].items():
                self.units[uid] = Unit(uid, "confederate", type_, ABROAD)   # until intervention

    def _foreign_intervention_check(self) -> None:
        """A8.4: all three conditions at the start of a Confederate Player Turn."""
        if self.intervention:
            return
        us, cs = self.army_maximum("union"), self.army_maximum("confederate")
        held = [b for b, v in self._shields["union"] if v >= 2 and self.controller(b) == "confederate"]
        lost = [b for b, v in self._shields["confederate"] if v >= 2 and self.controller(b) == "union"]
        if us - cs > 3 or self.controller(CAPITAL) != "confederate" or not held:
            return
        if lost and len(held) < len(lost) + 1:        # ruling R37: "another" city each
            return
        self.intervention = True
        for uid in tables()["foreign_units"]:
            self._place(uid, "europe")
        self._note("foreign_intervention")

    def _foreign_sea_actions(self) -> list[dict[str, Any]]:
        """A8.4: Confederate naval movement (no invasions, jumps or Potomac), including
        bringing the foreign units over from Europe; one March each."""
        ports = [p for p in self._ports if self.controller(p) == "confederate"]
        sailing = [uid for uid in tables()["foreign_units"] if self.units[uid].loc == EUROPE]
        sailing += [uid for port in ports for uid in self.at[port] if self.units[uid].side == "confederate"]
        return [{"type": "sea_move", "unit": uid, "to": p} for uid in sailing for p in ports
                if self._foreign_sea_refusal(uid, p) is None]

    def _foreign_sea_refusal(self, unit: Any, to: Any) -> str | None:
        """Why this Confederate piece may not sail to ``to`` now (A8.4); None if it may."""
        u = self.units.get(unit) if isinstance(unit, str) else None
        if u is None or u.side != "confederate":
            return because("{unit} is not one of your units.", unit=unit)
        if u.loc != EUROPE:
            if u.loc not in self.at or not self.map.boxes[u.loc].port or self.controller(u.loc) != "confederate":
                return because("Confederate naval movement goes from a Confederate-controlled port, or from Europe "
                               "(A8.4).")
            if u.moved or u.m:
                return because("A unit moving by sea must not have moved or marched this segment (4.6).")
        if not self._is_port(to) or to == u.loc:
            return because("Units move by sea only to another Port box (4.6).")
        if self.controller(to) != "confederate":
            return because("Confederate naval movement goes only to a Confederate-controlled port (A8.4).")
        return None

    def _foreign_replacement(self, die: int) -> None:
        """A8.4: a recruitment roll of 5 or 6 sends one lost foreign unit back to Europe."""
        if die < 5:
            return
        for uid in tables()["foreign_units"]:
            if self.units[uid].loc == "foreign_lost":
                self._place(uid, "europe")
                self._note("foreign_replaced", unit=uid)
                return

    # ------------------------------------------------------------------ A8.3 border states
    def _border_state_support(self) -> None:
        """A8.3: holding every Recruitment City of a border state, the Confederate rolls
        for its Border Militia (once per state per game)."""
        for state, info in tables()["border_states"].items():
            if state in self.border_raised:
                continue
            if not all(self.controller(c) == "confederate" for c in info["cities"]):
                continue
            modifier = self._border_modifier()
            value = self._roll("border_support", side="confederate", state=state, modifier=modifier)
            if value + modifier > info["support"]:
                self.border_raised.append(state)
                self._place(info["unit"], "pool")
                self._note("border_militia", state=state, unit=info["unit"])

    def _border_modifier(self) -> int:
        us, cs = self.army_maximum("union"), self.army_maximum("confederate")
        year = calendar.year(self.turn)
        mod = 0
        mod += 1 if us - cs <= 5 else 0
        mod += 1 if year == 1861 else 0
        mod += 2 if self.controller(CAPITAL) == "confederate" else 0
        mod -= max(0, year - 1862)
        mod -= 1 if us - cs > 10 else 0
        mod -= 1 if self.controller("richmond") == "union" else 0
        return mod
