// The create-game form: options that do not go with the scenario or with the options
// already ticked are greyed with the server's reason (the engine's own check, asked at
// /api/options/refusals), "Time per move" shows only for by-turn games, and a refusal of
// the form is shown next to the field it is about.
import { api } from "./api.js";

const form = document.getElementById("new-game");
const field = (name) => form.querySelector(`[data-error-for="${name}"]`);
// which field a refusal is about: one of the reasons the options are greyed with now (in
// the reader's language) is about the options; else by the words of an English reason; else
// the general line
const FIELD_WORDS = [["options", /option|ending|sudden death|11\.[13]/i], ["scenario", /scenario/i],
  ["mode", /mode|days_per_move|time per move/i], ["side", /\bside\b/i]];
let refusedNow = [];

function fieldOf(message) {
  if (refusedNow.some((reason) => message.includes(reason))) return "options";
  const hit = FIELD_WORDS.find(([, re]) => re.test(message));
  return hit ? hit[0] : null;
}

function body() {
  const fd = new FormData(form);
  const out = { scenario: fd.get("scenario"), side: fd.get("side"), mode: fd.get("mode"),
                private: fd.get("private") === "on", rated: fd.get("rated") === "on", options: fd.getAll("options") };
  if (out.mode === "async" && fd.get("days_per_move")) out.days_per_move = Number(fd.get("days_per_move"));
  return out;
}

function showFieldError(message, name = message ? fieldOf(message) : null) {
  for (const e of form.querySelectorAll("[data-error-for]")) { e.textContent = ""; e.hidden = true; }
  const general = form.querySelector(".form-error");
  general.textContent = ""; general.hidden = true;
  if (!message) return;
  const target = name ? field(name) : general;
  target.textContent = message;
  target.hidden = false;
}

function showDays() {
  form.querySelector("#days-field").hidden = new FormData(form).get("mode") !== "async";
}

let asked = 0;
async function showRefusals() {
  const fd = new FormData(form);
  const q = new URLSearchParams({ scenario: fd.get("scenario") });
  for (const o of fd.getAll("options")) q.append("chosen", o);
  const mine = ++asked;
  let out;
  try { out = await api(`/api/options/refusals?${q}`); } catch (e) { showFieldError(e.message); return; }
  if (mine !== asked) return;          // a later change asked again
  refusedNow = Object.values(out.refused).filter(Boolean);
  let clash = null;
  for (const span of form.querySelectorAll("[data-refusal]")) {
    const input = form.querySelector(`input[name="options"][value="${CSS.escape(span.dataset.refusal)}"]`);
    const li = span.closest("li");
    if (li.classList.contains("unavailable")) continue;   // not played by the engine yet
    const reason = out.refused[span.dataset.refusal];
    span.textContent = reason || "";
    span.hidden = !reason;
    li.classList.toggle("refused", !!reason);
    // a ticked option stays clickable, so that it can be unticked
    input.disabled = !!reason && !input.checked;
    if (reason && input.checked) clash = reason;
  }
  showFieldError(clash, "options");
}

form.addEventListener("change", (ev) => {
  if (ev.target.name === "mode") showDays();
  if (ev.target.name === "scenario" || ev.target.name === "options") showRefusals();
});
form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const btn = form.querySelector("[type=submit]");
  btn.disabled = true;
  showFieldError("");
  try {
    const out = await api(form.dataset.api, body());
    location.assign(`/games/${encodeURIComponent(out.id)}`);
  } catch (e) {
    showFieldError(e.message);
    btn.disabled = false;
  }
});
showDays();
showRefusals();
