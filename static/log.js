// Events in words, for the game log and the battle board.
import { SIDE_NAME } from "./map.js";

export function typeOfUnit(id) {
  const parts = String(id || "").split("-");
  return parts.length >= 3 ? parts[1] : "";
}

export class Describer {
  constructor(boxes, types) { this.boxes = boxes; this.types = types; this.battleBox = null; }
  box(id) { const b = this.boxes.get(id); return b ? b.name : String(id); }
  unit(id) {
    const side = String(id).startsWith("U-") ? "Union" : String(id).startsWith("C-") ? "Confederate" : "";
    const t = this.types[typeOfUnit(id)];
    return `${side} ${t ? t.name : id}`.trim();
  }
  side(s) { return SIDE_NAME[s] || s || ""; }

  // a modifier note for a shot: need = combat value + target's defence, -1 entrenched, +1 river (5.3)
  modifier(ev) {
    const st = this.types[typeOfUnit(ev.unit)], tt = this.types[typeOfUnit(ev.target)];
    if (!st || ev.need === undefined) return "";
    const parts = [];
    if (tt && tt.defense) parts.push(`crack target ${tt.defense}`);
    const d = ev.need - st.combat - ((tt && tt.defense) || 0);
    if (d === -1) parts.push("entrenched −1");
    else if (d === 1) parts.push("river +1");
    else if (d < -1 || d > 1) parts.push(`${d > 0 ? "+" : "−"}${Math.abs(d)}`);
    return parts.join(", ");
  }

  // -> {text, boxes[], heading?} or null to skip
  describe(e) {
    const d = e.data || {};
    const who = this.side(d.side || e.actor);
    if (e.source === "server") {
      switch (e.type) {
        case "create": return { text: `${d.by} created the game (${d.scenario}${d.options && d.options.length ? ", options " + d.options.join(", ") : ""}).` };
        case "join": return { text: `${d.username} takes the ${this.side(d.side)} seat.` };
        case "start": return { text: `The game begins: the ${this.side(d.to_act)} player moves first.` };
        case "undo": return { text: `${this.side(d.side)} took back a decision.`, undo: d };
        case "resign": return { text: `${d.username} (${this.side(d.side)}) resigns.` };
        case "abort": return { text: `${d.by} aborted the game.` };
        case "rewind": return { text: `An administrator (${d.by}) rewound the game to seq ${d.back_to}: ${d.reason}`, cls: "over", undo: d };
        case "adjudicate": return { text: `An administrator (${d.by}) adjudicated the game: ${d.result && d.result.winner ? this.side(d.result.winner) + " wins" : "a draw"}. ${d.reason}`, cls: "over" };
        case "annul": return { text: `An administrator (${d.by}) annulled the game: ${d.reason}`, cls: "over" };
        case "auto": return { text: d.text || `Automatic: ${d.action && d.action.type}`, cls: "auto" };
        default: return { text: d.text || `${e.type}` };
      }
    }
    switch (e.type) {
      case "player_turn": return { heading: `Turn ${d.turn} · ${d.date} · ${this.side(d.side)} player turn` };
      case "action": return this.action(d.side, d.action || {});
      case "roll": return this.roll(d);
      case "battle": this.battleBox = d.box;
        return { text: `Battle at ${this.box(d.box)}: the ${this.side(d.attacker)} attacks.`, boxes: [d.box], cls: "ev-battle" };
      case "reduced": return { text: `${this.unit(d.unit)} is reduced.`, units: [d.unit], boxes: this.battleBox ? [this.battleBox] : [] };
      case "eliminated": return { text: `${this.unit(d.unit)} is eliminated.`, units: [d.unit], boxes: this.battleBox ? [this.battleBox] : [], cls: "loss" };
      case "impossible_shot": return { text: `${this.unit(d.unit)} cannot hit ${this.unit(d.target)} (combat value below 1, 5.33).` };
      case "shot_wasted": return { text: `${this.unit(d.unit)} had no target left (5.1).` };
      case "retreated": return { text: `The ${this.side(d.side)} retreats from ${this.box(d.box)} to ${this.box(d.to)}.`, boxes: [d.box, d.to] };
      case "withdrew": return { text: `The defending cavalry withdraws from ${this.box(d.box)} to ${this.box(d.to)}.`, boxes: [d.box, d.to] };
      case "battle_won": return { text: `The ${this.side(d.winner)} wins the battle of ${this.box(d.box)} (round ${d.round}).`, boxes: [d.box], cls: "ev-battle" };
      case "promoted": return { text: `${this.unit(d.unit)} at ${this.box(d.box)} is promoted to ${this.types[typeOfUnit(d.to)] ? this.types[typeOfUnit(d.to)].name : d.to}.`, boxes: [d.box] };
      case "recruited": return { text: `${this.unit(d.unit)} recruited at ${this.box(d.box)}.`, boxes: [d.box] };
      case "refitted": return { text: `${this.unit(d.unit)} is refitted.` };
      case "drafted": return { text: `${this.unit(d.unit)} drafted into the Recruitment Pool (7.2).` };
      case "captured": return { text: `The ${this.side(d.side)} captures ${this.box(d.box)}.`, boxes: [d.box], cls: "capture" };
      case "control_reverts": return { text: `${this.box(d.box)} reverts to its original owner.`, boxes: [d.box] };
      case "kentucky_entered": return { text: `Kentucky's neutrality is violated by ${this.unit(d.unit)}.` };
      case "game_over": return { text: `Game over: ${d.winner ? this.side(d.winner) + " wins. " : ""}${d.reason || ""}`, cls: "over" };
      default: return { text: `${e.type} ${JSON.stringify(d)}` };
    }
  }

