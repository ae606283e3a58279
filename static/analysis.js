// The expert's evaluation of a finished game, turn by turn (GET /api/games/{id}/analysis),
// drawn as an inline SVG graph beside the move list: the Union's chance to win at the
// start of every Player Turn and at the end. Each point is a link to that position (the
// replay page steps to it; the game page opens the replay there), focusable, with words
// a screen reader says ("Turn 7, Union to move: Union 64%"). The server answers only once
// the game is over (409 during play: it would help a player).
import { api, el } from "./api.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 320, H = 110, PAD = 6;

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function loadAnalysis(gid) {
  return api(`/api/games/${encodeURIComponent(gid)}/analysis`);
}

export function pointWords(p, sideName) {
  return t("Turn {turn}, {side} to move: {union} {percent}%", {
    turn: p.turn, side: sideName(p.side), union: sideName("union"), percent: Math.round(p.union * 100) });
}

// Draws `curve` (the endpoint's answer) into `box`. opts: sideName(side) -> words,
// href(point) -> the link of a point, pick(point) (optional: instead of following the link).
export function drawAnalysis(box, curve, opts) {
  const pts = curve.points || [];
  const n = pts.length;
  const x = (i) => PAD + (n > 1 ? (i * (W - 2 * PAD)) / (n - 1) : (W - 2 * PAD) / 2);
  const y = (u) => PAD + (1 - u) * (H - 2 * PAD);
  const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p.union).toFixed(1)}`).join(" ");
  const area = n ? `M${x(0).toFixed(1)},${H - PAD} L${line.replace(/ /g, " L")} L${x(n - 1).toFixed(1)},${H - PAD} Z` : "";
  const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", role: "group",
    "aria-label": t("The expert's evaluation, turn by turn: the Union's chance to win") },
  svg("rect", { x: PAD, y: PAD, width: W - 2 * PAD, height: H - 2 * PAD, class: "eval-csa" }),
  svg("path", { d: area, class: "eval-union" }),
  svg("line", { x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5), class: "eval-even" }),
  svg("polyline", { points: line, class: "eval-line" }));
  const r = n > 40 ? 2.5 : 4;                        // points of a long game do not overlap
  pts.forEach((p, i) => {
    const words = pointWords(p, opts.sideName);
    const a = svg("a", { href: opts.href(p), tabindex: 0, class: "eval-point", "aria-label": words,
      "data-seq": p.seq, "data-turn": p.turn, "data-at": p.at },
    svg("title", {}, words), svg("circle", { cx: x(i).toFixed(1), cy: y(p.union).toFixed(1), r }));
    if (opts.pick) a.addEventListener("click", (ev) => { ev.preventDefault(); opts.pick(p); });
    graph.append(a);
  });
  box.replaceChildren(graph, el("p", { class: "hint" },
    t("Above the line the Union is ahead. Each point is the start of a Player Turn (the last: the end); choose one to see that position.")));
  box.hidden = false;
  return graph;
}

// Marks the point of the position shown (the last point at or before `seq`).
export function markPosition(box, seq) {
  let now = null;
  for (const a of box.querySelectorAll(".eval-point")) {
    a.classList.remove("now");
    a.removeAttribute("aria-current");
    if (Number(a.dataset.seq) <= seq) now = a;
  }
  if (now) { now.classList.add("now"); now.setAttribute("aria-current", "step"); }
}

// Fetches and draws the curve; says why not when the server refuses (e.g. the game is on).
export async function showAnalysis(section, gid, opts) {
  const box = section.querySelector(".eval-box");
  const msg = section.querySelector(".eval-msg");
  section.hidden = false;
  msg.textContent = t("The expert is looking at the game…");
  try {
    const curve = await loadAnalysis(gid);
    msg.textContent = "";
    drawAnalysis(box, curve, opts);
    section.dataset.ready = "1";
    return curve;
  } catch (e) {
    msg.textContent = e.message;
    return null;
  }
}
