// The board as a list, for the keyboard and screen readers (in the spirit of Lichess's
// accessible mode): the decisions the server offers as buttons, then every box with its
// control, units and lines. Like the map, it never decides what is legal: the buttons are
// exactly the legal actions, labelled in words.
import { el } from "./api.js";
import { SIDE_NAME } from "./map.js";
import { t } from "./i18n.js";

const KIND = { rail: t("railroad"), road: t("road"), river: t("river") };

export class BoardList {
  // hooks: { label(action), act(action), myTurn(), unitLabel(unit) }
  constructor(root, map, types, hooks) {
    this.root = root;
    this.map = map;
    this.types = types;
    this.hooks = hooks;
    this.open = false;
    this.lines = new Map();
    for (const ln of map.map.lines) {
      for (const [p, q] of [[ln.a, ln.b], [ln.b, ln.a]]) {
        if (!this.lines.has(p)) this.lines.set(p, []);
        this.lines.get(p).push({ to: q, ln });
      }
    }
  }

  setOpen(on) {
    this.open = on;
    this.root.hidden = !on;
  }

  lineWords(id) {
    const out = (this.lines.get(id) || []).map(({ to, ln }) => {
      const name = (this.map.boxes.get(to) || { name: to }).name;
      if (ln.kind !== "river") return t("{line} to {box}", { line: KIND[ln.kind], box: name });
      const river = t("{river} River", { river: ln.river || "" });
      const dir = ln.downstream === to ? t("{river} downstream to {box}", { river, box: name }) : t("{river} upstream to {box}", { river, box: name });
      return (ln.river_side || []).includes(id) ? t("{line}, across this box's river side", { line: dir }) : dir;
    });
    return out.join("; ");
  }

  boxItem(b, state, units) {
    const ctl = (state.control || {})[b.id] || b.color;
    const facts = [ctl === b.color ? (b.color === "neutral" ? t("neutral") : t("{side} box", { side: SIDE_NAME[b.color] })) :
      t("held by the {side} (printed {printed})", { side: SIDE_NAME[ctl] || ctl, printed: SIDE_NAME[b.color] || b.color })];
    for (const [side, v] of Object.entries(b.shields || {})) facts.push(t("{side} shield {value}", { side: SIDE_NAME[side], value: v }));
    if (b.port) facts.push(t("port"));
    if (b.fort) facts.push(t("permanent entrenchment"));
    if (state.active === b.id) facts.push(t("active box"));
    if (state.battle && state.battle.box === b.id) facts.push(t("battle here"));
    const here = units.filter((u) => u.loc === b.id);
    const words = ["union", "confederate"].map((side) => {
      const mine = here.filter((u) => u.side === side);
      if (!mine.length) return null;
      return `${SIDE_NAME[side]}: ` + mine.map((u) => this.hooks.unitLabel(u) + (u.red ? ` (${t("reduced")})` : "") + (u.ent ? ` (${t("entrenched")})` : "")).join(", ");
    }).filter(Boolean);
    return el("li", { "data-list-box": b.id },
      el("h4", {}, b.name),
      el("p", {}, facts.join(" · ")),
      el("p", {}, words.length ? t("Units — {units}.", { units: words.join(". ") }) : t("No units.")),
      el("p", { class: "hint" }, t("Lines: {lines}.", { lines: this.lineWords(b.id) || t("none") })));
  }

  render(game) {
    if (!this.open || !game.state) return;
    const s = game.state;
    const hadFocus = this.root.contains(document.activeElement);
    const nodes = [];
    const head = el("h2", { id: "list-decisions", tabindex: -1 }, this.hooks.myTurn() ? t("Your decisions") : t("Decisions"));
    nodes.push(head);
    if (this.hooks.myTurn() && game.legal.length) {
      const general = game.legal.filter((a) => !a.unit);
      const byUnit = new Map();
      for (const a of game.legal) if (a.unit) { if (!byUnit.has(a.unit)) byUnit.set(a.unit, []); byUnit.get(a.unit).push(a); }
      const btn = (a) => el("button", { type: "button", class: "list-action", "data-action": a.type, onclick: () => this.hooks.act(a) }, this.hooks.label(a));
      if (general.length) nodes.push(el("div", { class: "list-actions" }, general.map(btn)));
      for (const [uid, acts] of byUnit) {
        const u = s.units.find((x) => x.id === uid);
        const who = u ? this.hooks.unitLabel(u) : uid;
        nodes.push(el("h3", {}, u && this.map.boxes.has(u.loc) ? t("{unit} at {box}", { unit: who, box: this.map.boxes.get(u.loc).name }) : who), el("div", { class: "list-actions" }, acts.map(btn)));
      }
    } else {
      nodes.push(el("p", {}, t("Nothing for you to decide now.")));
    }
    const occupied = new Set(s.units.map((u) => u.loc));
    const boxes = [...this.map.boxes.values()].sort((p, q) => p.name.localeCompare(q.name));
    const withUnits = boxes.filter((b) => occupied.has(b.id) || s.active === b.id || (s.battle && s.battle.box === b.id));
    nodes.push(el("h2", {}, t("Boxes with units ({n})", { n: withUnits.length })),
      el("ul", { class: "plain list-boxes" }, withUnits.map((b) => this.boxItem(b, s, s.units))));
    const rest = boxes.filter((b) => !withUnits.includes(b));
    nodes.push(el("details", {}, el("summary", {}, t("Other boxes ({n})", { n: rest.length })),
      el("ul", { class: "plain list-boxes" }, rest.map((b) => this.boxItem(b, s, s.units)))));
    this.root.replaceChildren(...nodes);
    // the buttons were rebuilt: bring the keyboard back to the top of the decisions
    if (hadFocus) head.focus();
  }
}
