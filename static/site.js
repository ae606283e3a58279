// Site-wide behaviour: API-backed forms (login, register), join and logout buttons.
import { api, showError } from "./api.js";

// (the create-game form submits itself: static/new-game.js)
function formBody(form) {
  const fd = new FormData(form);
  const out = {};
  for (const [k, v] of fd.entries()) if (v !== "") out[k] = v;
  return out;
}

for (const form of document.querySelectorAll("form[data-api]:not([data-own-submit])")) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const btn = form.querySelector("[type=submit]");
    btn.disabled = true;
    showError(form, "");
    try {
      await api(form.dataset.api, formBody(form));
      location.assign(form.dataset.next || "/");
    } catch (e) {
      showError(form, e.message);
      btn.disabled = false;
    }
  });
}

document.addEventListener("click", async (ev) => {
  const t = ev.target.closest("[data-logout],[data-join]");
  if (!t) return;
  ev.preventDefault();
  try {
    if (t.hasAttribute("data-logout")) {
      await api("/api/auth/logout", {});
      location.assign("/");
    } else {
      const gid = t.dataset.join;
      await api(`/api/games/${encodeURIComponent(gid)}/join`, {});
      location.assign(`/games/${encodeURIComponent(gid)}`);
    }
  } catch (e) {
    showError(document, e.message);
  }
});

// the header's language select: saved in the account (when logged in) and in a cookie
const language = document.getElementById("language");
if (language) {
  language.addEventListener("change", async () => {
    try {
      await api("/api/language", { language: language.value });
      location.reload();
    } catch (e) { language.title = e.message; }
  });
}