  action(side, a) {
    const s = this.side(side);
    switch (a.type) {
      case "activate": return { text: `${s} activates ${this.box(a.box)} (a March).`, boxes: [a.box] };
      case "move": {
        const by = [...new Set(a.by || [])].join("/");
        return { text: `${s}: ${this.unit(a.unit)} moves to ${(a.path || []).map((b) => this.box(b)).join(" → ")} (${by}).`, boxes: a.path || [], units: [a.unit] };
      }
      case "entrench": return { text: `${s}: ${this.unit(a.unit)} entrenches.`, units: [a.unit] };
      case "sea_move": return { text: `${s}: ${this.unit(a.unit)} moves by sea to ${this.box(a.to)}.`, boxes: [a.to], units: [a.unit] };
      case "invade": return { text: `${s}: ${this.unit(a.unit)} makes a naval invasion of ${this.box(a.to)}.`, boxes: [a.to], units: [a.unit] };
      case "end_march": return { text: `${s} ends the March.`, minor: true };
      case "end_movement": return { text: `${s} ends movement.`, minor: true };
      case "fight": return null;   // the battle event says it
      case "withdraw": return null;
      case "stand": return { text: `${s}: the cavalry stands and fights.` };
      case "retreat": return null;
      case "reinforce": return { text: `${s}: ${this.unit(a.unit)} reinforces the battle.`, units: [a.unit], boxes: this.battleBox ? [this.battleBox] : [] };
      case "open_fire": return { text: `${s} opens fire.`, minor: true };
      case "target": return { text: `${s}: ${this.unit(a.unit)} will fire at ${this.unit(a.target)}.`, minor: true, units: [a.unit, a.target] };
      case "promote": return null;
      case "no_promotion": return { text: `${s} promotes nobody.`, minor: true };
      case "roll_marches": case "roll_recruits": case "roll_replacements": return null;
      case "recruit": return null;
      case "end_recruitment": return { text: `${s} ends recruitment.`, minor: true };
      case "refit": return null;
      default: return { text: `${s}: ${a.type}` };
    }
  }

  roll(d) {
    const s = this.side(d.side);
    if (d.purpose === "marches") {
      const m = d.value === 1 ? 2 : d.value;
      return { text: `${s} rolls ${d.value}: ${m} marches${d.value === 6 ? " (and a naval invasion)" : ""}.`, die: d.value };
    }
    if (d.purpose === "recruits") {
      return { text: `${s} rolls ${d.value}: ${d.value === 1 ? 2 : d.value} recruitment points.`, die: d.value };
    }
    if (d.purpose === "replacements") return { text: `${s} rolls ${d.value} for replacements (6.2).`, die: d.value };
    if (d.purpose === "fire") {
      const hit = d.value <= d.need;
      const mod = this.modifier(d);
      return { text: `${this.unit(d.target)}${this.battleBox ? " at " + this.box(this.battleBox) : ""} ${hit ? "hit" : "missed"} on a ${d.value} (needs ${d.need} or less${mod ? "; " + mod : ""}), fired on by ${this.unit(d.unit)}.`,
               die: d.value, hit, boxes: this.battleBox ? [this.battleBox] : [], units: [d.unit, d.target], cls: hit ? "hit" : "miss" };
    }
    return { text: `${s} rolls ${d.value} (${d.purpose}).`, die: d.value };
  }
}
