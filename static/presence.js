// Who is on the game page: beside each player's name, "online", "away 3 min" or "gone
// 12 min" (gone: away at least as long as the site waits before the opponent may hand
// the seat to the computer, boot.gone_after_s); and how many people are watching. The
// server says per seat whether its player is here, or for how many seconds they have been
// away (the "snapshot" and "watchers" messages); the page counts on from there.
import { t, tn } from "./i18n.js";
import { SIDE_NAME } from "./map.js";

const $ = (id) => document.getElementById(id);

// a duration in the page's words, short (the status bar is one line): "<1 min", "3 min", "2 hours"
export function durationWords(seconds) {
  if (seconds < 60) return t("<1 min");
  if (seconds < 3600) return t("{n} min", { n: Math.floor(seconds / 60) });
  return tn("{n} hour", "{n} hours", Math.floor(seconds / 3600));
}

// "online" | "away" | "gone" | "unknown" (not here, since when unknown), with seconds away
export function seatState(p, receivedAt, goneAfterS, now = Date.now()) {
  if (!p) return { state: "unknown", awayFor: null };
  if (p.here) return { state: "online", awayFor: 0 };
  if (p.away_for === null || p.away_for === undefined) return { state: "unknown", awayFor: null };
  const awayFor = p.away_for + Math.max(0, (now - receivedAt) / 1000);
  return { state: awayFor >= goneAfterS ? "gone" : "away", awayFor };
}

function stateWords({ state, awayFor }) {
  if (state === "online") return t("online");
  if (state === "unknown") return t("not here");
  const time = durationWords(awayFor);
  return state === "gone" ? t("gone {time}", { time }) : t("away {time}", { time });
}

export class Presence {
  // goneAfterS: seconds away after which a player counts as gone
  constructor(goneAfterS) {
    this.goneAfterS = goneAfterS;
    this.seats = null; this.receivedAt = 0; this.game = null;
    setInterval(() => this.render(), 20000);   // "away 3 min" becomes "away 4 min"
  }

  // a "snapshot" or "watchers" message
  update(count, presence) {
    $("watchers").textContent = tn("{n} watching", "{n} watching", count ?? 0);
    $("watchers").dataset.count = count ?? 0;
    if (presence) { this.seats = presence; this.receivedAt = Date.now(); }
    this.render();
  }

  // what the game says matters: its seats (a computer is always there), status, whose turn
  follow(game) { this.game = game; this.render(); }

  state(side) { return seatState(this.seats && this.seats[side], this.receivedAt, this.goneAfterS); }

  render() {
    if (!this.seats || !this.game) return;
    for (const side of ["union", "confederate"]) {
      const badge = $(`presence-${side}`);
      const seat = this.game.seats && this.game.seats[side];
      const st = this.state(side);
      const words = stateWords(st);
      // online: the dot before the name says it (the status bar keeps to one line); the
      // words are in the name's tooltip and read aloud
      const name = $(`seat-${side}`);
      name.classList.toggle("online", st.state === "online");
      name.title = `${SIDE_NAME[side]} · ${words}`;
      name.setAttribute("aria-label", `${name.textContent} (${SIDE_NAME[side]}): ${words}`);
      badge.hidden = !seat || !!seat.computer || st.state === "online";
      badge.className = `presence ${st.state}`;
      badge.dataset.state = st.state;
      badge.textContent = words;
    }
    this.offerTakeover();
  }

  // "Opponent gone?" (computer.js builds it): in a live game only once the opponent, whose
  // turn it is, has been away the time the help states (the server checks it again)
  offerTakeover() {
    const place = $("takeover-tools");
    const g = this.game;
    if (!place || !place.dataset.live || !g) return;
    const mine = g.yourSides || [];
    const other = mine[0] === "union" ? "confederate" : "union";
    const gone = this.state(other).state === "gone" || this.state(other).state === "unknown";
    place.hidden = !(mine.length === 1 && g.status === "active" && g.toAct === other && gone);
  }
}
