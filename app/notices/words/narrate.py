"""Game events in words, from the templates of app.notices.words.catalog.

static/words.js does exactly the same in the browser with the same templates: the choice
of template (`template_key`), the values (`Narrator.values`) and the filling (`fill`,
`tidy`) must stay alike in both.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .catalog import EVENTS, FIELD_KINDS, FIELD_OVERRIDES, words_data

_SIDE_OF_PREFIX = {"U": "union", "C": "confederate"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def fill(template: str, values: Mapping[str, Any]) -> str:
    return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), "")), template)


def tidy(text: str) -> str:
    """What empty values leave behind: empty brackets, a stop after a stop, spaces."""
    text = re.sub(r"\s*\(\s*\)", "", text)
    text = re.sub(r"([.:])(\s*\.)+", r"\1", text)
    text = re.sub(r":\.", ".", text)
    return re.sub(r"\s+", " ", text).strip()


def template_key(ev: Mapping[str, Any]) -> str:
    """Which template says this event."""
    d = ev.get("data") or {}
    t = str(ev.get("type"))
    if ev.get("source") == "server":
        return _server_key(t, d)
    if t == "action":
        key = "action." + str((d.get("action") or {}).get("type"))
        return key if key in EVENTS else "action.other"
    if t == "roll":
        purpose = str(d.get("purpose"))
        if purpose == "fire":
            return "roll.fire.hit" if _hit(d) else "roll.fire.miss"
        return "roll." + purpose if "roll." + purpose in EVENTS else "roll.other"
    if t == "game_over" and not d.get("winner"):
        return "game_over_draw"
    return t if t in EVENTS else "other"


def _server_key(t: str, d: Mapping[str, Any]) -> str:
    if d.get("template") in EVENTS:       # the event names its template (before its English "text")
        return str(d["template"])
    if d.get("text"):
        return "server.text"
    if t == "create" and d.get("rematch_of"):
        return "server.create_rematch"
    if t == "adjudicate" and not (d.get("result") or {}).get("winner"):
        return "server.adjudicate_draw"
    return "server." + t if "server." + t in EVENTS else "server.other"


def _hit(d: Mapping[str, Any]) -> bool:
    try:
        return int(d.get("value", 7)) <= int(d.get("need", 0))
    except (TypeError, ValueError):
        return False


def _sentence(v: Any) -> str:
    return re.sub(r"[\s.]+$", "", str(v if v is not None else ""))


class Narrator:
    """Says events one after another, remembering what a sentence needs from earlier
    events: the box of the battle being fought and where units were last seen."""

    def __init__(self, box_names: Mapping[str, str], locate: Callable[[str], str | None] | None = None,
                 lang: str = "en"):
        self.box_names = box_names
        self.locate = locate
        self.battle_box: str | None = None
        self.seen_at: dict[str, str] = {}
        w = words_data(lang)
        self.unit_types, self.leaders = w["unit_types"], w["leaders"]
        self.events, self.parts, self.sides, self.ways = w["events"], w["parts"], w["sides"], w["ways"]
        self.choices = w["choices"]

    # ---------------------------------------------------------------- names
    def box(self, b: Any) -> str:
        return self.box_names.get(b, str(b))

    def unit(self, uid: Any) -> str:
        """A unit's identity: "U-VI-07" is "Union VI 7", "C-CD-charleston" "Confederate CD Charleston"."""
        parts = str(uid).split("-")
        if len(parts) < 3 or parts[0] not in _SIDE_OF_PREFIX:
            return str(uid)
        rest = "-".join(parts[2:])
        number = str(int(rest)) if rest.isdigit() else self.box_names.get(rest, rest)
        side = self.sides[_SIDE_OF_PREFIX[parts[0]]]
        return fill(self.parts["unit"], {"side": side, "type": parts[1], "number": number})

    def unit_type_name(self, uid: Any) -> str:
        parts = str(uid).split("-")
        return self.unit_types.get(parts[1], "") if len(parts) >= 3 else ""

    def formatted(self, kind: str, v: Any) -> str:
        if v is None:
            return ""
        if kind == "unit":
            return self.unit(v)
        if kind == "box":
            return self.box(v)
        if kind == "path":
            return " → ".join(self.box(b) for b in v or [])
        if kind == "side":
            return self.sides.get(v, str(v))
        if kind == "leader":
            return self.leaders.get(v, str(v).capitalize())
        if kind == "by_side":
            return ", ".join(f"{self.sides.get(s, s)} {n}" for s, n in sorted(v.items(), reverse=True))
        if kind == "ways":
            return ", ".join(dict.fromkeys(self.ways.get(str(x), str(x)) for x in v)) if isinstance(v, list) else str(v)
        if kind == "list":
            return ", ".join(dict.fromkeys(str(x) for x in v)) if isinstance(v, list) else str(v)
        if kind == "sentence":
            return _sentence(v)
        if kind == "title":
            return str(v).replace("_", " ").title()
        return str(v)

    # ---------------------------------------------------------------- values
    def raw(self, ev: Mapping[str, Any]) -> dict[str, Any]:
        d = dict(ev.get("data") or {})
        if ev.get("type") == "action" and ev.get("source") != "server":
            d = {**(d.get("action") or {}), "side": d.get("side")}
        elif ev.get("source") == "server" and isinstance(d.get("result"), dict):
            d.setdefault("winner", d["result"].get("winner"))
        d.setdefault("type", ev.get("type"))
        return d

    def values(self, ev: Mapping[str, Any], key: str) -> dict[str, str]:
        d = self.raw(ev)
        kinds = {**FIELD_KINDS, **FIELD_OVERRIDES.get(key, {})}
        out = {k: self.formatted(kinds.get(k, "plain"), v) for k, v in d.items()}
        value = d.get("value")
        out["marches"] = out["points"] = str(2 if value == 1 else value)
        out["invasion_note"] = self.parts["invasion_note"] if key == "roll.marches" and value == 6 else ""
        out["options_note"] = fill(self.parts["options_note"], out) if d.get("options") else ""
        out["action_type"] = str((d.get("action") or {}).get("type") or d.get("type") or "").replace("_", " ")
        box = self.battle_box
        out["at_battle"] = fill(self.parts["at_battle"], {"box": self.box(box)}) if box else ""
        if key in ("server.auto_forced", "server.auto_orders"):
            out["choice"] = self.choice(d.get("action") or {})
            out["order_words"] = fill(self.parts.get(f"order_{d.get('order_key')}", ""), out)
        came_from = self.where(d.get("unit")) if key == "action.reinforce" else None
        moved_in = came_from and came_from != box
        out["from_box"] = fill(self.parts["from_box"], {"from": self.box(came_from)}) if moved_in else ""
        return out

    def choice(self, action: Mapping[str, Any]) -> str:
        """A legal action in the words of its button on the game page (CHOICES)."""
        template = self.choices.get(str(action.get("type")))
        if not isinstance(template, str):
            return str(action.get("type") or "").replace("_", " ")
        values = {k: self.formatted(FIELD_KINDS.get(k, "plain"), v) for k, v in action.items()}
        path = action.get("path") or []
        values["dest"] = self.box(path[-1]) if path else ""
        ways = dict.fromkeys(self.ways.get(str(w), str(w)) for w in action.get("by") or [])
        values["by_words"] = self.choices["by_joiner"].join(ways)
        return tidy(fill(template, values))

    def where(self, uid: Any) -> str | None:
        if uid is None:
            return None
        found = self.locate(uid) if self.locate is not None else None
        return found or self.seen_at.get(uid)

    # ---------------------------------------------------------------- events
    def describe(self, ev: Mapping[str, Any]) -> str | None:
        """One event in words, or None when another event of the same decision says it."""
        key = template_key(ev)
        if ev.get("type") == "battle" and ev.get("source") != "server":
            self.battle_box = (ev.get("data") or {}).get("box")
        text = tidy(fill(self.events[key], self.values(ev, key))) if self.events[key] else None
        self.follow(ev)
        return text

    def follow(self, ev: Mapping[str, Any]) -> None:
        """Where units went, as far as the events say (for "reinforces ... from X")."""
        d = ev.get("data") or {}
        t = ev.get("type")
        a = (d.get("action") or {}) if t == "action" and ev.get("source") != "server" else {}
        if a.get("type") == "move" and a.get("path"):
            self.seen_at[a["unit"]] = a["path"][-1]
        elif a.get("type") in ("sea_move", "invade"):
            self.seen_at[a["unit"]] = a["to"]
        elif a.get("type") == "reinforce" and self.battle_box:
            self.seen_at[a["unit"]] = self.battle_box
        elif t in ("recruited", "promoted") and d.get("box"):
            self.seen_at[d["to" if t == "promoted" else "unit"]] = d["box"]
        elif t in ("retreated", "withdrew", "routed_retreat", "eliminated", "drafted"):
            gone = d.get("box")
            self.seen_at = {u: b for u, b in self.seen_at.items() if b != gone and u != d.get("unit")}
