// Per-game chat: the players' channel for the two players, the spectators' channel for
// everyone else. The history is read once (and once more after a reconnect: what was
// missed); new messages arrive on the game's websocket ("chat"). An unread mark per
// channel is kept in this browser.
import { api, el } from "./api.js";
import { dateTime, t, tn } from "./i18n.js";

const WHO = {
  players: t("Between the two players; spectators cannot read it."),
  spectators: t("The spectators' chat; the players do not read it during the game."),
};

export class Chat {
  constructor(gid, opts) {
    this.gid = gid;
    this.opts = opts;
    this.last = 0;
    this.ids = new Set();
    this.channel = null;
    this.loaded = false;   // live messages wait until the history is in
    this.early = [];
    this.list = document.getElementById("chat-list");
    this.form = document.getElementById("chat-form");
    this.who = document.getElementById("chat-who");
    this.badge = document.getElementById("chat-unread");
    this.form.addEventListener("submit", (ev) => { ev.preventDefault(); this.post(); });
    setTimeout(() => this.resync(), 0);
  }

  key() { return `hd-chat-read:${this.gid}:${this.channel}`; }

  // the channel this page reads (a spectator who takes a seat switches), then what it missed
  async resync() {
    const want = this.opts.isPlayer() ? "players" : "spectators";
    if (want !== this.channel) {
      this.channel = want; this.last = 0; this.ids.clear(); this.list.replaceChildren();
      this.showWho();
    }
    this.loaded = false;
    try {
      const out = await api(`/api/games/${encodeURIComponent(this.gid)}/chat?channel=${this.channel}&after=${this.last}`);
      for (const m of out.messages) this.add(m);
    } catch (e) {
      // a refusal is said in words where the chat is (never as an error banner)
      this.who.textContent = e.status === 403 ? `${e.message[0].toUpperCase()}${e.message.slice(1)}.` : t("The chat could not be loaded; it will be tried again when the connection comes back.");
      if (e.status === 403 && !this.opts.user) this.who.append(" ", this.loginLink(), ".");
    }
    this.loaded = true;
    const early = this.early; this.early = [];
    for (const m of early) this.receive(m);
  }

  showWho() {
    this.who.replaceChildren(WHO[this.channel]);
    if (!this.opts.user) {
      this.form.hidden = true;
      this.who.append(" ", this.loginLink(), ".");
    }
  }

  loginLink() {
    const next = location.pathname + location.search;
    return el("a", { href: `/login?next=${encodeURIComponent(next)}`, id: "chat-login" }, t("Log in to chat"));
  }

  // a "chat" message from the game's websocket
  receive(m) {
    if (!this.loaded) { this.early.push(m); return; }
    if (m.channel === this.channel) this.add(m);
  }

  visible() { return !document.getElementById("tab-chat").hidden; }

  add(m) {
    if (this.ids.has(m.id)) return;  // own messages come back on the socket too
    this.ids.add(m.id);
    this.last = Math.max(this.last, m.id);
    const mine = this.opts.user && m.user === this.opts.user.username;
    this.list.append(el("li", { class: mine ? "mine" : "", "data-id": m.id },
      el("b", {}, m.user), " ", el("span", {}, m.body), el("time", { datetime: m.at }, " " + (m.at ? dateTime(m.at, { hour: "2-digit", minute: "2-digit" }) : ""))));
    this.list.parentElement.scrollTop = this.list.parentElement.scrollHeight;
    if (this.visible()) this.seen(); else this.mark();
  }

  mark() {
    const read = +(localStorage.getItem(this.key()) || 0);
    const unread = [...this.list.children].filter((li) => +li.dataset.id > read && !li.classList.contains("mine")).length;
    this.badge.textContent = unread ? String(unread) : "";
    this.badge.hidden = !unread;
    this.badge.setAttribute("aria-label", tn("{n} unread", "{n} unread", unread));
  }

  seen() {
    localStorage.setItem(this.key(), String(this.last));
    this.mark();
  }

  async post() {
    const input = document.getElementById("chat-input");
    const body = input.value.trim();
    if (!body) return;
    try {
      const m = await api(`/api/games/${encodeURIComponent(this.gid)}/chat`, { channel: this.channel, body });
      input.value = "";
      this.add(m);
    } catch (e) {
      const n = document.getElementById("notice");
      n.textContent = e.message; n.hidden = false;
    }
  }
}
