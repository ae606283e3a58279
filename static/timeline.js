// Looking back inside the game page: a click on a line of the log, or the left and right
// arrow keys, shows the board as it was after that line, with a bar over the map that says
// so and leads back to now. Live changes meanwhile never take the view away: the bar counts
// them, and "Back to now" shows them.
//
// The past states are the replay's (GET /api/games/{id}/replay: the state after every
// decision, folded once with foldFrames as the replay page does); the bundle is asked for
// when the player first looks back, and again when they step past its end.
import { el } from "./api.js";
import { foldFrames } from "./game-state.js";
import { lastMoveMarks } from "./last-move.js";
import { t, tn } from "./i18n.js";

// the index of the last event at or before seq (events in seq order)
export function indexOfSeq(events, seq) {
  let lo = 0, hi = events.length - 1;
  if (hi < 0 || events[0].seq > seq) return -1;
  while (lo < hi) { const m = (lo + hi + 1) >> 1; if (events[m].seq <= seq) lo = m; else hi = m - 1; }
  return lo;
}

// The states after each event, from the replay bundle.
export class Timeline {
  constructor(gid, api) { this.gid = gid; this.api = api; this.events = []; this.states = []; this.loading = null; }
  get lastSeq() { return this.events.length ? this.events[this.events.length - 1].seq : -1; }
  load() {
    if (!this.loading) {
      this.loading = this.api(`/api/games/${encodeURIComponent(this.gid)}/replay`)
        .then((b) => { this.events = b.events; this.states = foldFrames(b.frames); })
        .finally(() => { this.loading = null; });
    }
    return this.loading;
  }
  async stateAfter(seq) {
    if (this.lastSeq < seq) await this.load();
    const i = indexOfSeq(this.events, seq);
    return i < 0 ? null : this.states[this.events[i].frame];
  }
}

export class PastView {
  // hooks: map (MapView), log (the <ol> of the game log), host (the map's wrapper, for the
  // bar), api, gid, events() (every event, in seq order), counts(e) (still in effect),
  // viewer() (the sides this reader plays), toNow() (redraw the live board)
  constructor(hooks) {
    Object.assign(this, hooks);
    this.timeline = new Timeline(this.gid, this.api);
    this.seq = null;     // the event the board shows the game after; null: now
    this.fresh = 0;      // decisions that came while looking back
    this.what = el("span", { class: "past-what" });
    this.news = el("span", { class: "past-new", hidden: true });
    this.bar = el("div", { class: "past-bar", id: "past-bar", role: "status", hidden: true }, this.what, this.news,
      el("button", { type: "button", id: "back-to-now", class: "primary", onclick: () => this.toNowAgain() }, t("Back to now")));
    this.host.append(this.bar);
  }
  get active() { return this.seq !== null; }

  // the log's lines that can be looked at, oldest first
  entries() { return [...this.log.querySelectorAll("li.ev[data-seq]:not(.undone)")].map((li) => +li.dataset.seq); }

  // one line back (-1) or on (+1); on from the last but one line is now
  step(dir) {
    const list = this.entries();
    if (!list.length) return;
    const at = this.active ? list.indexOf(this.seq) : list.length - 1;
    const next = (at < 0 ? list.length - 1 : at) + dir;
    if (next >= list.length - 1) { if (this.active) this.toNowAgain(); return; }
    this.show(list[Math.max(0, next)]);
  }

  async show(seq) {
    const list = this.entries();
    if (seq >= list[list.length - 1]) { if (this.active) this.toNowAgain(); return; }
    this.seq = seq;
    document.body.classList.add("viewing-past");
    document.body.dataset.past = String(seq);
    this.markLog();
    let state = null;
    try { state = await this.timeline.stateAfter(seq); } catch (e) { this.say(e.message); return; }
    if (this.seq !== seq || !state) return;   // stepped on meanwhile
    this.map.setControl(state);
    this.map.setUnits(state);
    this.map.highlight(new Set(), new Set(), null);
    this.map.showPath(null);
    this.map.showLast(lastMoveMarks(this.events().filter((e) => e.seq <= seq), { viewer: this.viewer(), counts: this.counts }));
    const li = this.log.querySelector(`li[data-seq="${seq}"]`);
    this.say(t("Looking back: {event}", { event: li ? li.textContent : `seq ${seq}` }));
    document.body.dataset.pastShown = String(seq);
  }

  say(words) {
    this.what.textContent = words;
    this.bar.hidden = false;
  }

  // the live game moved on while the player looks back: say so, show nothing yet
  moved(decisions) {
    if (!this.active || !decisions) return;
    this.fresh += decisions;
    this.news.hidden = false;
    this.news.textContent = tn("{n} new move", "{n} new moves", this.fresh);
  }

  toNowAgain() {
    this.seq = null; this.fresh = 0;
    this.bar.hidden = true; this.news.hidden = true;
    document.body.classList.remove("viewing-past");
    delete document.body.dataset.past; delete document.body.dataset.pastShown;
    this.markLog();
    this.toNow();
  }

  markLog() {
    for (const li of this.log.querySelectorAll("li.viewed")) li.classList.remove("viewed");
    const li = this.active && this.log.querySelector(`li[data-seq="${this.seq}"]`);
    if (li) {
      li.classList.add("viewed");
      const box = this.log.parentElement;
      if (li.offsetTop < box.scrollTop || li.offsetTop > box.scrollTop + box.clientHeight - 30) box.scrollTop = li.offsetTop - box.clientHeight / 2;
    }
  }
}
