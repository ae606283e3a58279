// Game events in words, with the server's templates (app/notices/words/catalog.py), which
// the page carries as JSON in <script type="application/json" id="words">. This file keeps
// no sentence of its own: it chooses the template, computes the values and fills it in
// exactly as app/notices/words/narrate.py does for mails and notices.

import { PAGE_WORDS } from "./i18n.js";

export const WORDS = PAGE_WORDS;

const SIDE_OF_PREFIX = { U: "union", C: "confederate" };

export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, k) => (values[k] === undefined || values[k] === null ? "" : String(values[k])));
}

// what empty values leave behind: empty brackets, a stop after a stop, spaces
export function tidy(text) {
  return text.replace(/\s*\(\s*\)/g, "").replace(/([.:])(\s*\.)+/g, "$1").replace(/:\./g, ".").replace(/\s+/g, " ").trim();
}

export function part(name, values) { return fill(WORDS.parts[name], values || {}); }
export function sideName(s) { return WORDS.sides[s] || (s ? String(s) : ""); }
export function phaseName(p) { return WORDS.phases[p] || (p ? String(p) : ""); }
export function statusWords(name, values) { return fill(WORDS.status[name], values || {}); }

const isHit = (d) => Number(d.value ?? 7) <= Number(d.need ?? 0);

function serverKey(t, d) {
  if (d.template && d.template in WORDS.events) return d.template; // the event names its template
  if (d.text) return "server.text";
  if (t === "create" && d.rematch_of) return "server.create_rematch";
  if (t === "adjudicate" && !(d.result && d.result.winner)) return "server.adjudicate_draw";
  return `server.${t}` in WORDS.events ? `server.${t}` : "server.other";
}

// which template says this event
export function templateKey(e) {
  const d = e.data || {}, t = String(e.type);
  if (e.source === "server") return serverKey(t, d);
  if (t === "action") {
    const k = `action.${(d.action || {}).type}`;
    return k in WORDS.events ? k : "action.other";
  }
  if (t === "roll") {
    if (d.purpose === "fire") return isHit(d) ? "roll.fire.hit" : "roll.fire.miss";
    return `roll.${d.purpose}` in WORDS.events ? `roll.${d.purpose}` : "roll.other";
  }
  if (t === "game_over" && !d.winner) return "game_over_draw";
  return t in WORDS.events ? t : "other";
}

const titleCase = (v) => String(v).replace(/_/g, " ").replace(/\w\S*/g, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase());
const sentence = (v) => String(v ?? "").replace(/[\s.]+$/, "");

// Says events one after another, remembering what a sentence needs from earlier events:
// the box of the battle being fought and where units were last seen. `boxName(id)` names
// a box; `locate(unit)` may say where a unit stands before the event being said.
export class Narrator {
  constructor(boxName, locate) {
    this.boxName = boxName; this.locate = locate || null;
    this.battleBox = null; this.seenAt = new Map();
  }
  reset() { this.battleBox = null; this.seenAt = new Map(); }

  box(id) { return this.boxName(id); }
  unit(id) {
    const parts = String(id).split("-");
    if (parts.length < 3 || !(parts[0] in SIDE_OF_PREFIX)) return String(id);
    const rest = parts.slice(2).join("-");
    const boxed = this.boxName(rest);
    const number = /^\d+$/.test(rest) ? String(Number(rest)) : (boxed !== rest ? boxed : rest);
    return part("unit", { side: WORDS.sides[SIDE_OF_PREFIX[parts[0]]], type: parts[1], number });
  }
  formatted(kind, v) {
    if (v === null || v === undefined) return "";
    switch (kind) {
      case "unit": return this.unit(v);
      case "box": return this.box(v);
      case "path": return (v || []).map((b) => this.box(b)).join(" → ");
      case "side": return sideName(v);
      case "leader": return WORDS.leaders[v] || String(v).charAt(0).toUpperCase() + String(v).slice(1);
      case "by_side": return Object.keys(v).sort().reverse().map((s) => `${sideName(s)} ${v[s]}`).join(", ");
      case "ways": return Array.isArray(v) ? [...new Set(v.map((w) => WORDS.ways[String(w)] || String(w)))].join(", ") : String(v);
      case "list": return Array.isArray(v) ? [...new Set(v.map(String))].join(", ") : String(v);
      case "sentence": return sentence(v);
      case "title": return titleCase(v);
      default: return String(v);
    }
  }

