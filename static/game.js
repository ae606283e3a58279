// The game page: websocket client, prompt and clickable decisions, battle board, log, chat.
// Legality is never computed here: every highlight comes from the server's legal actions,
// and a click on anything else is sent so that the server can say why it is refused.
import { api, el } from "./api.js";
import { MapView, SIDE_NAME, counter } from "./map.js";
import { BoardList } from "./board-list.js";
import { Describer } from "./log.js";
import { GameState } from "./game-state.js";
import { WORDS, fill, part, phaseName, sideName, statusWords } from "./words.js";
import { t } from "./i18n.js";
import { Chat } from "./chat.js";
import { drawControls, endPhaseQuestion, forcedAction, gameOverBanner, recruitLimits, resultWords } from "./decisions.js";
import { placeBoard, volleys } from "./battle-board.js";
import { loadEvents } from "./history.js";
import { lastMoveMarks } from "./last-move.js";
import { PastView } from "./timeline.js";
import { acceptRematch, declineRematch, followAcceptedRematch, offerRematch } from "./rematch.js";
import { Presence } from "./presence.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const GID = boot.game_id;
const prefs = JSON.parse(localStorage.getItem("hd-prefs") || "{}");
const $ = (id) => document.getElementById(id);

const metrics = window.__hd = { latencies: [], wsBytes: 0, messages: 0, renders: 0, forced: [] };

const game = new GameState(boot.summary);
// what this page adds: the open draw offer, the rematch, and the decision it made by itself
Object.assign(game, {
  drawOffer: boot.summary.draw_offer || null, rematch: boot.summary.rematch || null,
  autoSeq: -1,        // the seq at which the page made a decision by itself (nothing to choose)
  autoPending: false, // that decision is on its way
});
const ui = { sel: null, chooser: null, selBox: null, pop: null, opened: false,
  battleOverAt: null };   // the seq at which the "Battle over" board opened

const map = new MapView($("map"), boot.map, boot.types);
map.viewKey = `hd-board-view:${GID}`;   // the player's zoom and place, kept in this browser
map.animate = prefs.animate !== false;
if (prefs.labels === false) $("map").classList.add("no-labels");
const describer = new Describer(map.boxes, boot.types);
// a unit's box before the event being logged: live events are logged before their state is
// applied (a log built from the history has only the latest state, so it does not ask)
const boxBeforeLiveEvent = (id) => { const u = game.unit(id); return u && map.boxes.has(u.loc) ? u.loc : null; };
const boardWords = new Describer(map.boxes, boot.types);   // the battle board's own, apart from the log's
const P = WORDS.prompts;
const say = (template, values) => fill(template, values || {});
const isPlayer = () => game.yourSides.length > 0;
const myTurn = () => game.status === "active" && game.yourSides.includes(game.toAct);
document.body.classList.toggle("spectator", !isPlayer());
const boxName = (id) => (map.boxes.get(id) || { name: id }).name;
const unitById = (id) => game.unit(id);
const uname = (id) => describer.unit(id);
// a unit on a button: its identity and what it is ("Union VI 7 · Veteran Infantry")
const unitTitle = (u) => `${describer.unit(u.id)} · ${WORDS.unit_types[u.type] || (boot.types[u.type] || {}).name || u.type}`;
const unitState = (u) => (u.red ? ` · ${t("reduced")}` : "") + (u.ent ? ` · ${t("entrenched")}` : "");
const theirTurn = () => t("It is the {side} player's turn.", { side: SIDE_NAME[game.toAct] });

