// Per-game chat: the players' channel for the two players, the spectators' channel for
// everyone else. Polls the server (works with any number of server processes) and keeps
// an unread mark per channel in this browser.
import { api, el } from "./api.js";

export class Chat {
  constructor(gid, opts) {
    this.gid = gid;
    this.opts = opts;
    this.last = 0;
    this.channel = null;
    this.list = document.getElementById("chat-list");
    this.form = document.getElementById("chat-form");
    this.badge = document.getElementById("chat-unread");
    this.form.addEventListener("submit", (ev) => { ev.preventDefault(); this.post(); });
    this.timer = null;
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.poll(); });
    setTimeout(() => this.start(), 0);
  }

  key() { return `hd-chat-read:${this.gid}:${this.channel}`; }

  start() {
    this.channel = this.opts.isPlayer() ? "players" : "spectators";
    document.getElementById("chat-who").textContent = this.channel === "players"
      ? "Between the two players; spectators cannot read it."
      : "The spectators' chat; the players do not read it during the game.";
    if (!this.opts.user) {
      this.form.hidden = true;
      document.getElementById("chat-who").textContent += " Log in to write.";
    }
    this.poll();
  }

  visible() { return !document.getElementById("tab-chat").hidden; }

  async poll() {
    clearTimeout(this.timer);
    try {
      const want = this.opts.isPlayer() ? "players" : "spectators";
      if (want !== this.channel) { this.channel = want; this.last = 0; this.list.replaceChildren(); }
      const out = await api(`/api/games/${encodeURIComponent(this.gid)}/chat?channel=${this.channel}&after=${this.last}`);
      for (const m of out.messages) this.add(m);
    } catch (e) { /* try again later */ }
    this.timer = setTimeout(() => this.poll(), document.hidden ? 15000 : 3000);
  }

  add(m) {
    if (m.id <= this.last) return;
    this.last = m.id;
    const mine = this.opts.user && m.user === this.opts.user.username;
    this.list.append(el("li", { class: mine ? "mine" : "", "data-id": m.id },
      el("b", {}, m.user), " ", el("span", {}, m.body), el("time", { datetime: m.at }, " " + (m.at || "").slice(11, 16))));
    this.list.parentElement.scrollTop = this.list.parentElement.scrollHeight;
    if (this.visible()) this.seen(); else this.mark();
  }

  mark() {
    const read = +(localStorage.getItem(this.key()) || 0);
    const unread = [...this.list.children].filter((li) => +li.dataset.id > read && !li.classList.contains("mine")).length;
    this.badge.textContent = unread ? String(unread) : "";
    this.badge.hidden = !unread;
    this.badge.setAttribute("aria-label", `${unread} unread`);
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