  raw(e) {
    let d = { ...(e.data || {}) };
    if (e.type === "action" && e.source !== "server") d = { ...(d.action || {}), side: d.side };
    else if (e.source === "server" && d.result && typeof d.result === "object" && !("winner" in d)) d.winner = d.result.winner;
    if (!("type" in d)) d.type = e.type;
    return d;
  }
  values(e, key) {
    const d = this.raw(e);
    const kinds = { ...WORDS.fields, ...(WORDS.field_overrides[key] || {}) };
    const out = {};
    for (const [k, v] of Object.entries(d)) out[k] = this.formatted(kinds[k] || "plain", v);
    out.marches = out.points = String(d.value === 1 ? 2 : d.value);
    out.invasion_note = key === "roll.marches" && d.value === 6 ? WORDS.parts.invasion_note : "";
    out.options_note = d.options && d.options.length ? fill(WORDS.parts.options_note, out) : "";
    out.action_type = String((d.action && d.action.type) || d.type || "").replace(/_/g, " ");
    const box = this.battleBox;
    out.at_battle = box ? part("at_battle", { box: this.box(box) }) : "";
    if (key === "server.auto_forced" || key === "server.auto_orders") {
      out.choice = this.choice(d.action || {});
      out.order_words = fill(WORDS.parts[`order_${d.order_key}`] || "", out);
    }
    const cameFrom = key === "action.reinforce" ? this.where(d.unit) : null;
    out.from_box = cameFrom && cameFrom !== box ? part("from_box", { from: this.box(cameFrom) }) : "";
    return out;
  }
  // a legal action in the words of its button on the game page (choices)
  choice(a) {
    const template = WORDS.choices[String(a.type)];
    if (typeof template !== "string") return String(a.type || "").replace(/_/g, " ");
    const values = {};
    for (const [k, v] of Object.entries(a)) values[k] = this.formatted(WORDS.fields[k] || "plain", v);
    const path = a.path || [];
    values.dest = path.length ? this.box(path[path.length - 1]) : "";
    values.by_words = [...new Set((a.by || []).map((w) => WORDS.ways[String(w)] || String(w)))].join(WORDS.choices.by_joiner);
    return tidy(fill(template, values));
  }
  where(uid) {
    if (uid === undefined || uid === null) return null;
    return (this.locate && this.locate(uid)) || this.seenAt.get(uid) || null;
  }

  // -> {key, text} (text null when another event of the same decision says it)
  say(e) {
    const key = templateKey(e);
    if (e.type === "battle" && e.source !== "server") this.battleBox = (e.data || {}).box;
    const t = WORDS.events[key];
    const text = t ? tidy(fill(t, this.values(e, key))) : null;
    this.follow(e);
    return { key, text, minor: WORDS.minor.includes(key), cls: WORDS.style[key] || "" };
  }

  // where units went, as far as the events say (for "reinforces ... from X")
  follow(e) {
    const d = e.data || {}, t = e.type;
    const a = t === "action" && e.source !== "server" ? d.action || {} : {};
    if (a.type === "move" && a.path && a.path.length) this.seenAt.set(a.unit, a.path[a.path.length - 1]);
    else if (a.type === "sea_move" || a.type === "invade") this.seenAt.set(a.unit, a.to);
    else if (a.type === "reinforce" && this.battleBox) this.seenAt.set(a.unit, this.battleBox);
    else if ((t === "recruited" || t === "promoted") && d.box) this.seenAt.set(t === "promoted" ? d.to : d.unit, d.box);
    else if (["retreated", "withdrew", "routed_retreat", "eliminated", "drafted"].includes(t)) {
      for (const [u, b] of [...this.seenAt]) if (b === d.box || u === d.unit) this.seenAt.delete(u);
    }
  }
}
