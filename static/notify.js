// Play by turn: the "waiting for you" badge, the notices page, the notice
// settings (mail, webhook, vacation), the game page's clock / claim / standing orders
// panel and the admin outbox's retry buttons. Text only in the DOM (no HTML strings).
import { api, el, showError } from "./api.js";
import { dateTime, t, tn } from "./i18n.js";

const $ = (s) => document.querySelector(s);

function hours(sec) {
  if (sec === null || sec === undefined) return "";
  if (sec <= 0) return t("time is up");
  const d = Math.floor(sec / 86400), h = Math.floor((sec % 86400) / 3600), m = Math.floor((sec % 3600) / 60);
  return d ? t("{d} d {h} h left", { d, h }) : t("{h} h {m} min left", { h, m });
}

// ---- badge in the top bar: pushed over the user socket /ws/me whenever one of my games
// changes whose turn it is (no polling); read once more after marking notices read
function showBadge(w) {
  const a = $("#notify-badge");
  if (!a) return;
  const n = a.querySelector(".badge");
  n.textContent = String(w.count);
  n.hidden = w.count === 0;
  a.title = `${tn("{n} game waiting for you", "{n} games waiting for you", w.count)}, ${tn("{n} unread notice", "{n} unread notices", w.unread)}`;
}

async function badge() {
  try { showBadge(await api("/api/me/waiting")); } catch (e) { /* logged out */ }
}

