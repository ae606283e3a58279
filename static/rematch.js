// The rematch of a finished game: offered to the same opponent (sides swapped), who accepts
// or declines it on the finished game's page (live, as the game's events arrive) or in the
// lobby. The server keeps the new game's free seat for that opponent only.
import { api, el, showError } from "./api.js";
import { SIDE_NAME } from "./map.js";
import { t } from "./i18n.js";

const gamePath = (gid, what) => `/api/games/${encodeURIComponent(gid)}/${what}`;
const gameUrl = (gid) => `/games/${encodeURIComponent(gid)}`;

export async function acceptRematch(oldGid) {
  const g = await api(gamePath(oldGid, "accept-rematch"), {});
  location.assign(gameUrl(g.id));
}

export const declineRematch = (oldGid) => api(gamePath(oldGid, "decline-rematch"), {});

// Ask for a rematch: against the computer it starts at once (go there); a person is asked,
// and this page waits for the answer (its events say when it comes).
export async function offerRematch(oldGid) {
  const g = await api(gamePath(oldGid, "rematch"), {});
  if (g.status === "active") location.assign(gameUrl(g.id));
  return g;
}

// The rematch's part of the game-over banner: [words, buttons] for this reader.
// `rm` is the finished game's rematch ({game_id, by, side, status, declined_by}) or null;
// hooks: isPlayer, username, offer(), accept(), decline().
export function rematchNodes(rm, hooks) {
  if (!rm) {
    return hooks.isPlayer ? [[], [el("button", { type: "button", class: "primary", id: "rematch", onclick: hooks.offer }, t("Rematch (sides swapped)"))]] : [[], []];
  }
  const mine = rm.by === hooks.username;
  const note = (text) => el("p", { id: "rematch-note" }, text);
  const go = (id, text, cls) => el("a", { class: `button${cls ? " " + cls : ""}`, id, href: gameUrl(rm.game_id) }, text);
  if (rm.status === "aborted") {
    return [[note(rm.declined_by ? t("{user} declined the rematch.", { user: rm.declined_by }) : t("The rematch was called off."))], []];
  }
  if (rm.status !== "open") {
    return [[], [hooks.isPlayer ? go("rematch-go", t("Go to the rematch"), "primary") : go("rematch-watch", t("Watch the rematch"))]];
  }
  if (!hooks.isPlayer) return [[note(t("{user} asks for a rematch.", { user: rm.by }))], []];
  if (mine) {
    return [[note(t("You asked for a rematch as the {side}: waiting for your opponent's answer.", { side: SIDE_NAME[rm.side] }))],
      [go("rematch-go", t("Go to the rematch"))]];
  }
  return [[note(t("{user} asks for a rematch, playing the {side}: you play the other side.", { user: rm.by, side: SIDE_NAME[rm.side] }))],
    [el("button", { type: "button", class: "primary", id: "rematch-accept", onclick: hooks.accept }, t("Accept the rematch")),
      el("button", { type: "button", id: "rematch-decline", onclick: hooks.decline }, t("Decline"))]];
}

// The one who asked waits on the finished game's page: once the opponent has taken the
// seat, go on to the new game (as the opponent did).
export function followAcceptedRematch(before, now, username) {
  if (now && now.by === username && now.status === "active" && (!before || before.status === "open")) {
    location.assign(gameUrl(now.game_id));
  }
}

// The lobby's "Rematches offered to you": Accept goes to the new game, Decline removes the line.
const offers = document.getElementById("rematch-offers");
if (offers) {
  offers.addEventListener("click", async (ev) => {
    const button = ev.target.closest("[data-rematch-accept],[data-rematch-decline]");
    if (!button) return;
    try {
      if (button.dataset.rematchAccept) await acceptRematch(button.dataset.rematchAccept);
      else {
        await declineRematch(button.dataset.rematchDecline);
        button.closest("li").remove();
      }
    } catch (e) {
      showError(document, e.message);
    }
  });
}
