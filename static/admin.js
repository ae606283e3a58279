// The administrators' page: the dispute queue, decisions on a game, integrity, the audit log.
import { api, el } from "./api.js";
import { dateTime, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
// the words of the codes the admin API answers with: a dispute's status, a decision, a game's status
const WORDS = {
  open: t("open"), resolved: t("resolved"), dismissed: t("dismissed"),
  rewind: t("rewind"), adjudicate: t("adjudicate"), annul: t("annul"), dismiss: t("dismiss"),
  active: t("in play"), finished: t("finished"), aborted: t("aborted"),
};
const word = (code) => WORDS[code] || code;

function disputeButtons(d) {
  return el("span", {},
    el("button", { type: "button", onclick: () => { $("g-id").value = d.game_id; $("g-dispute").value = d.id; $("g-seq").value = Math.max(1, d.seq - 1); $("g-reason").focus(); } }, t("Decide…")),
    " ",
    el("button", { type: "button", onclick: async () => {
      const reason = prompt(t("Why is this dispute dismissed?"));
      if (!reason) return;
      try { await api(`/api/admin/disputes/${d.id}/dismiss`, { reason }); loadDisputes(); loadAudit(); } catch (e) { alert(e.message); }
    } }, t("Dismiss")));
}

function dispute(d) {
  return el("li", { "data-dispute": d.id },
    el("strong", {}, `#${d.id} · ${word(d.status)}`), ` · ${t("game")} `, el("a", { href: `/games/${d.game_id}` }, d.game_id),
    d.game ? ` (${word(d.game.status)}, seq ${d.game.seq})` : "", ` · ${t("{user} about", { user: d.user })} `,
    el("a", { href: `/games/${d.game_id}/replay#seq=${d.seq}` }, `seq ${d.seq}`), ` · `,
    el("time", { datetime: d.created_at }, dateTime(d.created_at)),
    el("blockquote", {}, d.text),
    d.resolution ? el("p", {}, t("Decision: {decision} — {resolution}", { decision: word(d.decision), resolution: d.resolution })) : null,
    d.status === "open" ? disputeButtons(d) : null);
}

async function loadDisputes() {
  const st = $("d-status").value;
  try {
    const out = await api(`/api/admin/disputes?status=${st}`);
    if (!out.disputes.length) { $("disputes").replaceChildren(el("p", {}, t("No disputes."))); return; }
    $("disputes").replaceChildren(el("ul", { class: "plain" }, ...out.disputes.map(dispute)));
  } catch (e) { $("disputes").replaceChildren(el("p", {}, e.message)); }
}

async function loadAudit() {
  const out = await api("/api/admin/audit?limit=200");
  $("audit").replaceChildren(...out.actions.map((a) => el("tr", {},
    el("td", {}, el("time", { datetime: a.at }, dateTime(a.at))), el("td", {}, a.admin), el("td", {}, word(a.action)),
    el("td", {}, a.game_id ? el("a", { href: `/games/${a.game_id}/replay` }, a.game_id) : ""), el("td", {}, a.dispute_id ? `#${a.dispute_id}` : ""), el("td", {}, a.reason))));
}

$("game-form").addEventListener("click", async (ev) => {
  const what = ev.target.dataset && ev.target.dataset.do;
  if (!what) return;
  const gid = $("g-id").value.trim(), reason = $("g-reason").value.trim();
  const dispute_id = $("g-dispute").value ? +$("g-dispute").value : null;
  try {
    let out;
    if (what === "recheck") out = await api(`/api/admin/games/${encodeURIComponent(gid)}/recheck`);
    else if (what === "rewind") out = await api(`/api/admin/games/${encodeURIComponent(gid)}/rewind`, { seq: +$("g-seq").value, reason, dispute_id });
    else if (what === "adjudicate") out = await api(`/api/admin/games/${encodeURIComponent(gid)}/adjudicate`, { winner: $("g-winner").value || null, reason, dispute_id });
    else out = await api(`/api/admin/games/${encodeURIComponent(gid)}/annul`, { reason, dispute_id });
    $("game-msg").textContent = JSON.stringify(out);
    loadDisputes(); loadAudit();
  } catch (e) { $("game-msg").textContent = e.message; }
});
$("d-status").addEventListener("change", loadDisputes);
$("integrity-run").addEventListener("click", async () => {
  $("integrity").textContent = t("checking…");
  try { $("integrity").textContent = JSON.stringify(await api("/api/admin/integrity?run=true"), null, 1); } catch (e) { $("integrity").textContent = e.message; }
});
loadDisputes();
loadAudit();
