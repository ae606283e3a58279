// Games against the computer: the lobby's "Play the computer" form, and on a game page
// the hint button (games against the computer) and handing a left seat to the computer.
import { api, el, showError } from "./api.js";
import { t } from "./i18n.js";

// the levels a left seat may go to (app.computer.levels)
const LEVEL_NAMES = { easy: t("Easy"), normal: t("Normal"), hard: t("Hard"), expert: t("Expert") };

const form = document.getElementById("play-computer");
if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fd = new FormData(form);
    const btn = form.querySelector("[type=submit]");
    btn.disabled = true;
    showError(form, "");
    try {
      const out = await api("/api/games", { scenario: fd.get("scenario"), side: fd.get("side"), mode: "live",
        options: fd.getAll("options"), opponent: { computer: fd.get("level") } });
      location.assign(`/games/${encodeURIComponent(out.id)}`);
    } catch (e) {
      showError(form, e.message);
      btn.disabled = false;
    }
  });
}

const tools = document.getElementById("computer-tools");
const bootEl = document.getElementById("boot");
if (tools && bootEl) {
  const boot = JSON.parse(bootEl.textContent);
  const g = boot.summary;
  const mine = g.your_sides || [];
  if (mine.length && g.status === "active") {
    const other = mine[0] === "union" ? "confederate" : "union";
    const out = el("span", { class: "hint", "aria-live": "polite" });
    const opponent = g.seats[other];
    if (opponent && opponent.computer) {
      tools.append(el("button", { type: "button", onclick: async () => {
        try {
          const h = await api(`/api/games/${encodeURIComponent(g.id)}/hint`);
          // the game page knows the words for an action (the server's catalog, the map's
          // names); it fills them in while this event is dispatched (synchronously)
          const ask = { action: h.action, words: "" };
          tools.dispatchEvent(new CustomEvent("describe-action", { detail: ask }));
          out.textContent = t("The expert level would play: {action}", { action: ask.words || h.action.type });
        } catch (e) { out.textContent = e.message; }
      } }, t("Hint")), out);
      tools.hidden = false;
    } else {
      // rarely needed, so out of the prompt bar (where it would take height from the map):
      // beside the game's details, and the server says when it is too early
      const place = document.getElementById("takeover-tools");
      const level = el("select", { "aria-label": t("Level of the computer") },
        ...Object.entries(LEVEL_NAMES).map(([id, name]) => el("option", { value: id, selected: id === "normal" }, name)));
      place.append(`${t("Opponent gone?")} `, el("button", { type: "button", class: "linkish", title: t("When your opponent has left: their time is up, or a live game waits for them for several minutes"), onclick: async () => {
        try {
          await api(`/api/games/${encodeURIComponent(g.id)}/computer-takeover`, { level: level.value });
          location.reload();
        } catch (e) { out.textContent = e.message; }
      } }, t("Let the computer take their seat")), " ", level, " ", out);
      // shown only when the opponent has left: a live game's page shows it once they have
      // been away long enough (presence.js), a by-turn game's once their time is up
      if (g.mode === "async") showWhenTimeIsUp(g.id, place);
      else place.dataset.live = "1";
    }
  }
}

async function showWhenTimeIsUp(gid, place) {
  try {
    const clock = await api(`/api/games/${encodeURIComponent(gid)}/clock`);
    place.hidden = !clock.can_claim;
  } catch (e) { /* no clock: nothing to offer */ }
}
