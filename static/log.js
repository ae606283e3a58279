// Events for the game log and the battle board: the words come from words.js (the
// server's templates); this adds what the page does with a line (boxes to flash, units,
// the die shown beside it, its style).
import { Narrator, WORDS, fill, part, tidy } from "./words.js";

export function typeOfUnit(id) {
  const parts = String(id || "").split("-");
  return parts.length >= 3 ? parts[1] : "";
}

export class Describer {
  constructor(boxes, types, locate) {
    this.boxes = boxes; this.types = types;
    this.narrator = new Narrator((id) => this.box(id), locate);
  }
  get battleBox() { return this.narrator.battleBox; }
  set battleBox(b) { this.narrator.battleBox = b; if (b === null) this.narrator.reset(); }
  box(id) { const b = this.boxes.get(id); return b ? b.name : String(id); }
  unit(id) { return this.narrator.unit(id); }

  // a modifier note for a shot: need = combat value + target's defence, -1 entrenched, +1 river (5.3)
  modifier(ev) {
    const st = this.types[typeOfUnit(ev.unit)], tt = this.types[typeOfUnit(ev.target)];
    if (!st || ev.need === undefined) return "";
    const parts = [];
    if (tt && tt.defense) parts.push(part("crack_target", { n: tt.defense }));
    const d = ev.need - st.combat - ((tt && tt.defense) || 0);
    if (d === -1) parts.push(part("entrenched"));
    else if (d === 1) parts.push(part("river"));
    else if (d < -1 || d > 1) parts.push(`${d > 0 ? "+" : "−"}${Math.abs(d)}`);
    return parts.join(", ");
  }

  // -> {text, boxes[], units[], heading?, die?, hit?, cls, minor} or null to skip
  describe(e) {
    const said = this.narrator.say(e);
    if (!said.text) return null;
    const d = e.data || {};
    const out = { text: said.text, cls: said.cls, minor: said.minor, ...this.links(e) };
    if (said.key === "player_turn") return { heading: said.text };
    if (e.type === "roll") { out.die = d.value; if (d.purpose === "fire") out.hit = said.key === "roll.fire.hit"; }
    return out;
  }

  // a line for an event the log leaves out (the replay lists every event)
  plain(e) {
    const key = e.type === "action" && e.source !== "server" ? "action.other" : "other";
    const values = this.narrator.values(e, key);
    return { text: tidy(fill(WORDS.events[key], values)), cls: "minor", minor: true, ...this.links(e) };
  }

  // the boxes and units a line is about (a click on it shows them)
  links(e) {
    const d = e.data || {};
    const src = e.type === "action" && e.source !== "server" ? d.action || {} : d;
    const boxes = [src.box, src.to, ...(src.path || [])].filter((b) => typeof b === "string" && this.boxes.has(b));
    const units = [src.unit, src.target].filter(Boolean);
    const inBattle = (e.type === "roll" && d.purpose === "fire") || e.type === "reduced" || e.type === "eliminated" || src.type === "reinforce";
    if (!boxes.length && inBattle && this.battleBox) boxes.push(this.battleBox);
    return { boxes, units };
  }
}
