// Challenges on the site: the form on a player's profile, and accepting or declining
// the challenges listed in the lobby.
import { api, showError } from "./api.js";
import { t } from "./i18n.js";

const form = document.getElementById("challenge");
if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fd = new FormData(form);
    const sent = form.querySelector("[data-sent]");
    showError(form, "");
    try {
      await api(`/api/challenges/${encodeURIComponent(form.dataset.username)}`, { scenario: fd.get("scenario"),
        side: fd.get("side"), mode: fd.get("mode"), rated: fd.get("rated") === "on" });
      sent.textContent = t("Challenge sent: the game starts when {username} accepts it.", { username: form.dataset.username });
      sent.hidden = false;
    } catch (e) {
      showError(form, e.message);
    }
  });
}

document.addEventListener("click", async (ev) => {
  const button = ev.target.closest("[data-accept],[data-decline]");
  if (!button) return;
  try {
    if (button.dataset.accept) {
      const out = await api(`/api/challenges/${encodeURIComponent(button.dataset.accept)}/accept`, {});
      location.assign(`/games/${encodeURIComponent(out.game.id)}`);
    } else {
      await api(`/api/challenges/${encodeURIComponent(button.dataset.decline)}/decline`, {});
      button.closest("li").remove();
    }
  } catch (e) {
    showError(document, e.message);
  }
});
