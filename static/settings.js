// Settings page: per-browser display preferences and personal API tokens.
import { api, el, showError } from "./api.js";
import { dateTime, t } from "./i18n.js";

const PREFS = "hd-prefs";
const prefs = JSON.parse(localStorage.getItem(PREFS) || "{}");
for (const input of document.querySelectorAll("[data-pref]")) {
  const k = input.dataset.pref;
  if (k in prefs) {
    if (input.type === "checkbox") input.checked = !!prefs[k]; else input.value = prefs[k];
  }
  input.addEventListener("change", () => {
    prefs[k] = input.type === "checkbox" ? input.checked : input.value;
    localStorage.setItem(PREFS, JSON.stringify(prefs));
  });
}

const list = document.getElementById("tokens");
async function loadTokens() {
  const out = await api("/api/auth/tokens");
  const unnamed = t("(unnamed)");
  list.replaceChildren(...out.tokens.map((token) => el("li", {},
    t("{name} · created {when}", { name: token.name || unnamed, when: dateTime(token.created_at, { dateStyle: "medium" }) }), " ",
    el("button", { type: "button", "aria-label": t("Revoke token {name}", { name: token.name || token.id }), onclick: async () => {
      await api(`/api/auth/tokens/${token.id}`, undefined, "DELETE"); loadTokens();
    } }, t("Revoke")))));
  if (!out.tokens.length) list.replaceChildren(el("li", { class: "empty" }, t("No tokens.")));
}
document.getElementById("new-token").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = ev.target.name.value.trim() || null;
  try {
    const out = await api("/api/auth/tokens", { name });
    const p = document.getElementById("token-out");
    p.textContent = t("New token (shown once): {token}", { token: out.token });
    p.hidden = false;
    ev.target.reset();
    loadTokens();
  } catch (e) { showError(document, e.message); }
});
loadTokens().catch((e) => showError(document, e.message));
