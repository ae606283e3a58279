// The replay viewer: step through a game's stored history (or an exported file) with the
// map, units, tracks and log as they were. The server sends every event and the states
// after each decision (first in full, then what changed); the browser builds every state
// once, so stepping is a lookup and a redraw. With the seed revealed, every die is
// recomputed here with WebCrypto (HMAC-SHA256, see docs/dice.md) and marked ✓ or ✗.
import { api, el } from "./api.js";
import { MapView, SIDE_NAME } from "./map.js";
import { Describer } from "./log.js";
import { foldFrames } from "./game-state.js";
import { WORDS, phaseName, sideName, statusWords } from "./words.js";
import { t, tn } from "./i18n.js";
import { markPosition, showAnalysis } from "./analysis.js";
import { lastMoveMarks } from "./last-move.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const $ = (id) => document.getElementById(id);
const metrics = window.__replay = { stepMs: [], loadMs: 0, buildMs: 0 };

// A game is drawn on the map of the engine version it was played with: the replay
// bundle brings that map, and a file from an older version may need another one.
let map = null, describer = null, before = null;
function showMap(data) {
  if (map && map.map === data) return;
  const fresh = $("map").cloneNode(false);          // drops the old drawing and its listeners
  $("map").replaceWith(fresh);
  map = new MapView(fresh, data, boot.types);
  map.animate = false;
  // where a unit stood before the event being said: the state of the frame before it
  describer = new Describer(map.boxes, boot.types, (id) => {
    const u = before && before.units.find((x) => x.id === id);
    return u && map.boxes.has(u.loc) ? u.loc : null;
  });
}
showMap(boot.map);
const R = { bundle: null, events: [], states: [], cur: -1, shown: -1, items: [], said: [], verified: new Map() };

// ---------------------------------------------------------------------------- loading
async function loadGame(id) {
  const t0 = performance.now();
  const b = await api(`/api/games/${encodeURIComponent(id)}/replay`);
  metrics.loadMs = performance.now() - t0;
  start(b);
}

