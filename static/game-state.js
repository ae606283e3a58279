// A game as the page knows it, changed only by what the server sends: the websocket's
// "snapshot", "events", "changes" (protocol v2: the state's delta) and "legal" messages (game page), and the replay's frames (the
// full state first, then what changed). Both pages apply them here, so that "what an
// undo takes back" and "the battle just fought" are worked out in one place.

const ENDS_A_BATTLE = new Set(["battle_won", "withdrew", "retreated"]);

export class GameState {
  constructor(summary) {
    summary = summary || {};
    this.seq = -1; this.status = summary.status || null; this.toAct = null; this.result = null; this.state = null;
    this.legal = []; this.legalSeq = -1; this.pendingLegal = null;
    this.yourSides = summary.your_sides || []; this.seats = summary.seats || {};
    this.canUndo = !!summary.can_undo;
    this.events = new Map();     // seq -> event
    this.undone = [];            // [from, through] spans taken back by undo or rewind
    this.lastVolley = [];        // the fire rolls of the last volley
    this.lastBattle = null;      // the event that ended the last battle, until the next one
  }

  applySnapshot(msg) {
    this.seq = msg.seq; this.status = msg.status; this.toAct = msg.to_act; this.result = msg.result;
    this.state = msg.state; this.legal = msg.legal || []; this.legalSeq = msg.seq;
    this.yourSides = msg.your_sides || []; this.seats = msg.seats;
  }

  // An "events" message: `onEvent(e)` sees each event new to this page before the state
  // changes (so a log line can say where a unit came from); returns those events and
  // whether the legal actions for the new seq are still to come.
  applyEvents(msg, onEvent) {
    const added = (msg.events || []).filter((e) => this.addEvent(e));
    this.followBattle(added);
    if (onEvent) for (const e of added) onEvent(e);
    let awaitingLegal = false;
    if (typeof msg.seq === "number" && msg.seq !== this.seq) {
      this.seq = msg.seq;
      if (this.pendingLegal && this.pendingLegal.seq === msg.seq) {
        this.legal = this.pendingLegal.actions || []; this.legalSeq = msg.seq;   // it came first
      } else if (this.legalSeq !== msg.seq) {
        this.legal = []; awaitingLegal = true;                                   // the "legal" message follows
      }
      this.pendingLegal = null;
    }
    if (msg.status) this.status = msg.status;
    if ("to_act" in msg) this.toAct = msg.to_act;
    if ("result" in msg) this.result = msg.result;
    if (msg.state) this.state = msg.state;
    return { added, awaitingLegal };
  }

  // A "changes" message (protocol v2): the events and the state's delta from seq `base`.
  // null when this page is not at `base` (it missed something: the caller resyncs);
  // otherwise what applyEvents returns.
  applyChanges(msg, onEvent) {
    if (msg.base !== this.seq || !this.state) return null;
    const state = applyDelta(this.state, msg.delta || {});
    const out = this.applyEvents({ ...msg, state: null }, onEvent);
    this.state = state;
    return out;
  }

  // A "legal" message: true if it is for the seq shown now (ahead of its events, it waits).
  applyLegal(msg) {
    if (msg.seq === this.seq || msg.seq === undefined) {
      this.legal = msg.actions || []; this.legalSeq = this.seq;
      return true;
    }
    if (msg.seq > this.seq) this.pendingLegal = msg;
    return false;
  }

  // false if the event was known already
  addEvent(e) {
    if (this.events.has(e.seq)) return false;
    this.events.set(e.seq, e);
    if (this.isTakeBack(e)) this.undone.push([e.data.to_seq, e.data.through_seq]);
    return true;
  }
  isUndone(seq) { return this.undone.some(([a, b]) => seq >= a && seq <= b); }
  // an undo or an administrator's rewind: the events it names no longer count
  isTakeBack(e) { return e.source === "server" && (e.type === "undo" || e.type === "rewind"); }

  followBattle(events) {
    const volley = events.filter((e) => e.type === "roll" && e.data && e.data.purpose === "fire");
    if (volley.length) this.lastVolley = volley.map((e) => e.data);
    for (const e of events) {
      if (e.type === "battle" && e.source !== "server") { this.lastVolley = []; this.lastBattle = null; }
      if (ENDS_A_BATTLE.has(e.type)) this.lastBattle = e;
    }
  }

  unit(id) { return this.state ? this.state.units.find((u) => u.id === id) || null : null; }
}

// A state with a delta applied (app/games/records.py state_delta): the top-level keys
// replaced, units by id replaced or added, the units named in units_gone removed.
export function applyDelta(state, delta) {
  const next = { ...state };
  for (const [k, v] of Object.entries(delta)) if (k !== "units" && k !== "units_gone") next[k] = v;
  if (delta.units || delta.units_gone) {
    const units = new Map(state.units.map((u) => [u.id, u]));
    for (const id of delta.units_gone || []) units.delete(id);
    for (const u of delta.units || []) units.set(u.id, u);
    next.units = [...units.values()];
  }
  return next;
}

// The replay's frames as states: the first in full, then only what changed (applyDelta).
export function foldFrames(frames) {
  const out = [];
  let top = null;
  for (const f of frames) {
    top = f.full ? { ...f.full, units: [...f.full.units] } : applyDelta(top, f);
    out.push(top);
  }
  return out;
}
