// The board as a list, for the keyboard and screen readers (in the spirit of Lichess's
// accessible mode): the decisions the server offers as buttons, then every box with its
// control, units and lines. Like the map, it never decides what is legal: the buttons are
// exactly the legal actions, labelled in words.
import { el } from "./api.js";
import { SIDE_NAME } from "./map.js";

const KIND = { rail: "railroad", road: "road", river: "river" };

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
      if (ln.kind !== "river") return `${KIND[ln.kind]} to ${name}`;
      const dir = ln.downstream === to ? "downstream" : "upstream";
      const bank = (ln.river_side || []).includes(id) ? ", across this box's river side" : "";
      return `${ln.river || "river"} River ${dir} to ${name}${bank}`;
    });
    return out.join("; ");
  }

  boxItem(b, state, units) {
    const ctl = (state.control || {})[b.id] || b.color;
    const facts = [ctl === b.color ? (b.color === "neutral" ? "neutral" : `${SIDE_NAME[b.color]} box`) :
      `held by the ${SIDE_NAME[ctl] || ctl} (printed ${SIDE_NAME[b.color] || b.color})`];
    for (const [side, v] of Object.entries(b.shields || {})) facts.push(`${SIDE_NAME[side]} shield ${v}`);
    if (b.port) facts.push("port");
    if (b.fort) facts.push("permanent entrenchment");
    if (state.active === b.id) facts.push("active box");
    if (state.battle && state.battle.box === b.id) facts.push("battle here");
    const here = units.filter((u) => u.loc === b.id);
    const words = ["union", "confederate"].map((side) => {
      const mine = here.filter((u) => u.side === side);
      if (!mine.length) return null;
      return `${SIDE_NAME[side]}: ` + mine.map((u) => this.hooks.unitLabel(u) + (u.red ? " (reduced)" : "") + (u.ent ? " (entrenched)" : "")).join(", ");
    }).filter(Boolean);
    return el("li", { "data-list-box": b.id },
      el("h4", {}, b.name),
      el("p", {}, facts.join(" · ")),
      el("p", {}, words.length ? `Units — ${words.join(". ")}.` : "No units."),
      el("p", { class: "hint" }, `Lines: ${this.lineWords(b.id) || "none"}.`));
  }

  render(game) {
    if (!this.open || !game.state) return;
    const s = game.state;
    const hadFocus = this.root.contains(document.activeElement);
    const nodes = [];
    const head = el("h2", { id: "list-decisions", tabindex: -1 }, this.hooks.myTurn() ? "Your decisions" : "Decisions");
    nodes.push(head);
    if (this.hooks.myTurn() && game.legal.length) {
      const general = game.legal.filter((a) => !a.unit);
      const byUnit = new Map();
      for (const a of game.legal) if (a.unit) { if (!byUnit.has(a.unit)) byUnit.set(a.unit, []); byUnit.get(a.unit).push(a); }
      const btn = (a) => el("button", { type: "button", class: "list-action", "data-action": a.type, onclick: () => this.hooks.act(a) }, this.hooks.label(a));
      if (general.length) nodes.push(el("div", { class: "list-actions" }, general.map(btn)));
      for (const [uid, acts] of byUnit) {
        const u = s.units.find((x) => x.id === uid);
        const where = u && this.map.boxes.has(u.loc) ? ` at ${this.map.boxes.get(u.loc).name}` : "";
        nodes.push(el("h3", {}, `${u ? this.hooks.unitLabel(u) : uid}${where}`), el("div", { class: "list-actions" }, acts.map(btn)));
      }
    } else {
      nodes.push(el("p", {}, "Nothing for you to decide now."));
    }
    const occupied = new Set(s.units.map((u) => u.loc));
    const boxes = [...this.map.boxes.values()].sort((p, q) => p.name.localeCompare(q.name));
    const withUnits = boxes.filter((b) => occupied.has(b.id) || s.active === b.id || (s.battle && s.battle.box === b.id));
    nodes.push(el("h2", {}, `Boxes with units (${withUnits.length})`),
      el("ul", { class: "plain list-boxes" }, withUnits.map((b) => this.boxItem(b, s, s.units))));
    const rest = boxes.filter((b) => !withUnits.includes(b));
    nodes.push(el("details", {}, el("summary", {}, `Other boxes (${rest.length})`),
      el("ul", { class: "plain list-boxes" }, rest.map((b) => this.boxItem(b, s, s.units)))));
    this.root.replaceChildren(...nodes);
    // the buttons were rebuilt: bring the keyboard back to the top of the decisions
    if (hadFocus) head.focus();
  }
}