async function loadFile(file) {
  $("file-msg").textContent = t("Checking and replaying…");
  try {
    const text = await file.text();
    const res = await fetch("/api/replay/file", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const data = await res.json();
    if (!res.ok) throw new Error(data.detail || t("The server answered with an error ({status}).", { status: res.status }));
    $("file-msg").textContent = data.verified ? t("The file checks out.")
      : tn("{n} problem found (see Verify).", "{n} problems found (see Verify).", data.problems.length);
    start(data);
  } catch (e) { $("file-msg").textContent = t("Could not open the file: {reason}", { reason: e.message }); }
}

function buildStates(frames) {
  const t0 = performance.now();
  const out = foldFrames(frames);
  metrics.buildMs = performance.now() - t0;
  return out;
}

function start(b) {
  if (b.map) showMap(b.map);
  R.bundle = b;
  R.events = b.events;
  R.states = buildStates(b.frames);
  const g = b.game;
  for (const side of ["union", "confederate"]) $(`seat-${side}`).textContent = (g.seats && g.seats[side]) || "?";
  buildLog();
  buildJumps();
  renderDice();
  renderVerify();
  setupDispute();
  const want = Number(new URLSearchParams(location.hash.slice(1)).get("seq") || boot.seq || 0);
  go(want ? indexOfSeq(want) : R.events.length - 1);
  document.body.dataset.ready = "1";
  if (g.seed) verifyDice(g.seed, g.seed_commitment);
  // once the game is over, everyone sees the expert's evaluation; a point steps here
  if (boot.game_id && (g.status === "finished" || g.status === "aborted")) {
    showAnalysis($("analysis"), boot.game_id, { sideName, href: (p) => `#seq=${p.seq}`, pick: (p) => go(indexOfSeq(p.seq)) })
      .then(() => markPosition($("analysis"), R.events[R.cur].seq));
  }
}

// ---------------------------------------------------------------------------- log
function buildLog() {
  const items = [];
  describer.battleBox = null;
  R.items = R.events.map((e, i) => {
    before = i > 0 ? R.states[R.events[i - 1].frame] : null;
    let d = null;
    try { d = describe(e); } catch (err) { d = { text: e.type }; }
    R.said[i] = d;
    const li = el("li", { class: `ev future ${d.cls || ""} ${e.status !== "effective" ? e.status : ""} ${e.source === "server" && ADMIN_TYPES.has(e.type) ? "admin" : ""}`,
                          "data-seq": e.seq, "data-i": i, tabindex: 0, title: `seq ${e.seq}${e.status !== "effective" ? " · " + eventStatus(e.status) : ""}` },
      d.heading ? el("strong", {}, d.heading) : null,
      d.die ? el("span", { class: `die-inline${d.hit === true ? " hit" : d.hit === false ? " miss" : ""}` }, String(d.die)) : null,
      d.text || "",
      e.roll_index !== undefined ? el("span", { class: "vmark", "data-roll": e.seq, title: t("die number {number} of the game", { number: e.roll_index + 1 }) }, `#${e.roll_index + 1}`) : null);
    items.push(li);
    return li;
  });
  before = null;
  $("log").replaceChildren(...items);
}

const ADMIN_TYPES = new Set(["rewind", "adjudicate", "annul"]);
// an event no longer in effect says why: undone, or superseded (by a rewind)
const EVENT_STATUS = { undone: t("undone"), superseded: t("superseded") };
const eventStatus = (status) => EVENT_STATUS[status] || status;
// every event gets a line here, also those the game log leaves out
function describe(e) {
  return describer.describe(e) || describer.plain(e);
}

// ---------------------------------------------------------------------------- jumps
function buildJumps() {
  const turns = new Map(), segs = [], battles = [];
  let lastSeg = "";
  R.events.forEach((e, i) => {
    const s = R.states[e.frame];
    if (!turns.has(s.turn)) turns.set(s.turn, i);
    const seg = `${s.turn}|${s.side}|${phaseName(s.phase)}`;
    if (seg !== lastSeg) { segs.push([i, `T${s.turn} ${s.date || ""} · ${sideName(s.side)} ${phaseName(s.phase)}`]); lastSeg = seg; }
    if (e.type === "battle") battles.push([i, `T${s.turn} · ${describer.box(e.data.box)} (seq ${e.seq})`]);
  });
  const fill = (sel, opts) => { sel.replaceChildren(sel.firstElementChild, ...opts.map(([i, words]) => el("option", { value: i }, words))); };
  fill($("r-turn"), [...turns].map(([t, i]) => [i, `${statusWords("turn_info", { turn: t })} · ${R.states[R.events[i].frame].date || ""}`]));
  fill($("r-seg"), segs);
  fill($("r-battle"), battles);
}

function indexOfSeq(seq) {
  let lo = 0, hi = R.events.length - 1;
  while (lo < hi) { const m = (lo + hi + 1) >> 1; if (R.events[m].seq <= seq) lo = m; else hi = m - 1; }
  return lo;
}

// ---------------------------------------------------------------------------- stepping
function isStop(i) {
  if (!$("r-decisions").checked) return true;
  const e = R.events[i], n = R.events[i + 1];
  return !n || n.source === "server" || (n.data && n.data.type === "action") || e.type === "roll";
}
function step(dir) {
  let i = R.cur + dir;
  while (i > 0 && i < R.events.length - 1 && !isStop(i)) i += dir;
  go(i);
}

function go(i) {
  if (!R.events.length) return;
  const t0 = performance.now();
  i = Math.max(0, Math.min(R.events.length - 1, i));
  const prev = R.cur;
  R.cur = i;
  const e = R.events[i];
  const s = R.states[e.frame];
  if (R.shown !== e.frame) {
    map.setControl(s);
    map.setUnits(s);
    R.shown = e.frame;
  }
  // the last move as the game page marks it: the decisions of whoever moved last
  map.showLast(lastMoveMarks(R.events.slice(0, i + 1), { counts: (x) => x.status === "effective" }));
  // the log: events up to here visible, this one marked
  const lo = Math.min(prev < 0 ? 0 : prev, i), hi = Math.max(prev, i);
  for (let k = prev < 0 ? 0 : lo; k <= (prev < 0 ? R.items.length - 1 : hi); k++) R.items[k].classList.toggle("future", k > i);
  if (prev >= 0 && R.items[prev]) R.items[prev].classList.remove("current");
  R.items[i].classList.add("current");
  const box = $("log").parentElement;
  const li = R.items[i];
  if (li.offsetTop < box.scrollTop || li.offsetTop > box.scrollTop + box.clientHeight - 30) box.scrollTop = li.offsetTop - box.clientHeight / 2;
  const flash = (R.said[i].boxes || []).filter((b) => map.boxes.has(b));
  if (flash.length) map.flash(flash);
  renderStatus(s, e);
  const bd = document.body.dataset;
  bd.seq = e.seq; bd.frame = e.frame; bd.turn = s.turn; bd.phase = s.phase;
  $("r-seq").value = e.seq;
  $("r-pos").textContent = t("seq {seq} of {last}", { seq: e.seq, last: R.events[R.events.length - 1].seq })
    + (e.status !== "effective" ? ` · ${eventStatus(e.status)}` : "");
  if ($("dispute-seq")) $("dispute-seq").textContent = e.seq;
  history.replaceState(null, "", `#seq=${e.seq}`);
  markPosition($("analysis"), e.seq);
  metrics.stepMs.push(performance.now() - t0);
}

function renderStatus(s, e) {
  $("turn-info").replaceChildren(el("strong", {}, statusWords("turn_info", { turn: s.turn })), ` · ${s.date || ""} · `,
    el("span", { class: `side-${s.side}` }, statusWords("player_turn", { side: sideName(s.side) })), ` · ${phaseName(s.phase)}`,
    s.phase === "movement" ? ` · ${statusWords(s.marches === 1 ? "marches_left" : "marches_left_plural", { marches: s.marches })}` : "",
    s.battle ? ` · ${statusWords("battle_round", { box: describer.box(s.battle.box), round: s.battle.round })}` : "",
    s.result ? ` · ${s.result.annulled ? statusWords("annulled") : s.result.winner ? statusWords("wins", { winner: sideName(s.result.winner) }) : statusWords("drawn")}` : "");
  const track = $("track");
  if (!track.childElementCount) for (const when of WORDS.calendar) track.append(el("li", { "data-turn": when.turn, title: `${statusWords("turn_info", when)}: ${when.label}` }, ""));
  for (const li of track.children) { li.classList.toggle("now", +li.dataset.turn === s.turn); li.classList.toggle("past", +li.dataset.turn < s.turn); }
  const cols = ["union", "confederate"].map((side) => {
    const mine = s.units.filter((u) => u.side === side);
    const count = (loc) => { const c = {}; for (const u of mine) if (u.loc === loc) c[u.type] = (c[u.type] || 0) + 1; return c; };
    const fmt = (c) => Object.keys(c).length ? Object.entries(c).sort().map(([type, n]) => `${n} ${type}`).join(", ") : t("none");
    return el("section", { class: `force ${side}` }, el("h3", {}, SIDE_NAME[side]),
      el("dl", {}, el("dt", {}, t("On the map")), el("dd", { "data-stat": `${side}-onmap` }, t("{count} of {max} (Army Maximum)", { count: s.on_map[side], max: s.army_max[side] })),
        el("dt", {}, t("Recruitment Pool")), el("dd", {}, fmt(count("pool")))));
  });
  $("forces").replaceChildren(el("div", { class: "forces" }, ...cols));
}

// ---------------------------------------------------------------------------- dice
function renderDice() {
  const st = R.bundle.dice;
  if (!st) return;
  const seats = R.bundle.game.seats || {};
  const table = (name, a) => el("div", {},
    el("h4", {}, name),
    el("table", { class: "faces" }, el("tr", {}, el("th", {}, t("face")), ...[1, 2, 3, 4, 5, 6].map((f) => el("th", {}, String(f))), el("th", {}, t("rolls"))),
      el("tr", {}, el("td", {}, t("count")), ...a.faces.map((c) => el("td", {}, String(c))), el("td", {}, String(a.rolls))),
      el("tr", {}, el("td", {}, t("expected")), ...a.faces.map(() => el("td", {}, (a.rolls / 6).toFixed(1))), el("td", {}, ""))),
    el("p", { class: "hint" }, t("mean {mean} (fair: 3.5) · χ² {chi} (above 11.07 happens 1 time in 20 with fair dice)", { mean: a.mean ?? "–", chi: a.chi_square ?? "–" }),
      a.shots ? " · " + t("fire: {hits} hits from {shots} shots, {expected} expected ({luck})",
        { hits: a.hits, shots: a.shots, expected: a.expected_hits, luck: (a.luck >= 0 ? "+" : "") + a.luck }) : ""));
  $("dice-stats").replaceChildren(
    table(`${SIDE_NAME.union}${seats.union ? " (" + seats.union + ")" : ""}`, st.union),
    table(`${SIDE_NAME.confederate}${seats.confederate ? " (" + seats.confederate + ")" : ""}`, st.confederate),
    table(t("All dice of the game"), st.all),
    el("p", { class: "hint" }, t("Dice of superseded events are left out. A player's dice over all games: {address}.", { address: "/api/users/NAME/dice" })));
}

// ---------------------------------------------------------------------------- verification
function renderVerify(extra) {
  const g = R.bundle.game, b = R.bundle;
  const rows = [
    el("h3", {}, t("Verifiable dice")),
    el("p", {}, t("Seed commitment (SHA-256 of the secret seed, published at the start):")), el("p", { class: "mono", id: "commitment" }, g.seed_commitment || t("none")),
    g.seed ? el("p", {}, t("Seed (revealed because the game is over):"))
      : el("p", {}, t("The seed is revealed when the game ends; then every die can be recomputed here and with {command}.", { command: "python -m rules_engine verify" })),
    g.seed ? el("p", { class: "mono", id: "seed" }, g.seed) : null,
    el("p", { id: "dice-check", role: "status" }, g.seed ? t("Recomputing every die…") : ""),
    el("h3", {}, t("Tamper-evident log")),
    el("p", {}, t("Chain head (hash of the whole history):")), el("p", { class: "mono", id: "chain-head" }, g.chain_head || "–"),
    el("p", { id: "chain-check" }, b.chain_ok ? `✓ ${t("the hash chain is intact from the header to the last event.")}` : `✗ ${t("the hash chain is broken:")}`),
  ];
  const probs = b.chain_problems || b.problems || [];
  if (probs.length) rows.push(el("ul", { class: "problems", id: "problems" }, ...probs.map((p) => el("li", {}, p))));
  if (b.verified !== undefined) rows.push(el("p", { id: "file-verdict" }, b.verified ? `✓ ${t("verified: chain, dice and every decision re-decided by the rules engine.")}` : `✗ ${t("this file does not verify.")}`));
  if (extra) rows.push(extra);
  $("verify").replaceChildren(...rows.filter(Boolean));   // (replaceChildren writes a null as "null")
}

const enc = (s) => new TextEncoder().encode(s);
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
export async function seededRoll(key, index) {
  for (let attempt = 0; ; attempt++) {
    const msg = attempt === 0 ? String(index) : `${index}/${attempt}`;
    const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc(msg)));
    for (const b of sig) if (b < 252) return (b % 6) + 1;
  }
}
async function verifyDice(seed, commitmentHex) {
  const out = $("dice-check");
  if (!window.crypto || !crypto.subtle) {
    out.textContent = t("This browser offers no WebCrypto here (it needs https): check with {command}.", { command: "python -m rules_engine verify" });
    return;
  }
  const t0 = performance.now();
  const digest = hex(await crypto.subtle.digest("SHA-256", enc(seed)));
  const commitOk = digest === commitmentHex;
  const key = await crypto.subtle.importKey("raw", enc(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let ok = 0, bad = 0;
  for (const e of R.events) {
    if (e.roll_index === undefined) continue;
    const want = await seededRoll(key, e.roll_index);
    const good = want === e.data.value;
    good ? ok++ : bad++;
    const mark = R.items[R.events.indexOf(e)].querySelector(".vmark");
    if (mark) { mark.classList.add(good ? "ok" : "bad"); mark.textContent = good ? `#${e.roll_index + 1} ✓` : `#${e.roll_index + 1} ✗ ${t("seed gives {value}", { value: want })}`; }
  }
  const ms = Math.round(performance.now() - t0);
  out.textContent = `${commitOk ? `✓ ${t("the seed matches the commitment.")}` : `✗ ${t("the seed does NOT match the commitment!")}`} ` +
    (bad ? `${tn("{n} die recomputed in this browser from the seed: {bad} DO NOT match ✗ ({ms} ms).", "{n} dice recomputed in this browser from the seed: {bad} DO NOT match ✗ ({ms} ms).", ok, { bad, ms })}`
      : `${tn("{n} die recomputed in this browser from the seed: all match ✓ ({ms} ms).", "{n} dice recomputed in this browser from the seed: all match ✓ ({ms} ms).", ok, { ms })}`);
  out.dataset.ok = String(commitOk && !bad);
  document.body.dataset.diceChecked = commitOk && !bad ? "ok" : "bad";
}

// ---------------------------------------------------------------------------- disputes
function setupDispute() {
  const g = R.bundle.game;
  const me = boot.user && boot.user.username;
  if (!me || g.from_file || !g.seats || ![g.seats.union, g.seats.confederate].includes(me)) return;
  $("dispute").hidden = false;
  $("dispute-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seq = R.events[R.cur].seq;
    try {
      const d = await api(`/api/games/${encodeURIComponent(g.id)}/disputes`, { seq, text: $("dispute-text").value });
      $("dispute-msg").textContent = t("Dispute #{id} opened about seq {seq}. An administrator will decide; you will be told.", { id: d.id, seq });
      $("dispute-text").value = "";
    } catch (e) { $("dispute-msg").textContent = e.message; }
  });
}

// ---------------------------------------------------------------------------- wiring
$("r-first").addEventListener("click", () => go(0));
$("r-last").addEventListener("click", () => go(R.events.length - 1));
$("r-back").addEventListener("click", () => step(-1));
$("r-fwd").addEventListener("click", () => step(1));
$("r-go").addEventListener("click", () => go(indexOfSeq(+$("r-seq").value)));
$("r-seq").addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(indexOfSeq(+$("r-seq").value)); });
for (const id of ["r-turn", "r-seg", "r-battle"]) $(id).addEventListener("change", (ev) => { if (ev.target.value !== "") go(+ev.target.value); ev.target.value = ""; });
$("log").addEventListener("click", (ev) => { const li = ev.target.closest("li[data-i]"); if (li) go(+li.dataset.i); });
$("zoom-in").addEventListener("click", () => map.zoomBy(1 / 1.4));
$("zoom-out").addEventListener("click", () => map.zoomBy(1.4));
$("zoom-fit").addEventListener("click", () => map.fit());
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select")) return;
  if (ev.key === "ArrowRight") { ev.preventDefault(); step(1); }
  else if (ev.key === "ArrowLeft") { ev.preventDefault(); step(-1); }
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(R.events.length - 1);
});
for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll("[role=tab]")) {
      t.setAttribute("aria-selected", t === tab ? "true" : "false");
      $(t.getAttribute("aria-controls")).hidden = t !== tab;
    }
  });
}
window.__replayGo = (seq) => go(indexOfSeq(seq));

if (boot.game_id) loadGame(boot.game_id).catch((e) => { $("r-pos").textContent = t("Could not load the replay: {reason}", { reason: e.message }); });
else $("file").addEventListener("change", (ev) => { if (ev.target.files[0]) loadFile(ev.target.files[0]); });
