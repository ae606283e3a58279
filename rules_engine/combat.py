"""The Combat Segment (5.0 - 5.7): battles, rounds, fire, retreat, reinforcement,
cavalry withdrawal, and the promotion a victory earns (6.0).

A battle is a small state machine in ``self.battle``:
  step "withdraw"  the defender, holding only Cavalry, may withdraw (5.6)
  step "prepare"   from round 2 the firing side may retreat (5.4) or reinforce (5.5)
  step "target"    the firing side announces one target per unit (5.1), then fires
  step "promote"   the winner may promote one surviving participant (6.0)
The defender fires first in every round (5.0)."""
from __future__ import annotations

from typing import Any

from .core import GameCore
from .data import other, unit_type
from .errors import because


#: Engine version from which a battle ended by a withdrawal (5.6) marks no unit as
#: having fought (5.5).
UNFOUGHT_WITHDRAWAL_SINCE = 5


class CombatRules(GameCore):
    # ------------------------------------------------------------------ segment
    def _start_combat_segment(self) -> None:
        self.phase = "battle_choice"

    def _battle_boxes(self) -> list[str]:
        """Boxes where a battle must be fought this segment (contained ports may wait)."""
        if "A5.0" not in self.options:          # only A5.0 garrisons fight where no enemy is
            return [box for box in self._contested_boxes() if box not in self.contained]
        return [box for box in self.occupied_boxes() if box not in self.contained and self._battle_due(box)]

    def _battle_due(self, box: str) -> bool:
        """5.0: units of both sides share the box, or (A5.0) a garrison meets an invasion."""
        return ((box in self._held["union"] and box in self._held["confederate"])
                or self._garrison_for(box, self.at[box]) is not None)

    def _garrison_for(self, box: str, uids: list[str]) -> str | None:
        """A5.0: a Confederate port Recruitment City fights a naval invasion with its
        coastal defence garrison, even when no Confederate unit is there."""
        if "A5.0" not in self.options or self.controller(box) != "confederate":
            return None
        gid = f"C-CD-{box}"
        if gid not in self.units or self.units[gid].fought:
            return None
        invaded = any(self.units[u].side == "union" and self.units[u].frm == "sea"
                      and self.units[u].river for u in uids)
        return gid if invaded else None

    def _battle_choice_legal(self) -> list[dict[str, Any]]:
        required = self._battle_boxes()
        acts = [{"type": "fight", "box": b} for b in required]
        if self.side == "confederate":
            acts += [{"type": "contain", "box": b} for b in required if self._containable(b)]
        if not required and self.contained:                  # A4.0: attacking is a choice
            acts += [{"type": "fight", "box": b} for b in self.contained]
            acts.append({"type": "end_combat"})
        return acts

    def _do_fight(self, box: str) -> None:
        att_side, def_side = self.side, other(self.side)
        att = [u for u in self.at[box] if self.units[u].side == att_side]
        dfn = [u for u in self.at[box] if self.units[u].side == def_side]
        if box in self.contained:
            self.contained.remove(box)
            for uid in att:
                self.units[uid].ent = False        # A4.0: the attacker leaves his works
                self._touch(self.units[uid])
        garrison = self._garrison_for(box, self.at[box]) if att_side == "union" else None
        if garrison:
            dfn.append(garrison)                                          # A5.0
        entered = sorted({f for u in att if (f := self.units[u].frm) is not None and f != "sea"})
        invasion = any(self.units[u].frm == "sea" and self.units[u].river for u in att)
        self.battle = {
            "box": box, "attacker": att_side, "defender": def_side, "round": 1,
            "firing": def_side, "step": "target", "winner": None,
            "units": {att_side: att, def_side: dfn}, "entered_from": entered,
            "reinforced": [], "targets": [], "participants": sorted(att + dfn),
            "invasion": invasion,
            "leaders": {s: self._leaders_in(box, s) for s in (att_side, def_side)},
        }
        if garrison:
            self.units[garrison].red = False        # it stays "coast": never on the map
            self._touch(self.units[garrison])
        self.phase = "battle"
        self._note("battle", box=box, attacker=att_side, round=1)
        all_cav = all(self.units[u].is_cav for u in dfn)
        if all_cav and not all(self.units[u].is_cav for u in att):
            self._current_battle["step"] = "withdraw"                     # 5.6
        else:
            self._first_round_begins()
            self._to_target_step()

    def _first_round_begins(self) -> None:
        if "A7.0" in self.options:
            self._current_battle["day"] = 1
            self._new_battle_day()

    # ------------------------------------------------------------------ legal
    def _battle_legal(self) -> list[dict[str, Any]]:
        step = self._current_battle["step"]
        if step == "withdraw":
            return ([{"type": "withdraw", "to": b} for b in self._withdraw_boxes()]
                    + [{"type": "stand"}])
        if step == "prepare":
            return self._prepare_legal()
        if step == "target":
            return self._target_legal()
        if step == "bonus":
            return self._bonus_legal()
        if step == "promote":
            return ([{"type": "promote", "unit": u} for u in self._battle_promotable()]
                    + [{"type": "no_promotion"}])
        if step == "rally":
            b = self._current_battle
            return ([{"type": "rally", "unit": u} for u in b["routed"][b["rallying"]]]
                    + [{"type": "no_rally"}])
        if step == "rout_retreat":
            return [{"type": "retreat", "to": t} for t in self._retreat_boxes(self._retreating_side())]
        return []

    def _prepare_legal(self) -> list[dict[str, Any]]:
        """Round 2 on: retreat (only before reinforcing), reinforce, then open fire."""
        b = self._current_battle
        firing = b["firing"]
        acts: list[dict[str, Any]] = []
        if self._retreat_refusal_now() is None:
            acts += [{"type": "retreat", "to": t} for t in self._retreat_boxes(firing)]
        acts += [{"type": "reinforce", "unit": u} for u in self._reinforcements(firing)]
        if "A8.2" in self.options:
            acts += [{"type": "reinforce_leader", "leader": lid}
                     for lid in self._leader_reinforcements(firing)]
        acts.append({"type": "open_fire"})
        return acts

    def _adjacent(self, box: str, side: str) -> list[str]:
        """Boxes joined to ``box`` by a line this side may use, each once."""
        seen: list[str] = []
        for nxt, line in self.map.neighbours(box):
            if nxt not in seen and self._line_usable(side, line):
                seen.append(nxt)
        return seen

    def _withdraw_boxes(self) -> list[str]:
        """5.6: any adjacent box but enemy Recruitment Cities, enemy-occupied boxes
        and boxes the attackers came from."""
        b = self._current_battle
        side = b["defender"]
        return [n for n in self._adjacent(b["box"], side) if self._fallback_refusal(side, n, "withdraw") is None]

    def _fallback_refusal(self, side: str, box: str, verb: str) -> str | None:
        """Why this side's units may not retreat (5.4) or withdraw (5.6) into the
        adjacent ``box``; None if they may."""
        b = self._current_battle
        retreat = verb == "retreat"
        if self._enemy_in(box, side):
            return (because("You may not retreat into a box containing enemy units (5.4).") if retreat
                    else because("You may not withdraw into a box containing enemy units (5.6)."))
        if self._enemy_city(box, side):
            return (because("You may not retreat into an enemy-controlled Recruitment City (5.4).") if retreat
                    else because("You may not withdraw into an enemy-controlled Recruitment City (5.6)."))
        if side == b["defender"] and box in b["entered_from"]:
            return (because("Defenders may not retreat to a box the attackers came from when they entered (5.4).")
                    if retreat else
                    because("Defenders may not withdraw to a box the attackers came from when they entered (5.6)."))
        return self._entry_refusal(side, box)

    def _enemy_city(self, box: str, side: str) -> bool:
        return self.map.boxes[box].recruitment_city and self.controller(box) == other(side)

    def _retreat_boxes(self, side: str) -> list[str]:
        """5.4: one adjacent box, no enemy units, not an enemy Recruitment City, a
        friendly box if there is one; defenders not where the attackers came from."""
        b = self._current_battle
        options = [n for n in self._adjacent(b["box"], side) if self._fallback_refusal(side, n, "retreat") is None]
        friendly = [n for n in options if self.controller(n) == side]
        result = friendly or options
        if self._may_evacuate(side) and "washington" not in result:
            result = result + ["washington"]
        return result

    def _may_evacuate(self, side: str) -> bool:
        """5.41: Union units fighting in a Southern port after an invasion, or attacked
        there, may retreat by sea to Washington while the Union controls it."""
        b = self._current_battle
        box = self.map.boxes[b["box"]]
        if ("5.41" not in self.options or side != "union" or not box.port
                or box.color != "confederate" or b["box"] == "washington"
                or self.controller("washington") != "union"
                or self._enemy_in("washington", side)):
            return False
        return b["defender"] == "union" or b.get("invasion", False)

    def _reinforcements(self, side: str) -> list[str]:
        """5.5: one unit from each adjacent box per round; not units that fought this
        Player Turn; the attacker never from a box with enemy units; the defender
        leaves a screen as large as the enemy force there."""
        b = self._current_battle
        if not self._may_enter(side, b["box"]):
            return []
        out = []
        for n in self._adjacent(b["box"], side):
            if self._reinforce_box_refusal(side, n) is None:
                out += [u.id for u in self._side_units(n, side) if not u.fought]
        return out

    def _reinforce_box_refusal(self, side: str, box: str) -> str | None:
        """5.5: why no unit may reinforce from the adjacent ``box`` this round."""
        b = self._current_battle
        if box in b["reinforced"]:
            return because("Only one unit from each adjacent box may reinforce per Battle Round (5.5).")
        mine = len(self._side_units(box, side))
        enemies = len(self.at[box]) - mine
        if enemies and side == b["attacker"]:
            return because("The attacker may not reinforce from a box containing enemy units (5.5).")
        if enemies and mine - 1 < enemies:
            return because("The defender must leave a screening force as large as the enemy force "
                           "in the box he reinforces from (5.5).")
        return None

    def _target_legal(self) -> list[dict[str, Any]]:
        return [{"type": "target", "unit": s, "target": t}
                for s, targets in self._target_choices().items() for t in targets]

    def _target_choices(self) -> dict[str, list[str]]:
        """5.1: each enemy unit must be fired upon by at least one unit if possible;
        the targets open to each unit that has not announced one yet."""
        b = self._current_battle
        firing = b["firing"]
        assigned = {s for s, _ in b["targets"]}
        shooters = [u for u in b["units"][firing] if u not in assigned]
        enemies = b["units"][other(firing)]
        covered = {t for _, t in b["targets"]}
        uncovered = [t for t in enemies if t not in covered]
        shots_left = self._shots_allowed(firing) - len(b["targets"])         # A7.0 limit
        if "5.2" in self.options:
            return {s: self._like_targets(s, shooters, enemies, uncovered) for s in shooters}
        allowed = uncovered if len(uncovered) >= shots_left else enemies
        return {s: allowed for s in shooters}

    def _like_targets(self, shooter: str, shooters: list[str], enemies: list[str],
                      uncovered: list[str]) -> list[str]:
        """5.2 Like Battlefield Targets (ruling R23): Cavalry first cover the enemy
        Cavalry, Infantry first cover the enemy Infantry; only then may a unit gang up
        (Infantry may then also fire at Cavalry, but never has to)."""
        units = self.units
        cav = units[shooter].is_cav
        enemy_cav = [t for t in enemies if units[t].is_cav]
        if cav and enemy_cav:
            own, pool = [t for t in uncovered if units[t].is_cav], enemy_cav
            mates = [s for s in shooters if units[s].is_cav]
        else:
            own = [t for t in uncovered if not units[t].is_cav]
            pool = [t for t in enemies if not units[t].is_cav]
            mates = [s for s in shooters if units[s].is_cav == cav]
            if cav:          # no enemy cavalry: cavalry fire at infantry under 5.1 alone
                mates = shooters
        if own and len(own) >= len(mates):
            return own                                   # must cover its own kind first
        if own:
            return pool                                  # may gang up within its kind
        return enemies if (not cav or enemy_cav) else pool

    def _battle_promotable(self) -> list[str]:
        b = self._current_battle
        if self._beat_only_a_garrison():
            return []
        return [u for u in b["units"][b["winner"]] if self._promotable(self.units[u], in_battle=True)]

    def _beat_only_a_garrison(self) -> bool:
        """A5.0: no promotion for beating a coastal defence garrison alone."""
        b = self._current_battle
        beaten = [u for u in b["participants"] if self.units[u].side != b["winner"]]
        return bool(beaten) and all(self.units[u].type == "CD" for u in beaten)

    def _retreating_side(self) -> str:
        b = self._current_battle
        return other(b["winner"]) if b["step"] == "rout_retreat" else b["firing"]

    def _retreat_refusal_now(self) -> str | None:
        """Why the side to act may not retreat at this step of the battle, wherever to."""
        b = self._current_battle
        if b["step"] == "rout_retreat":
            return None                                  # A8.1: routed units must go
        if b["step"] != "prepare":
            return because("Retreats begin with the second Battle Round, before firing (5.4).")
        if b["reinforced"]:
            return because("A player cannot retreat after reinforcing this round (5.5).")
        if not any(self.units[u].type != "CD" for u in b["units"][b["firing"]]):
            return because("A coastal defence garrison never retreats (A5.0).")
        return None

    # ------------------------------------------------------------------ execute
    def _do_withdraw(self, to: str) -> None:
        b = self._current_battle
        for uid in list(b["units"][b["defender"]]):
            self.units[uid].ent = False
            self._place(uid, to)
            self._note_kentucky_entry_from_battle(uid, to)
        self._leaders_follow(b["box"], to, b["defender"])
        self._note("withdrew", box=b["box"], to=to)
        if self.rules_since(UNFOUGHT_WITHDRAWAL_SINCE):
            # 5.6: the cavalry leaves "before any Battle Rounds are conducted", so no
            # unit of either side has fought (5.5): each may still reinforce a battle
            b["participants"] = []
        self._finish_battle(winner=None)

    def _do_stand(self) -> None:
        self._first_round_begins()
        self._to_target_step()

    def _do_retreat(self, to: str) -> None:
        b = self._current_battle
        side = b["firing"] if b["step"] != "rout_retreat" else other(b["winner"])
        routed = b.get("routed", {}).pop(side, [])
        if b["step"] == "rout_retreat":
            for uid in routed:
                self._place(uid, to)
                self._note_kentucky_entry_from_battle(uid, to)
            self._note("routed_retreat", side=side, box=b["box"], to=to)
            self._after_battle_won()
            return
        movers = [u for u in b["units"][side] if self.units[u].type != "CD"]
        for uid in movers + routed:
            self.units[uid].ent = False
            self._place(uid, to)
            self._note_kentucky_entry_from_battle(uid, to)
        b["units"][side] = [u for u in b["units"][side] if u not in movers]
        self._leaders_follow(b["box"], to, side)
        self._note("retreated", side=side, box=b["box"], to=to)
        if b["units"][side]:
            b["step"] = "target"          # A5.0: the garrison never retreats; it fights on
            return
        self._battle_won(other(side))

    def _do_reinforce(self, unit: str) -> None:
        b = self._current_battle
        u = self.units[unit]
        b["reinforced"].append(u.loc)
        if u.side == b["attacker"] and u.loc not in b["entered_from"]:
            b["entered_from"].append(u.loc)
        u.ent = u.river = False          # moving loses entrenchment; no river bonus (5.34)
        self._place(unit, b["box"])
        self._note_kentucky_entry_from_battle(unit, b["box"])
        b["units"][u.side].append(unit)
        b["participants"].append(unit)

    def _do_open_fire(self) -> None:
        self._to_target_step()

    def _to_target_step(self) -> None:
        """Targets next, after the leaders' pluses are announced (8.2.2)."""
        b = self._current_battle
        b.pop("bonus", None)
        b["step"] = "bonus" if self._bonus_step_needed() else "target"

    def _do_target(self, unit: str, target: str) -> None:
        b = self._current_battle
        b["targets"].append([unit, target])
        if len(b["targets"]) >= self._shots_allowed(b["firing"]):
            self._fire()

    def shot_value(self, shooter: str, target: str) -> int:
        """5.1 Combat Value after 5.31 entrenchment, 5.32 Crack Infantry and 5.34 river."""
        b = self._current_battle
        s, t = self.units[shooter], self.units[target]
        value = unit_type(s.type)["combat"] + unit_type(t.type)["defense"]
        if s.type == "CD":
            value = self.map.boxes[b["box"]].shields["confederate"]      # A5.0
        if t.ent or t.type == "CD":                                    # garrisons: always dug in
            value -= 1
        if b["firing"] == b["defender"] and b["round"] <= 2 and t.river:
            value += 1
        if s.side == b["firing"]:
            value += b.get("bonus", {}).get(shooter, 0)              # A8.2 leader pluses
        return value

    def _fire(self) -> None:
        b = self._current_battle
        firing = b["firing"]
        enemies = b["units"][other(firing)]
        for shooter, target in b["targets"]:
            if target not in enemies:
                self._note("shot_wasted", unit=shooter, target=target)     # 5.1 example
                continue
            need = self.shot_value(shooter, target)
            if need < 1:
                self._note("impossible_shot", unit=shooter, target=target)  # 5.33
                continue
            value = self._roll("fire", side=firing, unit=shooter, target=target, need=need)
            if value <= need:
                self._hit(target)
        b["targets"] = []
        if "A8.1" in self.options:
            self._morale_checks(other(firing))
        b.pop("fresh", None)
        if not enemies:
            self._battle_won(firing)
            return
        self._next_half()

    def _hit(self, uid: str) -> None:
        u = self.units[uid]
        self._touch(u)
        if not u.red:
            u.red = True
            self._note("reduced", unit=uid)
            self._current_battle.setdefault("fresh", []).append(uid)       # A8.1 checks these
            return
        b = self._current_battle
        b["units"][u.side].remove(uid)
        if u.type == "CD":
            u.red = False                                   # A5.0: the garrison is destroyed
            self._note("garrison_destroyed", box=b["box"])
            return
        if u.side == "confederate" and u.type[0] in "VC":
            self.csa_losses += 1                                   # counted for 6.2
        self._eliminate(uid)

    def _eliminate(self, uid: str) -> None:
        """5.1: Militia go to the Recruitment Pool, Veteran and Crack to stock."""
        u = self.units[uid]
        u.red = u.ent = False
        if u.foreign:
            where = "foreign_lost"                                    # A8.4
        else:
            where = "pool" if unit_type(u.type)["quality"] == "militia" else "stock"
        self._place(uid, where)
        u.clear_turn_flags()
        self._note("eliminated", unit=uid)

    def _next_half(self) -> None:
        b = self._current_battle
        if b["firing"] == b["defender"]:
            b["firing"] = b["attacker"]
        else:
            b["firing"] = b["defender"]
            b["round"] += 1
            if "A7.0" in self.options and (b["round"] - 1) % 4 == 0:
                b["day"] += 1                                          # A7.0: a new battle day
                self._new_battle_day()
        b["reinforced"] = []
        if b["round"] == 1:
            self._to_target_step()
        else:
            b.pop("bonus", None)
            b["step"] = "prepare"
        if "A8.1" in self.options and b["firing"] == b["defender"] and (b["round"] - 1) % 4 == 0:
            self._day_end_rally()

    def _battle_won(self, winner: str) -> None:
        b = self._current_battle
        b["winner"] = winner
        self._note("battle_won", box=b["box"], winner=winner, round=b["round"])
        routed = b.get("routed", {})
        b["units"][winner] += routed.pop(winner, [])        # the winner's routed rejoin
        loser_routed = routed.get(other(winner), [])
        if loser_routed:
            if self._retreat_boxes(other(winner)):
                b["step"] = "rout_retreat"                  # ruling R34
                return
            for uid in routed.pop(other(winner)):
                self._eliminate(uid)
        self._after_battle_won()

    def _after_battle_won(self) -> None:
        b = self._current_battle
        b.pop("routed", None)
        if "A8.1" in self.options:
            self._desertion_checks()
        if self._battle_promotable():
            b["step"] = "promote"
        else:
            self._finish_battle(b["winner"])

    def _finish_battle(self, winner: str | None) -> None:
        for uid in self._current_battle["participants"]:
            u = self.units[uid]
            if u.type == "CD":
                u.red, u.fought = False, True       # A5.0: one battle a turn (see _garrisons)
                self._touch(u)
                continue
            u.fought = True
            self._flag(u)
        breakout = self._current_battle.get("breakout")
        if breakout:                               # A4.0: the break-out used a March
            for u in self._side_units(self._current_battle["box"], "union"):
                u.m = max(u.m, 1)
                u.fought = False
                self._flag(u)
        self.battle = None
        if self.leaders:
            self._catch_lone_leaders()
        self.phase = "movement" if breakout else "battle_choice"

    def _do_no_promotion(self) -> None:
        if self.phase == "battle":
            self._finish_battle(self._current_battle["winner"])
        else:
            self._end_promotion_segment()

    # ------------------------------------------------------------------ refusals
    # Each _why_<action> returns why that action is not allowed now, or None if it is;
    # the legal-action lists above are built from the same checks.
    def _why_fight(self, box: Any) -> str | None:
        if self.battle is not None:
            return because("One battle must be completely finished before the next begins (5.0).")
        if box in self.contained:
            if self._battle_boxes():
                return because("First fight the battles that must be fought; then you may attack a contained port "
                               "(A4.0).")
            return None
        if not isinstance(box, str) or box not in self._occupied or not self._battle_due(box):
            return because("There is no battle to fight in {box}: it needs units of both sides (5.0).", box=repr(box))
        return None

    def _why_contain(self, box: Any) -> str | None:
        if self.side != "confederate":
            return because("Only the Confederate player contains a port instead of fighting there (A4.0).")
        if box not in self._battle_boxes():
            return because("There is no battle to fight in {box}: it needs units of both sides (5.0).", box=repr(box))
        if not self._containable(box):
            return because("Only ports the Union took by naval invasion, Fort Monroe and Pensacola, "
                           "while the Union holds them, can be contained (A4.0).")
        return None

    def _why_end_combat(self) -> str | None:
        if self._battle_boxes() or not self.contained:
            return because("Every battle must be fought before the Combat Segment ends (5.0).")
        return None

    def _why_target(self, unit: Any, target: Any) -> str | None:
        b = self._current_battle
        firing = b["firing"]
        if b["step"] != "target":
            return because("Targets are announced after retreats and reinforcements: open fire first (5.1).")
        if unit in b["units"][other(firing)]:
            return because("The defender fires first in each Battle Round and the attacker after; "
                           "it is not your fire now (5.0).")
        if unit not in b["units"][firing]:
            return because("{unit} is not one of your units in this battle.", unit=unit)
        if any(s == unit for s, _ in b["targets"]):
            return because("{unit} has already announced its target this round (5.1).", unit=unit)
        if target not in b["units"][other(firing)]:
            return because("{target} is not an enemy unit in this battle.", target=target)
        if target not in self._target_choices()[unit]:
            if "5.2" in self.options:
                return because("Cavalry first fire on enemy Cavalry and Infantry on enemy Infantry, each "
                               "enemy unit of its kind at least once, before ganging up (5.2).")
            return because("Every enemy unit must be fired upon by at least one of your units "
                           "before you gang up on any (5.1).")
        return None

    def _why_retreat(self, to: Any) -> str | None:
        refusal = self._retreat_refusal_now()
        if refusal:
            return refusal
        b = self._current_battle
        side = self._retreating_side()
        if to in self._retreat_boxes(side):
            return None
        if to not in self._adjacent(b["box"], side):
            return because("Retreat goes to an adjacent box joined by a line you may use (5.4).")
        return (self._fallback_refusal(side, to, "retreat")
                or because("The retreat must go to a friendly box while one is available (5.4)."))

    def _why_withdraw(self, to: Any) -> str | None:
        b = self._current_battle
        if b["step"] != "withdraw":
            return because("Only a defender with Cavalry alone may withdraw, before the first round, "
                           "and not when every attacker is Cavalry (5.6).")
        if to not in self._adjacent(b["box"], b["defender"]):
            return because("Cavalry withdraw only to an adjacent box (5.6).")
        return self._fallback_refusal(b["defender"], to, "withdraw")

    def _why_rally(self, unit: Any) -> str | None:
        """The units _battle_legal offers: the rallying side's routed units."""
        b = self._current_battle
        if unit in b["routed"][b["rallying"]]:
            return None
        return because("Only one of your routed units may rally (A8.11).")

    def _why_reinforce(self, unit: Any) -> str | None:
        b = self._current_battle
        if b["step"] != "prepare":
            return because("Reinforcements arrive from the second Battle Round, before firing (5.5).")
        u = self.units.get(unit) if isinstance(unit, str) else None
        if u is None or u.side != b["firing"]:
            return because("{unit} is not one of your units.", unit=unit)
        if u.loc not in self._adjacent(b["box"], u.side):
            return because("Reinforcements come only from adjacent boxes (5.5).")
        if u.fought:
            return because("Units that already fought in a battle this Player Turn cannot reinforce (5.5).")
        return self._entry_refusal(u.side, b["box"]) or self._reinforce_box_refusal(u.side, u.loc)
