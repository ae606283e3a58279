// Decisions without surprises: what asks before it ends a phase, what the page does by
// itself when there is nothing to choose, and how the end of a game reads. Pure functions
// of the game's state and the server's legal actions; game.js wires them in.
import { el } from "./api.js";
import { SIDE_NAME } from "./map.js";
import { PAGE_WORDS, t, tn } from "./i18n.js";
import { rematchNodes } from "./rematch.js";

const MILITIA = ["MI", "MC"];

// The question asked before an action that would end a phase with points left, or null.
export function endPhaseQuestion(action, state) {
  if (action.type === "end_movement" && state.marches > 0) {
    return tn("End movement with {n} March unused?", "End movement with {n} Marches unused?", state.marches);
  }
  const points = state.recruit ? state.recruit.points : 0;
  if (action.type === "end_recruitment" && points > 0) {
    return tn("End recruitment with {n} recruitment point unused?", "End recruitment with {n} recruitment points unused?", points);
  }
  return null;
}

// Why `side` cannot recruit (some or any) Militia now: the pool or the Army Maximum, in
// words, read off the state and the legal actions (empty when nothing holds it back).
export function recruitLimits(state, side, legal, types) {
  const offered = new Set(legal.filter((a) => a.type === "recruit").map((a) => a.unit_type));
  const inPool = (type) => state.units.some((u) => u.side === side && u.loc === "pool" && u.type === type);
  const missing = MILITIA.filter((type) => !offered.has(type));
  if (!missing.length) return [];
  if (missing.length === 2 && !MILITIA.some(inPool)) return [t("the pool has no more Militia")];
  if (missing.length === 2 && state.on_map[side] >= state.army_max[side]) {
    return [t("the Army Maximum of {max} units is reached", { max: state.army_max[side] })];
  }
  return missing.filter((type) => !inPool(type)).map((type) => t("the pool has no more {type}", { type: unitTypeName(type, types) }));
}

// What the page does by itself because there is nothing to choose: the only battle left to
// fight, or a target when every shooter can fire only at the same enemy unit. null otherwise.
export function forcedAction(state, legal) {
  if (!legal.length) return null;
  if (state.phase === "battle_choice" && legal.length === 1 && legal[0].type === "fight") {
    return { action: legal[0], why: t("the only battle to fight") };
  }
  if (state.battle && state.battle.step === "target" && legal.every((a) => a.type === "target")) {
    const targets = new Set(legal.map((a) => a.target));
    if (targets.size === 1) return { action: legal[0], why: t("the only target"), target: legal[0].target };
  }
  return null;
}

const REASON_WORDS = { resignation: t("by resignation"), agreement: t("by agreement") };
const unitTypeName = (type, types) => (PAGE_WORDS.unit_types || {})[type] || (types[type] || { name: type }).name;

// How a result reads: { title: "Union wins" | "Draw" | "Annulled", reason: "by resignation" | the
// engine's words }; an annulled game has no result, so it is not called a draw
export function resultWords(result) {
  const r = result || {};
  const title = r.annulled ? t("Annulled") : r.winner ? t("{side} wins", { side: SIDE_NAME[r.winner] }) : t("Draw");
  return { title, reason: REASON_WORDS[r.reason] || (r.reason ? t(r.reason) : "") };
}

// The game-over banner: the result, its reason, the replay, and the rematch (rematch.js:
// offer one, answer the opponent's, or follow it).
export function gameOverBanner(game, hooks) {
  const { title, reason } = resultWords(game.result);
  const nodes = [el("h2", {}, t("Game over: {result}", { result: title })), reason ? el("p", { class: "reason" }, capital(reason)) : null];
  const links = el("div", { class: "row" }, el("a", { class: "button", href: hooks.replayUrl, id: "over-replay" }, t("Watch the replay")));
  const [notes, buttons] = rematchNodes(game.status === "finished" ? game.rematch : null, hooks);
  if (game.status !== "finished") buttons.length = 0;
  nodes.push(...notes);
  links.append(...buttons);
  nodes.push(links);
  return nodes.filter(Boolean);   // (replaceChildren would write a null as "null")
}

function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

// The draw offer's line in the action bar: [words, buttons] for a player, words for a watcher.
export function drawControls(offer, hooks) {
  if (!offer) {
    return hooks.isPlayer ? [el("button", { type: "button", id: "offer-draw", class: "quiet", onclick: hooks.offer }, t("Offer a draw"))] : [];
  }
  const who = `${offer.username} (${SIDE_NAME[offer.side]})`;
  if (!hooks.isPlayer) return [el("span", { class: "draw-offer", id: "draw-offer" }, t("{who} offers a draw.", { who }))];
  if (hooks.mySides.includes(offer.side)) {
    return [el("span", { class: "draw-offer", id: "draw-offer" }, t("Draw offered: waiting for the answer (your next move withdraws it)."))];
  }
  return [el("span", { class: "draw-offer", id: "draw-offer" }, t("{who} offers a draw.", { who })),
    el("button", { type: "button", id: "accept-draw", class: "primary", onclick: hooks.accept }, t("Accept the draw")),
    el("button", { type: "button", id: "decline-draw", onclick: hooks.decline }, t("Decline"))];
}
