// The administrators' page: the dispute queue, decisions on a game, integrity, the audit log.
import { api, el } from "./api.js";

const $ = (id) => document.getElementById(id);

async function loadDisputes() {
  const st = $("d-status").value;
  try {
    const out = await api(`/api/admin/disputes?status=${st}`);
    if (!out.disputes.length) { $("disputes").replaceChildren(el("p", {}, "No disputes.")); return; }
    $("disputes").replaceChildren(el("ul", { class: "plain" }, ...out.disputes.map((d) => el("li", { "data-dispute": d.id },
      el("strong", {}, `#${d.id} · ${d.status}`), ` · game `, el("a", { href: `/games/${d.game_id}` }, d.game_id),
      d.game ? ` (${d.game.status}, seq ${d.game.seq})` : "", ` · ${d.user} about `,
      el("a", { href: `/games/${d.game_id}/replay#seq=${d.seq}` }, `seq ${d.seq}`), ` · ${d.created_at}`,
      el("blockquote", {}, d.text),
      d.resolution ? el("p", {}, `Decision: ${d.decision} — ${d.resolution}`) : null,
      d.status === "open" ? el("span", {},
        el("button", { type: "button", onclick: () => { $("g-id").value = d.game_id; $("g-dispute").value = d.id; $("g-seq").value = Math.max(1, d.seq - 1); $("g-reason").focus(); } }, "Decide…"),
        " ",
        el("button", { type: "button", onclick: async () => {
          const reason = prompt("Why is this dispute dismissed?");
          if (!reason) return;
          try { await api(`/api/admin/disputes/${d.id}/dismiss`, { reason }); loadDisputes(); loadAudit(); } catch (e) { alert(e.message); }
        } }, "Dismiss")) : null))));
  } catch (e) { $("disputes").replaceChildren(el("p", {}, e.message)); }
}

async function loadAudit() {
  const out = await api("/api/admin/audit?limit=200");
  $("audit").replaceChildren(...out.actions.map((a) => el("tr", {}, el("td", {}, a.at), el("td", {}, a.admin), el("td", {}, a.action),
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
  $("integrity").textContent = "checking…";
  try { $("integrity").textContent = JSON.stringify(await api("/api/admin/integrity?run=true"), null, 1); } catch (e) { $("integrity").textContent = e.message; }
});
loadDisputes();
loadAudit();
