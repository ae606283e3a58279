// The game page of a game against the computer, once it is over: the expert's evaluation
// beside the move list (the Log tab), each point a link to that position in the replay.
// Shown when the page opens on a finished game, or as soon as the game ends while it is
// open (the game-over banner appears).
import { showAnalysis } from "./analysis.js";
import { sideName } from "./words.js";

const section = document.getElementById("analysis");
const bootEl = document.getElementById("boot");
if (section && bootEl) {
  const g = JSON.parse(bootEl.textContent).summary;
  const seats = g.seats || {};
  const vsComputer = ["union", "confederate"].some((s) => seats[s] && seats[s].computer);
  const replay = (p) => `/games/${encodeURIComponent(g.id)}/replay#seq=${p.seq}`;
  let shown = false;
  const show = () => {
    if (shown) return;
    shown = true;
    showAnalysis(section, g.id, { sideName, href: replay });
  };
  if (vsComputer && (g.status === "finished" || g.status === "aborted")) show();
  else if (vsComputer) {
    const banner = document.getElementById("game-over");
    const watch = new MutationObserver(() => { if (!banner.hidden) { watch.disconnect(); show(); } });
    watch.observe(banner, { attributes: true, attributeFilter: ["hidden"] });
  }
}
