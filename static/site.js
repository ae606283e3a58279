// Site-wide behaviour: API-backed forms (login, register, new game), join and logout buttons.
import { api, showError } from "./api.js";

function formBody(form) {
  const fd = new FormData(form);
  const kind = form.dataset.kind;
  if (kind === "create") {
    const body = { scenario: fd.get("scenario"), side: fd.get("side"), mode: fd.get("mode"),
             private: fd.get("private") === "on", options: fd.getAll("options") };
    if (body.mode === "async" && fd.get("days_per_move")) body.days_per_move = Number(fd.get("days_per_move"));
    return body;
  }
  const out = {};
  for (const [k, v] of fd.entries()) if (v !== "") out[k] = v;
  return out;
}

for (const form of document.querySelectorAll("form[data-api]")) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const btn = form.querySelector("[type=submit]");
    btn.disabled = true;
    showError(form, "");
    try {
      const out = await api(form.dataset.api, formBody(form));
      if (form.dataset.kind === "create") location.assign(`/games/${encodeURIComponent(out.id)}`);
      else location.assign(form.dataset.next || "/");
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