// ---------------------------------------------------------------------------- socket
let ws = null, wsTries = 0, wsTimer = null, pingTimer = null;
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // protocol v2: after each change only the state's delta (the whole state on connect)
  const after = game.seq >= 0 ? `?v=2&after=${game.seq}` : "?v=2";
  ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(GID)}${after}`);
  setConn("connecting", game.seq >= 0 ? t("reconnecting…") : t("connecting…"));
  ws.onopen = () => {
    wsTries = 0;
    setConn("live", t("live"));
    if (game.seq >= 0 && isPlayer()) send({ type: "legal" });
    if (game.seq >= 0) chat.resync();   // a reconnect: the chat messages sent meanwhile
    clearInterval(pingTimer);
    pingTimer = setInterval(() => { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" })); }, 25000);
  };
  ws.onmessage = (m) => {
    const t0 = performance.now();
    metrics.wsBytes += m.data.length; metrics.messages++;
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    onMessage(msg, t0);
  };
  ws.onclose = (ev) => {
    clearInterval(pingTimer);
    if (ev.code === 4404) { setConn("lost", t("no such game")); return; }
    setConn("lost", t("connection lost — reconnecting…"));
    const delay = Math.min(8000, 400 * 2 ** wsTries++) * (0.75 + Math.random() / 2);
    clearTimeout(wsTimer);
    wsTimer = setTimeout(connect, delay);
  };
}
function setConn(cls, text) {
  const c = $("conn");
  c.className = "conn " + cls;
  c.textContent = text;
}
function send(obj) {
  if (!ws || ws.readyState !== 1) { notice(t("Not connected: wait for the connection to come back.")); return false; }
  ws.send(JSON.stringify(obj));
  return true;
}
window.addEventListener("online", () => { if (!ws || ws.readyState > 1) { clearTimeout(wsTimer); connect(); } });

let legalTimer = null;

function onMessage(msg, t0) {
  switch (msg.type) {
    case "snapshot":
      game.applySnapshot(msg);
      document.body.classList.toggle("spectator", !isPlayer());
      setWatchers(msg.watchers, msg.presence);
      loadHistory(msg.seq);
      render(t0, true);
      break;
    case "events": {
      const seqBefore = game.seq;
      afterEvents(msg, game.applyEvents(msg, appendLog), t0, seqBefore);
      break;
    }
    case "changes": {
      const seqBefore = game.seq;
      const out = game.applyChanges(msg, appendLog);
      if (out === null) send({ type: "sync", after: seqBefore });   // missed something: resync
      else afterEvents(msg, out, t0, seqBefore);
      break;
    }
    case "legal":
      if (game.applyLegal(msg)) { clearTimeout(legalTimer); render(t0, false); }
      break;
    case "watchers": setWatchers(msg.count, msg.presence); break;
    case "chat": chat.receive(msg.message); break;
    case "ack":
      if (msg.of === "action" || msg.of === "undo") refreshUndo();
      break;
    case "error":
      // "stale": the game moved on before this decision arrived (the player's other tab,
      // or the page's own forced decision made twice): not a mistake of the player's, so
      // nothing is said; the page catches up and shows the new situation
      if (msg.code === "stale") send({ type: "sync", after: game.seq });
      else notice(msg.detail || t("refused"));
      if (game.autoPending) { game.autoPending = false; render(null, false); }
      break;
  }
}

// what the page does after the events of an "events" or "changes" message were applied
function afterEvents(msg, { added, awaitingLegal }, t0, seqBefore) {
  if (game.seq !== seqBefore) game.autoPending = false;
  closeFinishedBattle(added);
  if (awaitingLegal) {                       // the "legal" message follows; ask if it does not
    clearTimeout(legalTimer);
    if (isPlayer()) legalTimer = setTimeout(() => { if (game.legalSeq !== game.seq) send({ type: "legal" }); }, 500);
  }
  if (msg.events && msg.events.some((e) => e.type === "start" || e.type === "join")) refreshSeats();
  if (msg.events && (game.drawOffer || msg.events.some((e) => AGREEMENT_EVENTS.has(e.type)))) refreshAgreements();
  if (msg.events) noticeSilentRecruitment(msg.events);
  if (msg.events) past.moved(msg.events.filter((e) => e.type === "action" && e.source === "engine").length);
  // a decision of this player's side (made in another tab too) changes what may be undone
  if (msg.events && msg.events.some((e) => game.yourSides.includes(e.actor))) refreshUndo();
  // after an undo the page does not make the same forced decision again, so that a
  // further undo can go back past it
  if (msg.events && msg.events.some((e) => e.source === "server" && e.type === "undo")) game.autoSeq = msg.seq;
  ui.sel = null; ui.chooser = null;
  closeOutdatedQuestion();
  render(t0, !!(msg.events && msg.events.length));
}
// The "Battle over" board stays while its outcome is news: it opens when the battle is
// over (after the winner's promotion), and the next change of the game (the next decision)
// closes it, as does its × button.
function closeFinishedBattle(added) {
  if (!game.lastBattle || !added.length) return;
  if (game.state && game.state.battle) { ui.battleOverAt = null; return; }   // still being fought
  if (ui.battleOverAt === null || ui.battleOverAt === undefined) ui.battleOverAt = game.seq;
  else if (game.seq > ui.battleOverAt) { game.lastBattle = null; ui.battleOverAt = null; }
}
function closeOutdatedQuestion() {
  const dlg = $("confirm");
  if (dlg.open && dlg.dataset.seq !== "" && +dlg.dataset.seq !== game.seq) dlg.close();
}

// the people on the page: how many, and whether each player is here (presence.js)
const people = new Presence(boot.gone_after_s);
function setWatchers(count, presence) { people.update(count, presence); }

async function refreshSeats() {
  try {
    const g = await api(`/api/games/${encodeURIComponent(GID)}`);
    game.seats = g.seats; game.yourSides = g.your_sides; game.canUndo = !!g.can_undo;
    game.drawOffer = g.draw_offer || null; game.rematch = g.rematch || null;
    chat.resync();   // a spectator who took a seat now reads the players' channel
    for (const side of ["union", "confederate"]) $(`seat-${side}`).textContent = g.seats[side] ? g.seats[side].username : t("open seat");
    render(null, false);
  } catch (e) { /* keep going */ }
}
// the events after which the draw offer or the rematch link may have changed
const AGREEMENT_EVENTS = new Set(["offer_draw", "accept_draw", "decline_draw", "rematch", "accept_rematch", "decline_rematch"]);
// the server says whether an offer is still open (it lapses when the offering side plays on)
async function refreshAgreements() {
  try {
    const g = await api(`/api/games/${encodeURIComponent(GID)}`);
    const before = game.rematch;
    game.drawOffer = g.draw_offer || null; game.rematch = g.rematch || null;
    followAcceptedRematch(before, game.rematch, boot.user && boot.user.username);
    render(null, false);
  } catch (e) { /* the next change asks again */ }
}

// The engine ends a Recruitment Segment by itself when nothing can be recruited: say why,
// so that a roll's points never vanish without a word.
function noticeSilentRecruitment(events) {
  const roll = events.find((e) => e.type === "roll" && e.data && e.data.purpose === "recruits");
  const s = game.state;
  if (!roll || !s || !game.yourSides.includes(roll.data.side)) return;
  if ((s.phase === "recruitment" || s.phase === "leaders") && s.side === roll.data.side) return;
  const why = recruitLimits(s, roll.data.side, [], boot.types);
  // (the inner words are said first: the catalogue's extractor sees one t() per call)
  const reasons = why.length ? why.join("; ") : t("no city of yours can recruit now");
  notice(t("Recruitment ended at once: {why}.", { why: reasons }));
}

let undoT = null;
function refreshUndo() {
  if (!isPlayer()) return;
  clearTimeout(undoT);
  undoT = setTimeout(async () => {
    try { const g = await api(`/api/games/${encodeURIComponent(GID)}`); game.canUndo = !!g.can_undo; renderActions(); } catch (e) { /* ignore */ }
  }, 30);
}

async function loadHistory(upto) {
  try {
    const out = await loadEvents(GID, api);   // only what this browser has not kept
    metrics.eventsReused = out.reused;
    for (const e of out.events) game.addEvent(e);
    renderLog();
    past.markLog();
    if (game.state) render(null, false);   // the last move's marks need the events; Abort or Resign, whether anyone has moved
  } catch (e) { notice(t("Could not load the game log: {error}", { error: e.message })); }
}

// ---------------------------------------------------------------------------- actions
function act(action) {
  if (!isPlayer()) { notice(t("Spectators watch: log in and take a seat to play.")); return; }
  const question = game.state && endPhaseQuestion(action, game.state);
  if (question) { confirmThen(question, label(action), () => sendAction(action), game.seq); return; }
  sendAction(action);
}
function sendAction(action) {
  notice("");
  if (past.active) past.toNowAgain();   // a decision is made on the board as it is now
  const id = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).slice(0, 36);
  send({ type: "action", action, action_id: id, expected_seq: game.seq });
  ui.sel = null; ui.chooser = null;
  map.showPath(null);
}
// a click on something that is not highlighted: ask the server, which says why not
function explain(action, fallback) {
  if (!isPlayer()) { notice(fallback || t("Spectators watch only.")); return; }
  if (!myTurn()) { notice(game.status === "active" ? theirTurn() : fallback || t("The game is not being played now.")); return; }
  if (!action) { notice(fallback); return; }
  const id = "x" + String(Math.random()).slice(2, 14);
  send({ type: "action", action, action_id: id, expected_seq: game.seq });
}

function notice(text) {
  const n = $("notice");
  n.textContent = text || "";
  n.title = text || "";
  n.hidden = !text;
  if (text) { clearTimeout(notice._t); notice._t = setTimeout(() => { n.hidden = true; }, 9000); }
}

function undo() {
  if (!isPlayer()) return;
  send({ type: "undo", action_id: "u" + String(Math.random()).slice(2, 14), expected_seq: game.seq });
}

// what each click means now, from the legal list
function clickables() {
  const L = game.legal;
  const boxes = new Map(), units = new Map();
  const add = (m, k, a) => { if (!m.has(k)) m.set(k, []); m.get(k).push(a); };
  if (ui.sel) {
    for (const a of L) {
      if (a.unit !== ui.sel) continue;
      if (a.type === "move") add(boxes, a.path[a.path.length - 1], a);
      else if (a.type === "sea_move" || a.type === "invade") add(boxes, a.to, a);
      else if (a.type === "target") add(units, a.target, a);
    }
    return { boxes, units };
  }
  for (const a of L) {
    if (["activate", "fight", "recruit"].includes(a.type)) add(boxes, a.box, a);
    else if (a.type === "withdraw" || a.type === "retreat") add(boxes, a.to, a);
    else if (a.unit && ["move", "sea_move", "invade", "entrench", "target", "promote", "reinforce", "refit"].includes(a.type)) add(units, a.unit, a);
  }
  return { boxes, units };
}

const SELECTING = new Set(["move", "sea_move", "invade", "entrench", "target"]);

function onBoxClick(id) {
  ui.selBox = id;
  showBoxInfo(id);
  if (!isPlayer() || !myTurn()) { if (isPlayer() && game.status === "active") explain(null, theirTurn()); render(null, false); return; }
  const { boxes } = clickables();
  const acts = boxes.get(id);
  if (acts && acts.length === 1) return act(acts[0]);
  if (acts && acts.length > 1) { ui.chooser = { title: t("{box}: choose", { box: boxName(id) }), actions: acts }; return renderActions(); }
  // not highlighted: let the server say why
  const phase = game.state.phase;
  if (ui.sel) return explain({ type: "move", unit: ui.sel, path: [id], by: ["road"] });
  if (phase === "movement") return explain({ type: "activate", box: id });
  if (phase === "battle_choice") return explain({ type: "fight", box: id });
  if (phase === "recruitment") return explain({ type: "recruit", unit_type: "MI", box: id });
  if (phase === "battle" && game.state.battle) {
    const st = game.state.battle.step;
    if (st === "withdraw") return explain({ type: "withdraw", to: id });
    if (st === "prepare") return explain({ type: "retreat", to: id });
  }
  notice(t("Nothing to do at {box} now. {prompt}", { box: boxName(id), prompt: promptText() }));
}

function onUnitClick(id) {
  const u = unitById(id);
  if (!isPlayer() || !myTurn()) { if (u) { ui.selBox = u.loc; showBoxInfo(u.loc); } if (isPlayer() && game.status === "active") notice(theirTurn()); return; }
  const { boxes, units } = clickables();
  const acts = units.get(id) || [];
  if (ui.sel && acts.length) {      // e.g. a target for the selected shooter
    if (acts.length === 1) return act(acts[0]);
    ui.chooser = { title: uname(id), actions: acts }; return renderActions();
  }
  if (ui.sel === id) { ui.sel = null; return render(null, false); }
  if (acts.some((a) => SELECTING.has(a.type))) {
    ui.sel = id; ui.chooser = null;
    return render(null, false);
  }
  if (acts.length === 1) return act(acts[0]);
  if (acts.length > 1) { ui.chooser = { title: uname(id), actions: acts }; return renderActions(); }
  // a unit with nothing to do: treat as a click on its box (activate it, a destination...)
  if (ui.sel && u && boxes.has(u.loc)) return onBoxClick(u.loc);
  if (u && map.boxes.has(u.loc)) {
    const phase = game.state.phase;
    if (phase === "battle" && game.state.battle && game.state.battle.step === "target" && !ui.sel) {
      return explain({ type: "target", unit: id, target: id });
    }
    if (phase === "promotion") return explain({ type: "promote", unit: id });
    return onBoxClick(u.loc);
  }
}

// a legal action on a button, in the words of the server's catalog
function label(a) {
  const C = WORDS.choices;
  if (!(a.type in C)) return a.type.replace(/_/g, " ");
  const path = a.path || [];
  return say(C[a.type], {
    dest: path.length ? boxName(path[path.length - 1]) : "",
    via_note: path.length > 1 ? say(C.via_note, { via: path.slice(0, -1).map(boxName).join(", ") }) : "",
    by_words: [...new Set(a.by || [])].map((way) => WORDS.ways[way] || way).join(C.by_joiner),
    sea_note: a.by && a.by[0] === "sea" ? C.sea_note : "",
    to: a.to ? boxName(a.to) : "", box: a.box ? boxName(a.box) : "",
    unit: a.unit ? uname(a.unit) : "", target: a.target ? uname(a.target) : "",
    unit_type: WORDS.unit_types[a.unit_type] || a.unit_type, leader: a.leader ? describer.narrator.formatted("leader", a.leader) : "",
  });
}

// the hint of a game against the computer (computer.js) is said with the same words
$("computer-tools").addEventListener("describe-action", (ev) => { ev.detail.words = label(ev.detail.action); });

// ---------------------------------------------------------------------------- render
function render(t0, changed) {
  if (!game.state) return;
  const s = game.state;
  const { boxes, units } = myTurn() ? clickables() : { boxes: new Map(), units: new Map() };
  if (!past.active) drawLiveBoard(boxes, units);
  // the view is the player's: it opens once (where they left it, if they were here
  // before) and then moves only when they move it
  if (!ui.opened) {
    ui.opened = true;
    if (!map.restoreView()) {
      map.open(openingBoxes());
      if (prefs.zoom === "east") { map.setStep(Math.max(map.step, 3)); map.reveal(["washington", "richmond"], true); }
    }
  }
  if (ui.pop && ui.pop.box && !game.state.units.some((u) => u.loc === ui.pop.box) && !boxes.has(ui.pop.box)) ui.pop = null;
  renderPop();
  boardList.render(game);
  const bd = document.body.dataset;
  bd.seq = game.seq; bd.phase = s.phase; bd.turn = s.turn; bd.side = s.side;
  bd.step = s.battle ? s.battle.step : "";
  decideForced();
  bd.ready = !isPlayer() || !myTurn() || (game.legalSeq === game.seq && !game.autoPending) ? "1" : "0";
  renderStatus();
  renderActions();
  renderGameOver();
  people.follow(game);
  renderBattle();
  renderForces();
  if (ui.selBox) showBoxInfo(ui.selBox);
  metrics.renders++;
  if (t0 !== null && t0 !== undefined && changed) {
    requestAnimationFrame(() => { metrics.latencies.push(performance.now() - t0); });
  }
}

function drawLiveBoard(boxes, units) {
  const s = game.state;
  map.setControl(s);
  map.setUnits(s);
  const hlUnits = new Set(units.keys());
  if (!ui.sel && myTurn()) for (const a of game.legal) if (a.type === "target") hlUnits.add(a.unit);
  map.highlight(new Set(boxes.keys()), hlUnits, ui.sel);
  map.showPath(null);
  map.showLast(lastMoveMarks(eventsInOrder(), { viewer: game.yourSides, counts: stillCounts }));
}
// every event the page knows, in seq order (sorted again only when one was added)
let ordered = { size: -1, list: [] };
function eventsInOrder() {
  if (ordered.size !== game.events.size) ordered = { size: game.events.size, list: [...game.events.values()].sort((a, b) => a.seq - b.seq) };
  return ordered.list;
}
const stillCounts = (e) => !game.isUndone(e.seq);

function renderStatus() {
  const s = game.state;
  $("turn-info").replaceChildren(el("strong", {}, statusWords("turn_info", { turn: s.turn })), ` · ${s.date} · `, ...statusNow(s));
  const track = $("track");
  if (!track.childElementCount) {
    for (const when of WORDS.calendar) {
      const newYear = when.months === "01/02";
      track.append(el("li", { "data-turn": when.turn, title: `${statusWords("turn_info", when)}: ${when.label}`, class: newYear ? "year" : "" },
        newYear ? String(when.year).slice(2) : ""));
    }
  }
  for (const li of track.children) {
    li.classList.toggle("now", +li.dataset.turn === s.turn);
    li.classList.toggle("past", +li.dataset.turn < s.turn);
    if (+li.dataset.turn === s.turn) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  }
  document.body.dataset.toAct = game.toAct || "";
  document.body.dataset.status = game.status || "";
  document.body.classList.toggle("my-turn", myTurn());
  const yourTurn = `▶ ${t("Your turn")} · `;
  document.title = (myTurn() ? yourTurn : "") + (document.title.startsWith(yourTurn) ? document.title.slice(yourTurn.length) : document.title);
}

// The status line after the turn and date: the Player Turn, the phase and who is to decide
// now; before the game, that it waits for a player; after it, the result and why.
function statusNow(s) {
  if (game.status === "finished") {
    const { title, reason } = resultWords(game.result || s.result);
    return [el("strong", { class: "result", id: "status-result" }, reason ? t("Game over: {result}, {reason}", { result: title, reason }) : t("Game over: {result}", { result: title }))];
  }
  if (game.status === "aborted") return [el("strong", { id: "status-result" }, t("Game aborted"))];
  if (game.status === "open") return [t("Waiting for a player to take the free seat")];
  const nodes = [el("span", { class: `side-${s.side}` }, statusWords("player_turn", { side: sideName(s.side) })), ` · ${phaseName(s.phase)}`,
    s.phase === "movement" ? ` · ${statusWords(s.marches === 1 ? "marches_left" : "marches_left_plural", { marches: s.marches })}` : ""];
  if (game.toAct && game.toAct !== s.side) {   // the other player decides now (a defender in battle)
    const who = myTurn() ? t("your decision") : t("the {side} player decides", { side: sideName(game.toAct) });
    nodes.push(" · ", el("span", { class: `to-act side-${game.toAct}`, id: "status-to-act" }, who));
  }
  return nodes;
}

function promptText() {
  const s = game.state;
  if (!s) return "";
  if (game.status === "open") return isPlayer() ? P.open_mine : P.open_theirs;
  if (game.status === "finished" || s.phase === "over" || game.result) {
    const r = game.result || s.result || {};
    const outcome = r.annulled ? P.annulled : r.winner ? say(P.winner_wins, { winner: sideName(r.winner) }) : P.drawn;
    return say(P.over, { winner_wins: outcome,
                         reason_note: r.reason ? say(P.reason_note, { reason: resultWords(r).reason }) : "" });
  }
  if (game.status === "aborted") return P.aborted;
  const seat = game.seats && game.seats[game.toAct];
  if (!myTurn()) {
    return say(P.waiting, { side: sideName(game.toAct), seat_note: seat ? say(P.seat_note, seat) : "", doing: phaseWords(s, false) });
  }
  if (!game.legal.length) return "…";
  if (ui.sel) {
    const acts = game.legal.filter((a) => a.unit === ui.sel);
    if (acts.some((a) => a.type === "target")) return say(P.pick_target, { unit: uname(ui.sel) });
    return say(P.pick_destination, { unit: uname(ui.sel), entrench_note: acts.some((a) => a.type === "entrench") ? P.entrench_note : "" });
  }
  return phaseWords(s, true);
}

// the prompt's words for the phase: the battle's step or the active box picks the variant
function phaseWords(s, mine) {
  const b = s.battle;
  let key = s.phase;
  if (s.phase === "movement" && s.active) key = "movement.active";
  if (s.phase === "battle" && b && `battle.${b.step}` in P) key = `battle.${b.step}`;
  const variant = P[key];
  if (!variant) return s.phase;
  const text = say(mine ? variant.mine : variant.theirs, {
    active: s.active ? boxName(s.active) : "",
    marches_left: statusWords(s.marches === 1 ? "marches_left" : "marches_left_plural", { marches: s.marches }),
    sea_note: game.legal.some((a) => a.type === "sea_move") ? P.sea_note : "",
    box: b ? boxName(b.box) : "", round: b ? b.round : "",
    assigned: b && b.targets ? b.targets.length : 0, shooters: b && b.units ? (b.units[b.firing] || []).length : 0,
    points: s.recruit ? s.recruit.points : 0,
    supply_box: s.supply_boxes && s.supply_boxes.length ? boxName(s.supply_boxes[0]) : "",
  });
  // what holds recruitment back (the pool, the Army Maximum), so that points never go unexplained
  const limits = mine && s.phase === "recruitment" ? recruitLimits(s, s.side, game.legal, boot.types) : [];
  return limits.length ? t("{prompt} Note: {limits}.", { prompt: text, limits: limits.join("; ") }) : text;
}

const BUTTON_TYPES = new Set(["roll_marches", "roll_recruits", "roll_replacements", "end_march", "end_movement", "open_fire", "stand", "no_promotion", "end_recruitment"]);
const MAP_TYPES = new Set(["activate", "move", "sea_move", "invade", "fight", "withdraw", "retreat", "reinforce", "target", "promote", "recruit", "refit", "entrench"]);

function renderActions() {
  $("prompt").textContent = promptText();
  const box = $("actions");
  const nodes = [];
  if (game.status === "open" && !isPlayer() && boot.user) {
    const free = !game.seats.union ? "union" : "confederate";
    nodes.push(el("button", { type: "button", class: "primary", "aria-label": t("Join this game as {side}", { side: SIDE_NAME[free] }), onclick: async () => {
      try { await api(`/api/games/${encodeURIComponent(GID)}/join`, boot.invite ? { invite: boot.invite } : {}); location.reload(); }
      catch (e) { notice(e.message); }
    } }, t("Join as {side}", { side: SIDE_NAME[free] })));
  } else if (game.status === "open" && !boot.user) {
    nodes.push(el("a", { class: "button", href: `/login?next=${encodeURIComponent(location.pathname + location.search)}` }, t("Log in to join")));
  }
  if (myTurn()) {
    if (ui.chooser) {
      nodes.push(el("span", { class: "chooser-title" }, ui.chooser.title + ":"));
      for (const a of ui.chooser.actions) nodes.push(el("button", { type: "button", class: "choice", onclick: () => act(a) }, label(a)));
      nodes.push(el("button", { type: "button", onclick: () => { ui.chooser = null; renderActions(); } }, t("Cancel")));
    } else {
      if (ui.sel) {
        for (const a of game.legal.filter((x) => x.unit === ui.sel && x.type === "entrench")) nodes.push(el("button", { type: "button", onclick: () => act(a) }, t("Entrench")));
        nodes.push(el("button", { type: "button", "aria-label": t("Cancel the selection"), onclick: () => { ui.sel = null; render(null, false); } }, t("Cancel")));
      }
      for (const a of game.legal) {
        if (BUTTON_TYPES.has(a.type)) nodes.push(el("button", { type: "button", class: a.type.startsWith("roll") || a.type === "open_fire" ? "primary" : "", "data-action": a.type, onclick: () => act(a) }, label(a)));
        else if (!MAP_TYPES.has(a.type)) nodes.push(el("button", { type: "button", onclick: () => act(a) }, label(a)));
      }
    }
  }
  if (isPlayer() && game.status === "active") {
    nodes.push(el("button", { type: "button", id: "undo", class: "undo", "aria-label": t("Undo my last decision"), title: t("Undo (u)"), disabled: !game.canUndo, onclick: undo }, `↶ ${t("Undo")}`));
  }
  if (isPlayer() && (game.status === "active" || game.status === "open")) {
    // before anyone's first move a game can be called off; after it, only resigned
    const moved = [...game.events.values()].some((e) => e.source === "engine" && e.actor);
    if (!moved) {
      nodes.push(el("button", { type: "button", id: "abort", class: "quiet", onclick: () => confirmThen(
        t("Abort this game? It ends with no result, as if it had not been played."), t("Abort the game"),
        () => api(`/api/games/${encodeURIComponent(GID)}/abort`, {})) }, t("Abort")));
    } else {
      nodes.push(el("button", { type: "button", id: "resign", class: "quiet", onclick: () => confirmThen(
        t("Resign? The {side} player wins the game.", { side: SIDE_NAME[game.yourSides[0] === "union" ? "confederate" : "union"] }), t("Resign"),
        () => api(`/api/games/${encodeURIComponent(GID)}/resign`, {})) }, t("Resign")));
    }
  }
  if (game.status === "active") nodes.push(...drawControls(game.drawOffer, drawHooks));
  box.replaceChildren(...nodes);
}

const gamePath = (what) => `/api/games/${encodeURIComponent(GID)}/${what}`;
const drawHooks = {
  get isPlayer() { return isPlayer(); },
  get mySides() { return game.yourSides; },
  offer: () => confirmThen(t("Offer your opponent a draw? It stays open until they answer, or until your next move."),
    t("Offer a draw"), async () => { game.drawOffer = (await api(gamePath("offer-draw"), {})).draw_offer; renderActions(); }),
  accept: () => confirmThen(t("Accept the draw? The game ends now, with no winner."), t("Accept the draw"),
    () => api(gamePath("accept-draw"), {})),
  decline: async () => {
    try { await api(gamePath("decline-draw"), {}); game.drawOffer = null; renderActions(); } catch (e) { notice(e.message); }
  },
};

// The banner of a finished game: result, reason, replay, rematch.
function renderGameOver() {
  const sec = $("game-over");
  const over = game.status === "finished" && game.result;
  sec.hidden = !over;
  if (!over) return;
  sec.replaceChildren(...gameOverBanner(game, {
    isPlayer: isPlayer(), username: boot.user && boot.user.username, replayUrl: `/games/${encodeURIComponent(GID)}/replay`,
    offer: () => answering(async () => { await offerRematch(GID); await refreshAgreements(); }),
    accept: () => answering(() => acceptRematch(GID)),
    decline: () => answering(async () => { game.rematch = (await declineRematch(GID)).rematch; }),
  }));
}
// a rematch button: its request, then the banner drawn again (a refusal is said)
async function answering(run) {
  try { await run(); renderGameOver(); } catch (e) { notice(e.message); }
}

// Nothing to choose (one battle left, one possible target): the page decides, once per seq,
// and says so. It is an ordinary decision of the player (the log shows it; undo applies).
function decideForced() {
  if (!myTurn() || game.legalSeq !== game.seq || game.autoSeq === game.seq || ui.sel || !game.state) return;
  const forced = forcedAction(game.state, game.legal);
  if (!forced) return;
  game.autoSeq = game.seq; game.autoPending = true;
  const a = forced.action;
  metrics.forced.push(a.type);
  notice(a.type === "target" ? t("All fire at {target}: {why}.", { target: uname(a.target), why: forced.why }) : t("{choice}: {why}.", { choice: label(a), why: forced.why }));
  const id = "auto" + String(Math.random()).slice(2, 14);
  send({ type: "action", action: a, action_id: id, expected_seq: game.seq });
}

// A decision that cannot be undone asks first, in a modal dialog (Esc or Cancel keeps playing).
// A question about a decision at seq `atSeq` closes by itself once the game has moved on
// (the player's other tab decided, or the opponent did): its answer would mean nothing now.
function confirmThen(question, yes, run, atSeq) {
  const dlg = $("confirm");
  dlg.dataset.seq = atSeq === undefined ? "" : String(atSeq);
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  $("confirm-yes").onclick = async () => {
    dlg.close();
    try { await run(); } catch (e) { notice(e.message); }
  };
  $("confirm-no").onclick = () => dlg.close();
  dlg.showModal();
  $("confirm-no").focus();
}

// ---------------------------------------------------------------------------- battle board
// Each shooter's to-hit numbers come from the server (the engine's own values), asked once
// per seq while a battle is being prepared or fired.
const odds = { seq: -1, toHit: {}, asking: false };
async function askOdds() {
  if (odds.asking || odds.seq === game.seq) return;
  odds.asking = true;
  try {
    const out = await api(`/api/games/${encodeURIComponent(GID)}/battle`);
    odds.seq = out.seq; odds.toHit = out.to_hit || {};
    if (out.seq === game.seq) renderBattle();
  } catch (e) { /* the board shows no odds; the next change asks again */ }
  odds.asking = false;
}
function oddsWords(id) {
  const row = odds.seq === game.seq ? odds.toHit[id] : null;
  if (!row) return null;
  const needs = Object.entries(row);
  if (!needs.length) return null;
  const all = new Set(needs.map(([, n]) => n));
  if (all.size === 1) return t("hits on {need} or less", { need: [...all][0] });
  const each = needs.map(([target, n]) => t("{need} vs {target}", { need: n, target: uname(target) }));
  return t("hits on {needs}", { needs: each.join(", ") });
}

function battleCounter(u, legal, selected) {
  const svgEl = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svgEl.setAttribute("viewBox", "-1.5 -1.5 14 17");
  svgEl.setAttribute("class", "bcounter");
  const c = counter(u, boot.types[u.type], 11);
  c.classList.toggle("legal", legal);
  c.classList.toggle("selected", selected);
  svgEl.append(c);
  return svgEl;
}

function battleLine(b, side) {
  const targets = new Map(b.targets.map(([sh, t]) => [sh, t]));
  const { units: clickU } = myTurn() ? clickables() : { units: new Map() };
  const row = el("div", { class: `line ${side}${b.firing === side ? " firing" : ""}` },
    el("h3", {}, `${SIDE_NAME[side]} ${side === b.attacker ? t("attacker") : t("defender")}${b.firing === side ? ` · ${t("fires")}` : ""}`));
  const list = el("div", { class: "counters" });
  const fighting = b.units[side] || [];
  // units that fought here and are gone (eliminated, routed away) stay on the board, greyed
  const gone = (b.participants || []).filter((id) => !fighting.includes(id) && (unitById(id) || {}).side === side);
  for (const id of [...fighting, ...gone]) {
    const u = unitById(id);
    if (!u) continue;
    const out = gone.includes(id);
    const legal = !out && (clickU.has(id) || (!ui.sel && myTurn() && game.legal.some((a) => a.type === "target" && a.unit === id)));
    const tgt = targets.get(id);
    const chance = !out && b.firing === side ? oddsWords(id) : null;
    list.append(el("div", { class: `bunit${out ? " gone" : ""}`, "data-battle-unit": id },
      battleCounter(u, legal, ui.sel === id),
      el("span", {}, uname(id) + (u.red ? ` (${t("reduced")})` : "") + (u.ent ? ` (${t("entrenched")})` : "")
        + (out ? ` (${map.boxes.has(u.loc) ? t("left the battle") : t("eliminated")})` : "")),
      chance ? el("small", { class: "odds" }, chance) : null,
      tgt ? el("small", { class: "tgt" }, `→ ${uname(tgt)}`) : null));
  }
  row.append(list);
  return row;
}

function volleyNode(v, n, last) {
  const dice = el("div", { class: "dice", "aria-label": t("Volley {n}", { n }) });
  for (const r of v.rolls) {
    const hit = r.value <= r.need;
    const mod = describer.modifier(r);
    dice.append(el("div", { class: `die-roll ${hit ? "hit" : "miss"}`, title: `${describer.unit(r.unit)} → ${describer.unit(r.target)}` },
      dieFace(r.value), el("span", { class: "res" }, part(hit ? "hit" : "miss")),
      el("small", {}, `≤${r.need}${mod ? " · " + mod : ""}`),
      el("small", { class: "who" }, `${shortUnit(r.unit)} → ${shortUnit(r.target)}`)));
  }
  return el("li", { class: `volley${last ? " last" : ""}` }, el("h3", { class: "dice-title" }, t("Volley {n} · {side} fires", { n, side: SIDE_NAME[v.side] })), dice);
}

function renderBattle() {
  const sec = $("battle");
  const b = game.state.battle;
  if (!b && !game.lastBattle) { sec.hidden = true; sec.replaceChildren(); return; }
  sec.hidden = false;
  const nodes = [];
  if (b) {
    if (["prepare", "bonus", "target"].includes(b.step)) askOdds();
    nodes.push(el("header", {}, el("h2", {}, t("Battle of {box}", { box: boxName(b.box) })), el("span", {}, t("round {round}", { round: b.round }))));
    nodes.push(el("div", { class: "lines" }, battleLine(b, b.defender), battleLine(b, b.attacker)));
  } else if (game.lastBattle) {
    const txt = (boardWords.describe(game.lastBattle) || {}).text || "";
    nodes.push(el("header", {}, el("h2", {}, t("Battle over")), el("button", { type: "button", class: "close", "aria-label": t("Close the battle board"), onclick: () => { game.lastBattle = null; ui.battleOverAt = null; renderBattle(); } }, "×")));
    nodes.push(el("p", {}, txt));
  }
  const history = volleys(game.events, isUndone);
  if (history.length) {
    nodes.push(el("ol", { class: "volleys", "aria-label": t("Every volley of this battle") },
      history.map((v, i) => volleyNode(v, i + 1, i === history.length - 1))));
  }
  sec.replaceChildren(...nodes);
  sec.classList.toggle("over", !b);
  // the board stands where it leaves the battle's box (and the boxes round it, where a
  // retreat goes) in sight
  const where = b ? b.box : (game.lastBattle && game.lastBattle.data || {}).box;
  const g = where && map.boxEl(where);
  if (g) placeBoard(sec, $("map-wrap").getBoundingClientRect(), () => g.getBoundingClientRect(), map);
}

// a unit's identity without its side, where the side is plain from the place ("VI 7")
function shortUnit(id) {
  const u = describer.unit(id);
  const side = Object.values(WORDS.sides).find((n) => u.startsWith(n + " "));
  return side ? u.slice(side.length + 1) : u;
}

function dieFace(v) {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 24 24"); s.setAttribute("class", "die"); s.setAttribute("role", "img"); s.setAttribute("aria-label", t("die {value}", { value: v }));
  s.dataset.value = v;
  const pips = { 1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[7, 7], [12, 12], [17, 17]], 4: [[7, 7], [17, 7], [7, 17], [17, 17]],
    5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]], 6: [[7, 6], [17, 6], [7, 12], [17, 12], [7, 18], [17, 18]] }[v] || [];
  const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  for (const [k, val] of Object.entries({ x: 1, y: 1, width: 22, height: 22, rx: 4 })) r.setAttribute(k, val);
  s.append(r);
  for (const [x, y] of pips) {
    const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", 2.2); s.append(c);
  }
  return s;
}

// ---------------------------------------------------------------------------- side panel
function renderForces() {
  const s = game.state;
  const cols = ["union", "confederate"].map((side) => {
    const mine = s.units.filter((u) => u.side === side);
    const count = (loc) => { const c = {}; for (const u of mine) if (u.loc === loc) c[u.type] = (c[u.type] || 0) + 1; return c; };
    const fmt = (c) => Object.keys(c).length ? Object.entries(c).sort().map(([type, n]) => `${n} ${type}`).join(", ") : t("none");
    return el("section", { class: `force ${side}`, "aria-label": t("{side} forces", { side: SIDE_NAME[side] }) },
      el("h3", {}, SIDE_NAME[side], game.seats && game.seats[side] ? el("small", { class: "player" }, ` · ${game.seats[side].username}`) : null),
      el("dl", {},
        el("dt", {}, t("On the map")), el("dd", { "data-stat": `${side}-onmap` }, t("{count} of {max} (Army Maximum)", { count: s.on_map[side], max: s.army_max[side] })),
        el("dt", {}, t("Recruitment Pool")), el("dd", { "data-stat": `${side}-pool` }, fmt(count("pool"))),
        el("dt", {}, t("Stock")), el("dd", {}, fmt(count("stock"))),
        side === "union" ? el("dt", {}, t("Awaiting draft")) : null, side === "union" ? el("dd", {}, fmt(count("draft"))) : null));
  });
  $("forces").replaceChildren(el("div", { class: "forces" }, ...cols),
    el("p", { class: "hint" }, t("MI/MC militia, VI/VC veteran, CI/CC crack infantry/cavalry. ✕ infantry, ╱ cavalry; a red corner marks a reduced unit, a pale arc at the foot an entrenched one; a number on a pile counts its units.")));
}

function showBoxInfo(id) {
  const b = map.boxes.get(id);
  if (!b || !game.state) return;
  const s = game.state;
  const ctl = (s.control || {})[id] || b.color;
  const units = s.units.filter((u) => u.loc === id);
  const { units: clickU } = myTurn() ? clickables() : { units: new Map() };
  $("box-info").replaceChildren(
    el("h3", {}, b.name, el("small", {}, ` ${b.state || ""}`)),
    el("p", {}, t("Controlled by: {side}", { side: SIDE_NAME[ctl] || ctl }) + (ctl !== b.color ? ` (${t("printed {side}", { side: SIDE_NAME[b.color] || b.color })})` : ""),
      b.fort ? ` · ${t("permanent entrenchment")}` : "", b.port ? ` · ${t("port")}` : "",
      Object.entries(b.shields || {}).map(([side, v]) => ` · ${t("{side} shield {value}", { side: SIDE_NAME[side], value: v })}`).join("")),
    units.length ? el("ul", { class: "plain units-list" }, units.map((u) => el("li", {},
      el("button", { type: "button", class: `unit-btn ${u.side}${clickU.has(u.id) ? " legal" : ""}${ui.sel === u.id ? " selected" : ""}`,
                     "data-unit-btn": u.id, "aria-label": `${unitTitle(u)} ${u.id}`, onclick: () => onUnitClick(u.id) },
        `${unitTitle(u)}${unitState(u)}`)))) : el("p", { class: "empty" }, t("No units.")));
}

// ---------------------------------------------------------------------------- log
let openingHead = null;
const isUndone = (seq) => game.isUndone(seq);
const openingWords = (turn, date) => part("first_turn", { turn, date, side: sideName("union") });
function logItem(e) {
  const d = describer.describe(e);
  if (!d) return null;
  if (d.heading) {
    if (openingHead && !openingHead.dataset.done) {   // the first Player Turn has no event of its own
      const pd = e.data || {};
      openingHead.dataset.done = "1";
      if (pd.side === "confederate") openingHead.firstChild.textContent = openingWords(pd.turn, pd.date);
    }
    return el("li", { class: "turn-head", "data-seq": e.seq }, el("h4", {}, d.heading));
  }
  if (e.source === "server" && e.type === "start") {
    const s = game.state;
    openingHead = el("li", { class: "turn-head", "data-seq": e.seq }, el("h4", {}, s ? openingWords(s.turn, s.date) : part("first_turn_unknown")));
    const frag = document.createDocumentFragment();
    frag.append(el("li", { class: "ev", "data-seq": e.seq }, d.text), openingHead);
    return frag;
  }
  const note = e.type === "roll" && e.data && e.data.purpose === "fire" ? describer.modifier(e.data) : "";  // what changed the number needed
  const li = el("li", { class: `ev ${d.cls || ""}${d.minor ? " minor" : ""}${isUndone(e.seq) ? " undone" : ""}`, "data-seq": e.seq, title: note || null },
    d.die ? el("span", { class: `die-inline${d.hit === true ? " hit" : d.hit === false ? " miss" : ""}`, "aria-hidden": "true" }, String(d.die)) : null, d.text);
  const boxes = new Set(d.boxes || []);
  for (const uid of d.units || []) { const u = unitById(uid); if (u && map.boxes.has(u.loc)) boxes.add(u.loc); }
  if (boxes.size) {
    li.dataset.boxes = [...boxes].join(" ");
    li.classList.add("linked");
  }
  return li;
}
function renderLog() {
  const list = $("log");
  describer.battleBox = null;
  openingHead = null;
  const items = [];
  for (const seq of [...game.events.keys()].sort((a, b) => a - b)) {
    const li = logItem(game.events.get(seq));
    if (li) items.push(li);
  }
  list.replaceChildren(...items);
  list.parentElement.scrollTop = list.parentElement.scrollHeight;
}
function appendLog(e) {
  if (game.isTakeBack(e)) {
    for (const li of $("log").querySelectorAll("li[data-seq]")) if (isUndone(+li.dataset.seq)) li.classList.add("undone");
  }
  describer.narrator.locate = boxBeforeLiveEvent;
  const li = logItem(e);
  describer.narrator.locate = null;
  if (li) {
    $("log").append(li);
    const p = $("log").parentElement;
    p.scrollTop = p.scrollHeight;
  }
}
$("log").addEventListener("click", (ev) => {
  const li = ev.target.closest("li.ev[data-seq]");
  if (!li) return;
  for (const x of $("log").querySelectorAll(".picked")) x.classList.remove("picked");
  li.classList.add("picked");
  if (!li.classList.contains("undone")) past.show(+li.dataset.seq);
  if (li.dataset.boxes) map.flash(li.dataset.boxes.split(" "));
});
// looking back through the game (static/timeline.js)
const past = new PastView({
  map, api, gid: GID, log: $("log"), host: $("map-wrap"), events: eventsInOrder, counts: stillCounts,
  viewer: () => game.yourSides, toNow: () => render(null, false),
});

// ---------------------------------------------------------------------------- stacks and choices on the map
// A pile of counters, or a tap that could mean several boxes, opens a small panel that
// names the candidates as buttons; what each button does is what a click on it would do.
const TOUCH_SLOP = 9;   // screen px round a finger's tap within which a box counts as meant

function openPop(pop) {
  ui.pop = pop;
  renderPop();
  const first = $("stack-pop").querySelector("button");
  if (first && pop.keyboard) first.focus();
}
function closePop(refocus) {
  const had = ui.pop;
  ui.pop = null;
  renderPop();
  if (refocus && had && had.box) map.focusBox(had.box);
}
function renderPop() {
  const pop = $("stack-pop");
  if (!ui.pop || !game.state) { pop.hidden = true; pop.replaceChildren(); return; }
  const nodes = [];
  const { boxes: clickB, units: clickU } = myTurn() ? clickables() : { boxes: new Map(), units: new Map() };
  if (ui.pop.which) {
    nodes.push(el("h3", {}, t("Which box?")));
    for (const id of ui.pop.which) {
      nodes.push(el("button", { type: "button", class: `pick-box${clickB.has(id) ? " legal" : ""}`, "data-pick-box": id,
        onclick: () => { const box = id; closePop(); pickBox(box); } }, boxName(id)));
    }
  } else {
    const id = ui.pop.box, b = map.boxes.get(id);
    // keyboard users go back to the box they came from
    const back = () => { if (ui.pop && ui.pop.keyboard) { const box = ui.pop.box; setTimeout(() => map.focusBox(box), 0); } };
    nodes.push(el("h3", {}, b.name));
    for (const a of clickB.get(id) || []) nodes.push(el("button", { type: "button", class: "choice legal", onclick: () => { back(); closePop(); act(a); } }, label(a)));
    for (const u of game.state.units.filter((x) => x.loc === id)) {
      const svgEl = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svgEl.setAttribute("viewBox", "-1 -1 13 13");
      svgEl.setAttribute("class", "bcounter");
      svgEl.setAttribute("aria-hidden", "true");
      svgEl.append(counter(u, boot.types[u.type], 11));
      nodes.push(el("button", { type: "button", class: `unit-btn ${u.side}${clickU.has(u.id) ? " legal" : ""}${ui.sel === u.id ? " selected" : ""}`,
        "data-unit-btn": u.id, onclick: () => { back(); closePop(); onUnitClick(u.id); } },
        svgEl, `${unitTitle(u)}${unitState(u)}`));
    }
  }
  nodes.push(el("button", { type: "button", class: "close", "aria-label": t("Close"), onclick: () => closePop(true) }, "×"));
  pop.replaceChildren(...nodes);
  pop.hidden = false;
  // beside the box (or the tap), kept inside the map
  const wrap = $("map-wrap").getBoundingClientRect();
  let r;
  if (ui.pop.which) r = { left: ui.pop.x - 1, right: ui.pop.x + 1, top: ui.pop.y - 1, bottom: ui.pop.y + 1 };
  else r = map.boxEl(ui.pop.box).querySelector(".frame").getBoundingClientRect();
  const pw = pop.offsetWidth, ph = pop.offsetHeight;
  let left = r.right + 8 - wrap.left;
  if (left + pw > wrap.width - 4) left = r.left - 8 - pw - wrap.left;
  left = Math.max(4, Math.min(left, wrap.width - pw - 4));
  const top = Math.max(4, Math.min(r.top - wrap.top, wrap.height - ph - 4));
  pop.style.left = `${left}px`; pop.style.top = `${top}px`;
}

// a box chosen on the map (click, tap, or Enter on the focused box)
function pickBox(id, keyboard) {
  const { boxes } = myTurn() ? clickables() : { boxes: new Map() };
  const occupied = game.state && game.state.units.some((u) => u.loc === id);
  if (!boxes.has(id) && !ui.sel && occupied) return openPop({ box: id, keyboard });
  onBoxClick(id);
}
map.onPick = (id) => pickBox(id, true);

// The box that needs a decision now: the view pans to it.
function decisionBox() {
  const s = game.state;
  if (!s || !myTurn()) return null;
  if (s.battle && map.boxes.has(s.battle.box)) return s.battle.box;
  if (s.active && map.boxes.has(s.active)) return s.active;
  const { boxes } = clickables();
  return boxes.size === 1 ? [...boxes.keys()][0] : null;
}
// Where the opening view looks when it cannot show the whole board readably.
function openingBoxes() {
  const d = decisionBox();
  if (d) return [d];
  const side = game.yourSides[0] || game.toAct || "union";
  const home = side === "confederate" ? "richmond" : "washington";
  if (map.boxes.has(home)) return [home];
  const u = game.state && game.state.units.find((x) => x.side === side && map.boxes.has(x.loc));
  return u ? [u.loc] : [];
}

// ---------------------------------------------------------------------------- wiring
$("map").addEventListener("click", (ev) => {
  if (map.suppressClick) return;
  if (past.active) { past.toNowAgain(); return; }
  if (map.lastPointer === "touch" || map.lastPointer === "pen") {
    // where the finger came down: the browser moves a tap's click onto the nearest
    // clickable thing, which is the very guess this is here to avoid
    const at = map.lastDown || { x: ev.clientX, y: ev.clientY };
    const near = map.boxesNear(at.x, at.y, TOUCH_SLOP);
    if (near.length > 1) return openPop({ which: near, x: at.x, y: at.y });
  }
  const u = ev.target.closest("[data-unit]");
  if (u) {
    const pile = (map.piles.get(u.dataset.loc) || []).find((p) => p.units.includes(u.dataset.unit));
    if (pile && pile.units.length > 1) return openPop({ box: u.dataset.loc });
    return onUnitClick(u.dataset.unit);
  }
  const badge = ev.target.closest("[data-pile]");
  if (badge) return openPop({ box: badge.dataset.pile });
  const b = ev.target.closest("[data-box]");
  if (b) return onBoxClick(b.dataset.box);
  if (ui.pop) closePop();
  if (ui.sel || ui.chooser) { ui.sel = null; ui.chooser = null; render(null, false); }
});
$("battle").addEventListener("click", (ev) => {
  const u = ev.target.closest("[data-unit]");
  if (u) onUnitClick(u.dataset.unit);
});
$("zoom-in").addEventListener("click", () => map.setStep(map.step + 1));
$("zoom-out").addEventListener("click", () => map.setStep(map.step - 1));
$("zoom-fit").addEventListener("click", () => map.fit());
const boardList = new BoardList($("board-list"), map, boot.types, {
  label, act, myTurn, unitLabel: (u) => `${unitTitle(u)} ${u.id}`,
});
// The list view replaces the map; the choice is remembered in this browser.
function setListView(on, atLoad) {
  boardList.setOpen(on);
  $("list-toggle").setAttribute("aria-pressed", on ? "true" : "false");
  $("map-wrap").classList.toggle("list-mode", on);
  boardList.render(game);
  const head = $("list-decisions");
  if (on && head && !atLoad) head.focus();
  prefs.list = on;
  localStorage.setItem("hd-prefs", JSON.stringify(prefs));
}
$("list-toggle").addEventListener("click", () => setListView(!boardList.open));
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select")) return;
  if ((ev.key === "z" && (ev.ctrlKey || ev.metaKey)) || (ev.key === "u" && !ev.ctrlKey && !ev.metaKey)) { ev.preventDefault(); undo(); }
  else if (ev.key === "+" || ev.key === "=") map.setStep(map.step + 1);
  else if (ev.key === "-") map.setStep(map.step - 1);
  else if (ev.key === "0") map.fit();
  else if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && !ev.defaultPrevented && !ev.altKey && !ev.ctrlKey && !ev.metaKey
           && !ev.target.closest("#map")) { ev.preventDefault(); past.step(ev.key === "ArrowLeft" ? -1 : 1); }
  else if (ev.key === "Escape" && past.active) past.toNowAgain();
  else if (ev.key === "Escape") { const wasPop = !!ui.pop; ui.sel = null; ui.chooser = null; closePop(wasPop); render(null, false); }
});
// On a phone or tablet the side panel is a sheet over the bottom of the map: a tab opens
// it, the open tab (or the handle) closes it, so the map keeps the screen otherwise.
const sheetMedia = window.matchMedia("(max-width: 1100px)");
function setSheet(open) {
  $("side").classList.toggle("sheet-open", open);
  $("sheet-handle").setAttribute("aria-expanded", open ? "true" : "false");
  $("sheet-handle").textContent = open ? "▾" : "▴";
}
$("sheet-handle").addEventListener("click", () => setSheet(!$("side").classList.contains("sheet-open")));
for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => {
    if (sheetMedia.matches) {
      const open = $("side").classList.contains("sheet-open");
      if (open && tab.getAttribute("aria-selected") === "true") { setSheet(false); return; }
      if (!open) setSheet(true);
    }
    for (const other of document.querySelectorAll("[role=tab]")) {
      const on = other === tab;
      other.setAttribute("aria-selected", on ? "true" : "false");
      $(other.getAttribute("aria-controls")).hidden = !on;
    }
    if (tab.id === "t-chat") chat.seen();
    if (tab.id === "t-log") { const p = $("log").parentElement; p.scrollTop = p.scrollHeight; }
  });
}

if (prefs.list) setListView(true, true);
const chat = new Chat(GID, { isPlayer, user: boot.user, status: () => game.status });
connect();
