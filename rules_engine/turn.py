"""Turn flow (3.0), promotions (6.0), recruitment (7.0 - 7.5), control (8.0),
game length (9.0) and victory (10.0)."""
from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

from . import calendar
from .core import GameCore
from .data import other, pieces, unit_type
from .errors import Word, because
from .state import Unit

# 11.3: Army Maximum difference (Union minus Confederate) at the end of 03 (March):
# the lowest difference that reaches each level, best for the Union first.
MARCH_LEVELS = {1862: 5, 1863: 9, 1864: 13}
LEVELS = (("union", "Union Decisive"), ("union", "Union Marginal"), ("union", "Union Pyrrhic"),
          (None, "Draw (Historical)"), ("confederate", "Confederate Pyrrhic"),
          ("confederate", "Confederate Marginal"), ("confederate", "Confederate Decisive"))


def march_level(year: int, diff: int) -> tuple[str | None, str]:
    """11.3 table: e.g. 1862: 11+ Union Decisive ... 8 Draw ... 5 or less Confederate Decisive."""
    draw = MARCH_LEVELS[year] + 3
    index = min(max(draw - diff + 3, 0), 6)
    return LEVELS[index]


CAPITAL = "washington"
_reduced = attrgetter("red")


class TurnRules(GameCore):
    # ------------------------------------------------------------------ dispatch
    def _phase_legal(self) -> list[dict[str, Any]]:
        phase = self.phase
        if phase == "marches_roll":
            return [{"type": "roll_marches"}]
        if phase == "movement":
            return self._movement_legal()
        if phase == "battle_choice":
            return self._battle_choice_legal()
        if phase == "battle":
            return self._battle_legal()
        if phase == "promotion":
            return ([{"type": "promote", "unit": u} for u in self._segment_promotable()]
                    + [{"type": "no_promotion"}])
        if phase == "recruit_roll":
            return [{"type": "roll_recruits"}]
        if phase == "recruitment":
            return self._recruitment_legal() + [{"type": "end_recruitment"}]
        if phase == "replacement_roll":
            return [{"type": "roll_replacements"}]
        if phase == "supply":
            return self._supply_legal()
        if phase == "leaders":
            return self._leader_placements()
        return []

    def _advance(self) -> None:
        """Carry out everything that needs no decision, until someone must decide."""
        while self.result is None:
            if self._reverted:
                self._reverted = False
                self._judge_reverted_control()
                continue
            if self.phase == "movement" and self._movement_auto():
                continue
            if self.phase == "battle_choice" and not self._battle_choice_legal():
                self._end_combat_segment()
                continue
            if self.phase == "promotion" and not self._any_segment_promotable():
                self._end_promotion_segment()
                continue
            if self.phase == "leaders" and not self._leader_placements():
                self._leaders_placed()
                continue
            if self.phase == "recruitment" and not self._can_recruit():
                self._end_player_turn()
                continue
            return

    # ------------------------------------------------------------------ turns
    @property
    def first_turn(self) -> int:
        start = self.scenario["start"]
        return calendar.turn_of(start["year"], start["month"])

    @property
    def last_turn(self) -> int:
        if "9.1" in self.options and self.scenario["last_turn"] == 40:
            return 45                                                    # 9.1
        return self.scenario["last_turn"]

    def _start_game_turn(self) -> None:
        self._draft()
        self.csa_losses = 0
        self._start_player_turn("union")

    def _start_player_turn(self, side: str) -> None:
        self.side = side
        units, at = self.units, self.at
        off_map = set()
        for uid in self._flagged:
            u = units[uid]
            if u.loc in at:
                u.clear_turn_flags()
                self._touch(u)
            else:
                off_map.add(uid)                # cleared once back on the map, as ever
        self._flagged = off_map
        for box in self._forts & self._occupied:
            for uid in at[box]:
                units[uid].ent = True                                # 4.3 permanent entrenchment
                self._touch(units[uid])
        for gid in self._garrisons:
            units[gid].fought = False                                # A5.0 garrisons
            self._touch(units[gid])
        self.leader_moves, self.sea_trips = {}, []                   # A8.2
        self.march_spent = False                                     # A4.0
        self._note("player_turn", turn=self.turn, date=calendar.label(self.turn), side=side)
        self._start_turn_steps()

    def _leaders_placed(self) -> None:
        resume, self.leader_resume = self.leader_resume, None
        if resume == "recruitment":
            self.phase = "recruitment"
        else:
            self._start_marches()

    def _end_player_turn(self) -> None:
        self.recruit = None
        if "10.1" in self.options and self.side == "union":
            if self._check_confederate_victory():
                return
        if self.side == "union":
            self._start_player_turn("confederate")
            return
        if self._march_ending():
            return
        if self.turn >= self.last_turn:
            self._end_of_game()
            return
        self.turn += 1
        self._start_game_turn()

    def _march_ending(self) -> bool:
        """11.3: the agreed 03 (March) ending, or a sudden-death check each March."""
        year = calendar.year(self.turn)
        if calendar.months(self.turn) != "03" or year not in MARCH_LEVELS:
            return False
        diff = self.army_maximum("union") - self.army_maximum("confederate")
        winner, level = march_level(year, diff)
        if f"11.3:{year}" in self.options:
            self._win(winner, f"{level}: Army Maximum difference {diff:+d} in 03/{year} (11.3).", level)
            return True
        if "11.3:sudden-death" in self.options and "Decisive" in level:
            self._win(winner, f"Sudden death, {level}: Army Maximum difference {diff:+d} in 03/{year} (11.3).", level)
            return True
        return False

    def _draft(self) -> None:
        """7.2 Union Army Drafts (7.3 spreads the 1863 one over four months)."""
        year, months = calendar.year(self.turn), calendar.months(self.turn)
        if year not in pieces()["drafts"]["years"]:
            return
        if "7.3" in self.options and year == 1863:
            count = 1 if months in ("04", "05", "06", "07") else 0
        else:
            count = pieces()["drafts"]["per_draft"] if months == "04" else 0
        for _ in range(count):
            uid = self._pick_off_map("union", "MI", "draft")
            if uid is None:
                break
            self._place(uid, "pool")
            self._note("drafted", unit=uid)

    # ------------------------------------------------------------------ control
    def _end_combat_segment(self) -> None:
        if "5.71" not in self.options:                               # 5.71: no automatic recovery
            for u in filter(_reduced, self.units.values()):          # picked out in C
                u.red = False                                        # 5.7 recovery
                self._touch(u)
        captured = self._capture(self.side)
        if "A4.0" in self.options and self.side == "union":
            self._note_invaded_ports(captured)
        if "A6.0" in self.options and CAPITAL in captured and self.side == "confederate":
            self._capital_captured()                                  # A6.0
        self.phase = "promotion"
        self.promotions = 1
        if "6.2" in self.options and self.side == "confederate" and self._any_segment_promotable():
            self.phase = "replacement_roll"                         # 6.2
        if "10.1" not in self.options and self._check_confederate_victory():
            return
        self._check_union_victory()

    def _do_roll_replacements(self) -> None:
        """6.2: on 1 or less, less one per Veteran/Crack lost in battle this Game Turn,
        the Confederate promotes two units."""
        value = self._roll("replacements", losses=self.csa_losses)
        if value - self.csa_losses <= 1:
            self.promotions = 2
        self.phase = "promotion"

    def _capture(self, side: str) -> list[str]:
        """8.0: a box with a unit of the side at the end of its Combat Segment is its."""
        units, enemy = self.units, self._held[other(side)]
        own_colour = self._colour_boxes[side]
        captured = []
        for box in self._held_sorted(side):
            if box in enemy:
                continue                       # a box shared with the enemy (A4.0) stays as it was
            if box in own_colour and box not in self.control and box not in self.cav_only:
                continue                       # held all along: nothing to change or tell
            color = self.map.boxes[box].color
            was = self.controller(box)
            if color == side:
                self.control.pop(box, None)
                self.cav_only.discard(box)
            else:
                self.control[box] = side
                if all(units[u].is_cav for u in self.at[box]):
                    if was != side or box in self.cav_only:
                        self.cav_only.add(box)
                else:
                    self.cav_only.discard(box)
            if was != side:
                self._control_changed()
                captured.append(box)
                self._note("captured", box=box, side=side)
        return captured

    # ------------------------------------------------------------------ victory
    def _win(self, winner: str | None, reason: str, level: str | None = None) -> None:
        self.result = {"winner": winner, "reason": reason}
        if level:
            self.result["level"] = level
        self.phase = "over"
        self.battle = None
        self._note("game_over", winner=winner, reason=reason)

    def _judge_reverted_control(self) -> None:
        """8.0, 10.0 (ruling R45): cavalry alone hold a box only while there; the instant
        they leave it reverts, a change of control like a capture, and a victory
        condition it fulfils "stops play immediately" (10.0), not at the end of the
        Combat Segment. With 10.1 the Confederate conditions still wait for the end of
        the Union Player Turn."""
        if "10.1" not in self.options and self._check_confederate_victory():
            return
        self._check_union_victory()

    def _check_union_victory(self) -> bool:
        if all(self.controller(b) == "union" for b in self._union_objectives):
            self._win("union", "The Union controls all seven Confederate cities of value 2 or 3 (10.0).")
            return True
        return False

    def _check_confederate_victory(self) -> bool:
        if self.controller(CAPITAL) == "confederate" and "A6.0" not in self.options:
            self._win("confederate", "The Confederacy captured Washington (10.0).")
            return True
        cs, us = self.army_maximum("confederate"), self.army_maximum("union")
        if cs > us:
            self._win("confederate", f"The Confederate Army Maximum Size ({cs}) exceeds the Union's ({us}) (10.0).")
            return True
        return False

    def _end_of_game(self) -> None:
        if self.scenario["id"] == "1861-short":
            us, cs = self.army_maximum("union"), self.army_maximum("confederate")
            if us >= cs + 5:
                self._win("union", f"Union Army Maximum {us} is at least five above the Confederate {cs} (11.1).")
            else:
                self._win("confederate", f"Union Army Maximum {us} is not five above the Confederate {cs} (11.1).")
            return
        self._win("confederate", f"The Union did not win by the end of {calendar.label(self.turn)}: "
                                 "the South has survived (10.0).")

    # ------------------------------------------------------------------ promotion
    def _promotable(self, u: Unit, in_battle: bool) -> bool:
        return self._promotion_refusal(u, in_battle) is None

    def _promotion_refusal(self, u: Unit, in_battle: bool) -> str | None:
        """6.0: one step up, same kind, a piece of that type in stock, once a turn."""
        if u.prom:
            return because("No unit can receive two promotions in one Player Turn (6.0).")
        nxt = pieces()["promotes_to"].get(u.type)
        if nxt is None:
            return because("Crack units cannot be promoted further (6.0).")
        if u.foreign:
            return because("Foreign intervention units are never promoted (A8.4).")
        if "6.1" in self.options and nxt[0] == "C" and not in_battle:
            return because("Veterans become Crack only as victorious survivors of a battle (6.1).")
        if not self._any_off_map(u.side, nxt, "stock"):
            return because("All {unit_type} pieces are in play: the counter mix is the limit (11.6).",
                           unit_type=Word(unit_type(nxt)["name"]))
        return None

    def _segment_promotable(self, first_only: bool = False) -> list[str]:
        """The moving side's units on the map the Promotion Segment may promote, box
        by box in order (``first_only``: the first of them, if any). Outside a battle
        _promotable's answer follows from the unit's type, promotion this turn and
        foreign origin alone (6.0, A8.4): it is asked once per kind of unit."""
        if self.promotions <= 0:
            return []
        units, side, at = self.units, self.side, self.at
        known: dict[tuple[str, bool, bool], bool] = {}
        found = []
        for box in self._held_sorted(side):
            for uid in at[box]:
                u = units[uid]
                if u.side != side:
                    continue
                kind = (u.type, u.prom, u.foreign)
                verdict = known.get(kind)
                if verdict is None:
                    verdict = known[kind] = self._promotable(u, in_battle=False)
                if verdict:
                    found.append(uid)
                    if first_only:
                        return found
        return found

    def _any_segment_promotable(self) -> bool:
        return bool(self._segment_promotable(first_only=True))

    def _do_promote(self, unit: str) -> None:
        new = self._promote(unit)
        if self.phase == "battle":
            b = self._current_battle
            side_list = b["units"][b["winner"]]
            side_list[side_list.index(unit)] = new
            b["participants"].append(new)
            self._finish_battle(b["winner"])
            return
        self.promotions -= 1
        if self.promotions <= 0:
            self._end_promotion_segment()

    def _promote(self, unit: str) -> str:
        """Replace the piece by the next quality; its status stays (6.0)."""
        old = self.units[unit]
        new_type = pieces()["promotes_to"][old.type]
        new_id = self._pick_off_map(old.side, new_type, "stock")
        assert new_id is not None           # promotion is legal only while stock has one
        new = self.units[new_id]
        for flag in ("red", "ent", "dig", "m", "moved", "jumped", "sea", "frm", "river", "fought"):
            setattr(new, flag, getattr(old, flag))
        new.prom = True
        self._flag(new)
        box = old.loc
        self._place(new_id, box)
        old.red = old.ent = False
        old.clear_turn_flags()
        self._place(unit, "pool" if unit_type(old.type)["quality"] == "militia" else "stock")
        self._note("promoted", unit=unit, to=new_id, box=box)
        return new_id

    def _end_promotion_segment(self) -> None:
        self.promotions = 0
        self.phase = "recruit_roll"

    # ------------------------------------------------------------------ recruitment
    def _do_roll_recruits(self) -> None:
        value = self._roll("recruits")
        if self.intervention and self.side == "confederate":
            self._foreign_replacement(value)                             # A8.4
        points = 2 if value == 1 else value                              # 7.0
        if "7.5" in self.options:
            points = max(points, 3) if self.side == "union" else min(points, 4)
        self.recruit = {"points": points, "used": {}}
        self.phase = "recruitment"
        if self.leaders and self._leader_placements("recruitment"):
            self.leader_resume, self.phase = "recruitment", "leaders"   # 8.2.2 returns

    def army_limit(self, side: str) -> int:
        """Units the side may have in play: 7.1, raised by 7.4 after each draft."""
        limit = self.army_maximum(side)
        if side == "union" and "7.4" in self.options:
            drafts_done = sum(1 for y in pieces()["drafts"]["years"]
                              if self.turn >= calendar.turn_of(y, 4))
            limit += 4 * drafts_done
        return limit

    def _city_capacity(self, box: str) -> int:
        city = self.map.boxes[box]
        if "7.5" in self.options and city.two_recruits and city.shields.get(self.side, 0) >= 3:
            return 2                                                     # 7.5
        return 1

    def _recruit_types(self) -> list[str]:
        return [t for t in ("MI", "MC") if self._recruit_type_refusal(t) is None]

    def _recruit_type_refusal(self, unit_type: Any) -> str | None:
        side = self.side
        if unit_type not in ("MI", "MC"):
            return because("Only Militia units are recruited (7.0).")
        if self._current_recruit["points"] <= 0:
            return because("You have no Recruitment Points left (7.0).")
        if not self._any_off_map(side, unit_type, "pool"):
            return because("No {unit_type} is in your Recruitment Pool (7.0).", unit_type=unit_type)
        limit = self.army_limit(side)
        if self.units_on_map(side) >= limit:
            return because("You are at your Army Maximum Size of {n} units (7.1).", n=limit)
        return None

    def _recruit_cities(self) -> Iterator[str]:
        # a city the side does not control is refused (7.0): passed over here unasked;
        # one it controls (a city of its shields) where nobody was recruited yet this
        # segment is accepted (its capacity is at least one): not asked either
        owned, used = self._controlled(self.side), self._current_recruit["used"]
        for bid, _ in self._shields[self.side]:
            if bid in owned and (bid not in used or self._recruit_city_refusal(bid) is None):
                yield bid

    def _recruit_city_refusal(self, box: Any) -> str | None:
        side = self.side
        if not isinstance(box, str) or box not in self.map.boxes:
            return because("There is no box {box}.", box=repr(box))
        city = self.map.boxes[box]
        if not city.shields.get(side):
            return because("{box} has no {side} recruitment shield (7.0).", box=city.name, side=Word(side.capitalize()))
        if self.controller(box) != side:
            return because("You do not control {box} (7.0, 8.0).", box=city.name)
        capacity = self._city_capacity(box)
        if self._current_recruit["used"].get(box, 0) >= capacity:
            if capacity == 1:
                return because("Only one unit may be recruited in {box} per Recruitment Segment (7.0).",
                               box=city.name)
            return because("Only two units may be recruited in {box} per Recruitment Segment under 7.5 (7.0).",
                           box=city.name)
        return None

    def _can_recruit(self) -> bool:
        if self._current_recruit["points"] > 0 and self._refittable():
            return True
        return bool(self._recruit_types()) and next(self._recruit_cities(), None) is not None

    def _recruitment_legal(self) -> list[dict[str, Any]]:
        acts = []
        types = self._recruit_types()
        if types:
            acts = [{"type": "recruit", "unit_type": t, "box": bid}
                    for bid in self._recruit_cities() for t in types]
        if self._current_recruit["points"] > 0:
            acts += [{"type": "refit", "unit": u} for u in self._refittable()]
        return acts

    def _refittable(self) -> list[str]:
        """5.71: reduced units on the map that a Recruitment Point or March may recover."""
        if "5.71" not in self.options:
            return []
        units, side = self.units, self.side
        return [uid for box in self._held_sorted(side) for uid in self.at[box]
                if units[uid].side == side and self._refit_refusal(units[uid]) is None]

    def _refit_refusal(self, u: Unit) -> str | None:
        if not u.red:
            return because("{unit} is not reduced: only reduced units refit (5.71).", unit=u.id)
        if self.phase == "movement" and u.m >= 2:
            return because("No unit may take part in more than two Marches in a turn (4.0).")
        return None

    def _why_refit(self, unit: Any) -> str | None:
        if "5.71" not in self.options:
            return because("Reduced units recover at the end of the Combat Segment; refitting is optional rule 5.71.")
        if self.phase == "movement" and self.marches <= 0:
            return because("You have no Marches left (4.0).")
        if self.phase != "movement" and self._current_recruit["points"] <= 0:
            return because("You have no Recruitment Points left (7.0).")
        u = self._own_unit(unit)
        return u if isinstance(u, str) else self._refit_refusal(u)

    def _do_refit(self, unit: str) -> None:
        u = self.units[unit]
        u.red = False
        self._touch(u)
        if self.phase == "movement":
            self.active, self.march_units = None, []
            self._spend_march()
            u.m += 1                     # recovering counts as one of its two Marches
            self._flag(u)
        else:
            self._current_recruit["points"] -= 1
        self._note("refitted", unit=unit)

    def _do_recruit(self, unit_type: str, box: str) -> None:
        uid = self._pick_off_map(self.side, unit_type, "pool")
        assert uid is not None              # recruiting is legal only while the pool has one
        self._place(uid, box)
        if unit_type == "MI" and box in self.cav_only and self.control.get(box) == self.side:
            self.cav_only.discard(box)          # 8.0: recruited infantry holds the box
        self._current_recruit["points"] -= 1
        self._current_recruit["used"][box] = self._current_recruit["used"].get(box, 0) + 1
        self._note("recruited", unit=uid, box=box)

    def _do_end_recruitment(self) -> None:
        self._end_player_turn()

    def _why_recruit(self, unit_type: Any, box: Any) -> str | None:
        return self._recruit_type_refusal(unit_type) or self._recruit_city_refusal(box)

    def _why_promote(self, unit: Any) -> str | None:
        u = self.units.get(unit) if isinstance(unit, str) else None
        if u is None:
            return because("There is no unit {unit}.", unit=repr(unit))
        b = self.battle
        if b is not None:         # the winner's units as the battle lists them (6.0)
            if unit not in b["units"].get(b["winner"] or "", []):
                return because("Only a surviving unit of the winning side that took part may be promoted (6.0).")
            if self._beat_only_a_garrison():
                return because("Beating a coastal defence garrison alone earns no promotion (A5.0).")
            return self._promotion_refusal(u, in_battle=True)
        if self.promotions <= 0:
            return because("No promotion is left in this Promotion Segment (6.0).")
        if u.loc not in self.at:
            return because("{unit} is not a unit on the map.", unit=unit)
        if u.side != self.side:
            return because("{unit} is not yours to promote.", unit=unit)
        return self._promotion_refusal(u, in_battle=False)