let userSocketTries = 0;
function userSocket() {
  if (!$("#notify-badge")) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/me`);
  const ping = setInterval(() => { if (ws.readyState === 1) ws.send('{"type":"ping"}'); }, 25000);
  ws.onopen = () => { userSocketTries = 0; };
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    if (msg.type === "waiting") showBadge(msg);
  };
  ws.onclose = (ev) => {
    clearInterval(ping);
    if (ev.code === 4401) return;   // logged out
    setTimeout(userSocket, Math.min(30000, 1000 * 2 ** userSocketTries++) * (0.75 + Math.random() / 2));
  };
}
userSocket();

// ---- notices page
const markRead = $("#mark-read");
if (markRead) markRead.addEventListener("click", async () => {
  await api("/api/me/notices/read", {});
  for (const li of document.querySelectorAll("#notice-list li.unread")) li.className = "read";
  badge();
});

// ---- notices page: mute / unmute a game (no mail or webhook about it; notices stay)
for (const b of document.querySelectorAll("[data-mute]")) {
  b.addEventListener("click", async () => {
    b.disabled = true;
    const method = b.dataset.muted === "1" ? "DELETE" : "PUT";
    try { await api(`/api/games/${encodeURIComponent(b.dataset.mute)}/mute`, {}, method); location.reload(); }
    catch (e) { alert(e.message); b.disabled = false; }
  });
}

// ---- settings
async function loadPrefs() {
  const p = await api("/api/me/notifications");
  $("#mail-email").value = p.email || "";
  for (const r of document.querySelectorAll("input[name=mail_mode]")) r.checked = r.value === p.mail_mode;
  $("#mail-zone").value = p.time_zone || "UTC";
  $("#mail-hour").value = String(p.digest_hour ?? 8);
  $("#mail-status").textContent = !p.email ? t("No address: no mail is sent.")
    : p.email_verified ? t("Confirmed: notices go to {email}.", { email: p.email })
    : t("Not confirmed yet: open the link we mailed to {email}.", { email: p.email });
  $("#mail-verify").hidden = !p.email || p.email_verified;
  const h = p.webhook;
  $("#hook-url").value = h ? h.url : "";
  $("#hook-key").value = h ? h.json_key : "content";
  $("#hook-prefix").value = h ? h.prefix : "";
  $("#hook-status").textContent = !h ? t("No webhook.") :
    h.last_error ? t("Last error ({when}): {error}", { when: dateTime(h.last_error_at), error: h.last_error }) :
    h.last_ok_at ? t("Last delivered {when}.", { when: dateTime(h.last_ok_at) }) : t("Nothing sent yet.");
  const v = p.vacation;
  $("#vacation-status").textContent = (v.on_vacation ? `${t("On vacation until {when}: your clocks are paused.", { when: dateTime(v.until) })} ` : "")
    + tn("{n} of {total} vacation day left this year.", "{n} of {total} vacation days left this year.", v.days_left, { total: v.days_per_year });
  $("#vacation-end").hidden = !v.on_vacation;
}

// the webhook's signing secret comes only in the answer that created it: show it now
function showSecret(p) {
  const secret = p && p.webhook && p.webhook.secret;
  if (!secret) return;
  const box = $("#hook-secret");
  box.replaceChildren(`${t("Signing secret (copy it now: it is not shown again):")} `, el("code", {}, secret));
  box.hidden = false;
}

function wire(form, fn) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError(form, "");
    try { await fn(new FormData(form)); await loadPrefs(); } catch (e) { showError(form, e.message); }
  });
}

if ($("#mail-form")) {
  wire($("#mail-form"), (fd) => api("/api/me/notifications", {
    email: fd.get("email") || "", mail_mode: fd.get("mail_mode") || undefined,
    time_zone: fd.get("time_zone") || "UTC", digest_hour: Number(fd.get("digest_hour")),
  }, "PUT"));
  wire($("#hook-form"), (fd) => api("/api/me/webhook", { url: fd.get("url"), json_key: fd.get("json_key") || "content", prefix: fd.get("prefix") || "" }, "PUT").then(showSecret));
  $("#hook-rotate").addEventListener("click", () => api("/api/me/webhook/secret", {}).then(showSecret).catch((e) => showError($("#hook-form"), e.message)));
  wire($("#vacation-form"), (fd) => api("/api/me/vacation", { days: Number(fd.get("days")) }));
  $("#mail-verify").addEventListener("click", () => api("/api/me/email/verify", {}).then(loadPrefs).catch((e) => showError($("#mail-form"), e.message)));
  $("#hook-test").addEventListener("click", () => api("/api/me/webhook/test", {}).then(() => setTimeout(loadPrefs, 3000)).catch((e) => showError($("#hook-form"), e.message)));
  $("#hook-delete").addEventListener("click", () => api("/api/me/webhook", undefined, "DELETE").then(loadPrefs));
  $("#vacation-end").addEventListener("click", () => api("/api/me/vacation", undefined, "DELETE").then(loadPrefs));
  // the forms open once they show what is saved, so that nothing typed is overwritten
  loadPrefs().then(() => { $("#notices-gate").disabled = false; }, (e) => showError($("#mail-form"), e.message));
}

// ---- game page: clock, claim / extend, standing orders
const panel = $("#pbt-panel");
if (panel) {
  const gid = panel.dataset.game;
  const mine = panel.dataset.player === "1";
  const ORDERS = [["stand", t("Defending cavalry stands (5.6)")], ["never_reinforce", t("Never reinforce (5.5)")],
                  ["retreat_when_outnumbered", t("Retreat when outnumbered (5.4)")]];
  async function draw() {
    const c = await api(`/api/games/${encodeURIComponent(gid)}/clock`);
    const parts = [];
    if (c.days_per_move) {
      parts.push(el("p", {}, `${tn("{n} day per move.", "{n} days per move.", c.days_per_move)} `,
        c.side ? `${c.side === "union" ? t("Union") : t("Confederate")}: ${c.paused || c.on_vacation_until ? t("clock paused (vacation)") : hours(c.seconds_left)}` : ""));
      if (c.can_claim) parts.push(el("button", { type: "button", id: "claim-win", onclick: () => act("claim") }, t("Claim the win on time")));
      if (c.can_extend) parts.push(el("button", { type: "button", id: "extend-time", onclick: () => act("extend") }, t("Give one more day")));
    }
    if (mine) {
      const o = await api(`/api/games/${encodeURIComponent(gid)}/orders`);
      const cur = o.orders || {};
      const form = el("form", { id: "orders-form", class: "stack" }, el("h3", {}, t("Standing battle orders")),
        el("p", { class: "hint" }, t("Used when you have not answered a battle decision within {minutes} minutes; shown in the log.", { minutes: o.grace_minutes })),
        el("label", {}, `${t("Targets")} `, (() => { const s = el("select", { name: "targets" },
          el("option", { value: "" }, t("ask me")), el("option", { value: "spread" }, t("spread fire")),
          el("option", { value: "reduced" }, t("finish reduced units first"))); s.value = cur.targets || ""; return s; })()),
        el("label", {}, `${t("Retreat after round")} `, el("input", { type: "number", name: "retreat_after_round", min: 1, max: 20, value: cur.retreat_after_round || "" })),
        ...ORDERS.map(([k, words]) => el("label", {}, el("input", { type: "checkbox", name: k, checked: !!cur[k] }), " ", words)),
        el("button", { type: "submit" }, t("Save orders")), el("p", { class: "form-error", role: "alert", hidden: true }));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const fd = new FormData(form);
        const body = { targets: fd.get("targets") || null, retreat_after_round: fd.get("retreat_after_round") ? Number(fd.get("retreat_after_round")) : null };
        for (const [k] of ORDERS) body[k] = fd.get(k) === "on";
        try { await api(`/api/games/${encodeURIComponent(gid)}/orders`, { orders: body }, "PUT"); showError(form, ""); }
        catch (e) { showError(form, e.message); }
      });
      parts.push(form);
    }
    panel.replaceChildren(...parts);
    panel.hidden = parts.length === 0;
  }
  async function act(what) {
    try { await api(`/api/games/${encodeURIComponent(gid)}/${what}`, what === "extend" ? { days: 1 } : {}); }
    catch (e) { alert(e.message); }
    draw();
  }
  draw().catch(() => {});
}

// ---- admin outbox
for (const b of document.querySelectorAll("[data-retry]")) {
  b.addEventListener("click", async () => {
    b.disabled = true;
    try { await api(`/api/admin/outbox/${b.dataset.retry}/retry`, {}); location.reload(); } catch (e) { alert(e.message); b.disabled = false; }
  });
}
