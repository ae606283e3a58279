// The SVG board: background, lines, boxes, unit counters; zoom in steps, pan, pinch, keys.
// Box positions come laid out by the server (rules_engine/board_layout.py: one smooth warp
// of geography, the same one the background was drawn with); sizes follow the same rule as
// there, from the constants in map.viewport.box. Nothing here decides what is legal: the
// page passes in sets of boxes/units to highlight.
import { PAGE_WORDS, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const SIDE_NAME = { union: t("Union"), confederate: t("Confederate"), neutral: t("Neutral") };

export function svg(tag, attrs, ...children) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  for (const c of children) if (c) n.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return n;
}

// The board's geometry when a server sends none (an older map JSON): the sizes the layout uses.
const DEFAULT_GEOMETRY = { name_size: 10, name_char: 5, name_line: 10.5, name_max_chars: 12, counter: 18, pad: 2.5, shield: 9, min_width: 43.5 };
// Screen sizes the opening view must reach: names and counters a player can read and hit.
export const READABLE = { name: 10, counter: 18 };
// The whole board opens where its counters are at least this many pixels (a laptop, a
// tablet: their letters still read); a phone opens zoomed in to READABLE.
const WHOLE_BOARD_COUNTER = 12;
export const ZOOM_STEP = 1.25;        // every zoom step magnifies by the same factor
const MAX_STEPS = 9;
const NAME_MIN_SCALE = 0.72;          // a box name's font shrinks to no less than this share
const NAME_MIN_NARROW = 0.92;         // and is then narrowed to no less than this share of its width
const STACK_SHIFT = 1.4;              // offset of each counter under the top of a pile
const STACK_DEPTH = 2;                // piles show at most this many counters under the top one

// Same rule as board_layout.name_lines / box_size.
export function nameLines(name, g) {
  if (name.length <= g.name_max_chars || !name.includes(" ")) return [name];
  let cut = -1;
  for (let i = 0; i < name.length; i++) if (name[i] === " " && (cut < 0 || Math.abs(i - name.length / 2) < Math.abs(cut - name.length / 2))) cut = i;
  return [name.slice(0, cut), name.slice(cut + 1)];
}
export function boxSize(name, g, shields = 0) {
  const lines = nameLines(name, g);
  const textW = Math.max(...lines.map((s) => s.length)) * g.name_char + shields * g.shield;
  const r = (v) => Math.round(v * 10) / 10;
  return { w: r(Math.max(g.min_width, textW + 2 * g.pad)), h: r(g.pad + lines.length * g.name_line + g.counter + g.pad), lines };
}

export class MapView {
  constructor(root, map, types) {
    this.root = root;
    this.map = map;
    this.types = types;
    this.g = { ...DEFAULT_GEOMETRY, ...(map.viewport.box || {}) };
    this.boxes = new Map(map.boxes.map((b) => [b.id, { ...b, ...boxSize(b.name, this.g, Object.keys(b.shields || {}).length) }]));
    this.W = map.viewport.width; this.H = map.viewport.height;
    this.step = 0;
    this.vb = { x: 0, y: 0, w: this.W, h: this.H };
    this.counters = new Map();   // unit id -> <g>
    this.piles = new Map();      // box id -> [{side, units, x, y}]
    this.neigh = new Map();      // box id -> [box id] (for arrow keys)
    for (const ln of map.lines) {
      for (const [p, q] of [[ln.a, ln.b], [ln.b, ln.a]]) {
        if (!this.neigh.has(p)) this.neigh.set(p, new Set());
        this.neigh.get(p).add(q);
      }
    }
    this.animate = true;
    this.viewKey = null;         // localStorage key under which the player's view is kept
    this.onPick = null;          // (box id) => void: Enter on a focused box
    this.build();
    this.initZoom();
    this.initKeys();
    // until the player zooms or pans, the opening view follows the map's size (the prompt
    // and the panels settle after the first paint)
    this.opening = null;
    new ResizeObserver(() => { if (this.opening) this.open(this.opening); else this.setViewBox(); }).observe(root);
  }

  build() {
    const r = this.root;
    r.setAttribute("viewBox", `0 0 ${this.W} ${this.H}`);
    r.setAttribute("preserveAspectRatio", "xMidYMid meet");
    r.append(this.defs());
    r.append(svg("image", { href: "/static/map-background.svg", x: 0, y: 0, width: this.W, height: this.H,
                            class: "bg", "aria-hidden": "true" }));
    this.gLines = svg("g", { class: "lines", "aria-hidden": "true" });
    this.gLast = svg("g", { class: "last-move", "aria-hidden": "true" });   // under the boxes: a halo round each
    this.gBoxes = svg("g", { class: "boxes" });
    this.gMarks = svg("g", { class: "marks", "aria-hidden": "true" });
    this.gUnits = svg("g", { class: "units" });
    this.gBadges = svg("g", { class: "badges", "aria-hidden": "true" });
    this.gOver = svg("g", { class: "overlay", "aria-hidden": "true" });
    r.append(this.gLines, this.gLast, this.gBoxes, this.gMarks, this.gUnits, this.gBadges, this.gOver);
    this.drawLines();
    this.drawBoxes();
  }

  defs() {
    const d = svg("defs");
    d.append(svg("symbol", { id: "shield", viewBox: "0 0 10 12" },
      svg("path", { d: "M0.6 0.6h8.8v5.2c0 3-2.2 4.9-4.4 5.6C2.8 10.7 0.6 8.8 0.6 5.8z" })));
    const anchor = svg("symbol", { id: "anchor", viewBox: "0 0 12 12" });
    anchor.append(svg("circle", { cx: 6, cy: 2, r: 1.3, fill: "none", "stroke-width": 1.1 }),
      svg("path", { d: "M6 3.3V11M3.5 5h5M1.5 7.5c0.5 2.3 2.4 3.5 4.5 3.5s4-1.2 4.5-3.5", fill: "none", "stroke-width": 1.2,
                    "stroke-linecap": "round" }));
    d.append(anchor);
    d.append(svg("marker", { id: "last-arrow", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4.2, markerHeight: 4.2,
                             orient: "auto", markerUnits: "strokeWidth" }, svg("path", { d: "M0 0L10 5L0 10z", class: "last-arrow" })));
    return d;
  }

  // where the straight line from a box's centre towards (tx, ty) leaves its rectangle
  edgePoint(b, tx, ty) {
    const dx = tx - b.x, dy = ty - b.y;
    const k = Math.min(Math.abs(dx) > 1e-6 ? (b.w / 2) / Math.abs(dx) : Infinity, Math.abs(dy) > 1e-6 ? (b.h / 2) / Math.abs(dy) : Infinity);
    return { x: b.x + dx * k, y: b.y + dy * k, side: (b.w / 2) / Math.abs(dx || 1e-6) < (b.h / 2) / Math.abs(dy || 1e-6) ? (dx > 0 ? "e" : "w") : (dy > 0 ? "s" : "n") };
  }

  drawLines() {
    const pairs = new Map();
    for (const ln of this.map.lines) {
      const k = [ln.a, ln.b].sort().join("|");
      if (!pairs.has(k)) pairs.set(k, []);
      pairs.get(k).push(ln);
    }
    const order = { river: 0, road: 1, rail: 2 };
    const rivers = svg("g", { class: "rivers" }), roads = svg("g", { class: "roads" }), rails = svg("g", { class: "rails" });
    this.riverSides = [];
    for (const group of pairs.values()) {
      group.sort((p, q) => order[p.kind] - order[q.kind]);
      group.forEach((ln, i) => {
        const a = this.boxes.get(ln.a), b = this.boxes.get(ln.b);
        if (!a || !b) return;
        const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
        const off = (i - (group.length - 1) / 2) * 5;
        const nx = -dy / len * off, ny = dx / len * off;
        const x1 = a.x + nx, y1 = a.y + ny, x2 = b.x + nx, y2 = b.y + ny;
        const dPath = `M${x1.toFixed(1)} ${y1.toFixed(1)}L${x2.toFixed(1)} ${y2.toFixed(1)}`;
        const title = `${a.name} – ${b.name}: ${ln.kind === "river" ? t("{river} River", { river: ln.river }) : ln.kind === "rail" ? t("railroad") : t("road")}`;
        if (ln.kind === "river") {
          const g = svg("g", { class: "river" + (ln.river === "Potomac" ? " potomac" : "") });
          g.append(svg("title", {}, title));
          g.append(svg("path", { d: dPath, class: "river-bank" }), svg("path", { d: dPath, class: "river-water" }));
          // downstream arrow halfway between the two box edges (the middle of what shows)
          const down = ln.downstream === ln.b ? 1 : -1;
          const pa = this.edgePoint(a, b.x, b.y), pb = this.edgePoint(b, a.x, a.y);
          const mx = (pa.x + pb.x) / 2 + nx, my = (pa.y + pb.y) / 2 + ny;
          const ang = Math.atan2(dy * down, dx * down) * 180 / Math.PI;
          g.append(svg("path", { d: "M-4 -3.2L2.4 0L-4 3.2z", class: "river-arrow",
                                 transform: `translate(${mx.toFixed(1)} ${my.toFixed(1)}) rotate(${ang.toFixed(1)})` }));
          rivers.append(g);
        } else if (ln.kind === "rail") {
          const g = svg("g", { class: "rail" });
          g.append(svg("title", {}, title));
          g.append(svg("path", { d: dPath, class: "rail-bed" }), svg("path", { d: dPath, class: "rail-ties" }));
          rails.append(g);
        } else {
          const g = svg("g", { class: "road" });
          g.append(svg("title", {}, title));
          g.append(svg("path", { d: dPath, class: "road-edge" }), svg("path", { d: dPath, class: "road-top" }));
          roads.append(g);
        }
        for (const sideBox of ln.river_side || []) {
          const bx = this.boxes.get(sideBox), other = sideBox === ln.a ? b : a;
          if (bx) this.riverSides.push([bx, this.edgePoint(bx, other.x, other.y).side]);
        }
      });
    }
    this.gLines.append(rivers, roads, rails);
  }

  drawBoxes() {
    const g0 = this.g;
    for (const b of this.boxes.values()) {
      const g = svg("g", { class: `box color-${b.color}`, "data-box": b.id, transform: `translate(${b.x} ${b.y})`,
                           tabindex: -1, role: "button", "aria-label": boxLabel(b) });
      const x0 = -b.w / 2, y0 = -b.h / 2;
      g.append(svg("rect", { class: "frame", x: x0, y: y0, width: b.w, height: b.h, rx: 2.5 }));
      if (b.fort) g.append(svg("rect", { class: "fort", x: x0 + 1.6, y: y0 + 1.6, width: b.w - 3.2, height: b.h - 3.2, rx: 1.5 }));
      // the name sits between the shields: blue on the left, red on the right
      const sh = b.shields || {};
      const left = sh.union ? g0.shield : 0, right = sh.confederate ? g0.shield : 0;
      const nx = (left - right) / 2;
      const name = svg("text", { class: "name", y: y0 + g0.pad + g0.name_size * 0.86 });
      const allowed = b.w - 2 * g0.pad - left - right;
      b.lines.forEach((s, i) => {
        name.append(svg("tspan", { x: nx, dy: i ? g0.name_line : 0, "data-room": allowed.toFixed(1) }, s));
      });
      g.append(name);
      for (const [side, v] of Object.entries(sh)) {
        const sx = side === "union" ? x0 + g0.pad - 1 : -x0 - g0.pad + 1 - 8.4;
        const s = svg("g", { class: `shield ${side}`, transform: `translate(${sx.toFixed(1)} ${(y0 + 1.2).toFixed(1)})`, "aria-hidden": "true" });
        s.append(svg("use", { href: "#shield", width: 8.4, height: 10 }), svg("text", { x: 4.2, y: 7.3 }, v));
        g.append(s);
      }
      const slot = svg("rect", { class: "slot", x: x0 + g0.pad - 0.5, y: y0 + g0.pad + b.lines.length * g0.name_line - 0.5,
                                  width: b.w - 2 * g0.pad + 1, height: g0.counter + 1, rx: 1.5 });
      g.insertBefore(slot, name);
      this.gBoxes.append(g);
    }
    // marks that sit on the box edge: port anchor (bottom left), river sides (a blue bar
    // along the side a river line enters)
    for (const [b, side] of this.riverSides) {
      const x0 = b.x - b.w / 2, y0 = b.y - b.h / 2, x1 = b.x + b.w / 2, y1 = b.y + b.h / 2;
      const seg = { n: [x0 + 3, y0, x1 - 3, y0], s: [x0 + 3, y1, x1 - 3, y1], w: [x0, y0 + 3, x0, y1 - 3], e: [x1, y0 + 3, x1, y1 - 3] }[side];
      this.gMarks.append(svg("path", { class: "bank", d: `M${seg[0].toFixed(1)} ${seg[1].toFixed(1)}L${seg[2].toFixed(1)} ${seg[3].toFixed(1)}` }));
    }
    for (const b of this.boxes.values()) {
      const x0 = b.x - b.w / 2, y0 = b.y - b.h / 2, x1 = b.x + b.w / 2, y1 = b.y + b.h / 2;
      if (b.port) this.gMarks.append(svg("use", { href: "#anchor", x: (x0 - 3.5).toFixed(1), y: (y1 - 8.5).toFixed(1), width: 10, height: 10, class: "anchor" }));
    }
    this.fitNames();
  }

  // Fit a name to its box's width (fonts differ between machines): a long name is set in a
  // smaller size of the same font, down to NAME_MIN_SCALE of it; only what is still too
  // long after that is narrowed, and never below NAME_MIN_NARROW of its own width (a
  // squeezed name reads worse than a small one).
  fitNames() {
    for (const t of this.gBoxes.querySelectorAll(".name tspan")) {
      const room = +t.dataset.room;
      t.style.fontSize = "";
      t.removeAttribute("textLength"); t.removeAttribute("lengthAdjust");
      let w = 0;
      try { w = t.getComputedTextLength(); } catch (e) { w = 0; }
      if (!w || w <= room) continue;
      const k = Math.max(NAME_MIN_SCALE, room / w);
      t.style.fontSize = `${(this.g.name_size * k).toFixed(2)}px`;
      if (w * k > room) {
        t.setAttribute("textLength", Math.max(room, w * k * NAME_MIN_NARROW).toFixed(1));
        t.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }

  boxEl(id) { return this.gBoxes.querySelector(`[data-box="${CSS.escape(id)}"]`); }

  setControl(state) {
    for (const b of this.boxes.values()) {
      const ctl = (state.control || {})[b.id] || b.color;
      const g = this.boxEl(b.id);
      g.dataset.control = ctl;
      g.classList.toggle("captured", ctl !== b.color);
      g.classList.toggle("cav-only", (state.cav_only || []).includes(b.id));
      g.classList.toggle("active-box", state.active === b.id);
      g.classList.toggle("battle-box", !!(state.battle && state.battle.box === b.id));
      g.setAttribute("aria-label", boxLabel(b, ctl));
    }
  }

  // Lay the counters of every box inside it: side by side while they fit, otherwise in
  // piles (one per unit type where possible) with a count badge; in a contested box each
  // side keeps its own half.
  setUnits(state) {
    const byBox = new Map();
    for (const u of state.units) {
      if (!this.boxes.has(u.loc)) continue;
      if (!byBox.has(u.loc)) byBox.set(u.loc, []);
      byBox.get(u.loc).push(u);
    }
    const seen = new Set();
    const qRank = { C: 0, V: 1, M: 2 };
    const CW = this.g.counter, P = this.g.pad;
    this.piles = new Map();
    this.gBadges.replaceChildren();
    for (const [box, units] of byBox) {
      const b = this.boxes.get(box);
      const sides = ["union", "confederate"].map((s) => units.filter((u) => u.side === s)
        .sort((p, q) => (p.type[1] > q.type[1] ? -1 : p.type[1] < q.type[1] ? 1 : qRank[p.type[0]] - qRank[q.type[0]] || (p.id < q.id ? -1 : 1))));
      const both = sides[0].length && sides[1].length;
      const rowY = b.y - b.h / 2 + P + b.lines.length * this.g.name_line;
      const innerX = b.x - b.w / 2 + P, innerW = b.w - 2 * P;
      const areas = both ? [[innerX, innerW / 2 - P / 2], [innerX + innerW / 2 + P / 2, innerW / 2 - P / 2]] : null;
      const piles = [];
      sides.forEach((list, si) => {
        if (!list.length) return;
        const [ax, aw] = areas ? areas[si] : [innerX, innerW];
        const fit = Math.max(1, Math.floor((aw + P) / (CW + P)));
        let groups;
        if (list.length <= fit) groups = list.map((u) => [u]);
        else {
          const byType = [];
          for (const u of list) { const last = byType[byType.length - 1]; if (last && last[0].type === u.type) last.push(u); else byType.push([u]); }
          const slots = Math.max(1, Math.floor((aw + P) / (CW + STACK_SHIFT * STACK_DEPTH + P)));
          if (byType.length <= slots) groups = byType;
          else { // more kinds than slots: split the sorted list evenly
            groups = Array.from({ length: slots }, () => []);
            list.forEach((u, i) => groups[Math.floor(i * slots / list.length)].push(u));
          }
        }
        const pileW = (grp) => CW + STACK_SHIFT * Math.min(grp.length - 1, STACK_DEPTH);
        const total = groups.reduce((s, grp) => s + pileW(grp), 0) + P * (groups.length - 1);
        let x = ax + Math.max(0, (aw - total) / 2);
        for (const grp of groups) {
          const depth = Math.min(grp.length - 1, STACK_DEPTH);
          // the top counter sits lowest-right; those under it peek out above and to the left
          grp.forEach((u, i) => {
            const k = Math.min(grp.length - 1 - i, depth);
            seen.add(u.id);
            this.placeCounter(u, x + depth * STACK_SHIFT - k * STACK_SHIFT, rowY + depth * STACK_SHIFT * 0.5 - k * STACK_SHIFT * 0.5, grp.length - 1 - i);
            this.counters.get(u.id).dataset.top = grp[grp.length - 1].id;
          });
          const top = grp[0];
          piles.push({ side: top.side, units: grp.map((u) => u.id), x, y: rowY });
          if (grp.length > 1) {
            const bx = x + depth * STACK_SHIFT + CW - 3.6, by = rowY + depth * STACK_SHIFT * 0.5 + 3.6;
            this.gBadges.append(svg("g", { class: `count-badge ${top.side}`, "data-pile": box },
              svg("circle", { cx: bx.toFixed(1), cy: by.toFixed(1), r: 4.4 }), svg("text", { x: bx.toFixed(1), y: (by + 2.3).toFixed(1) }, grp.length)));
          }
          x += pileW(grp) + P;
        }
      });
      if (both) {
        const mx = innerX + innerW / 2;
        this.gBadges.append(svg("path", { class: "front", d: `M${mx.toFixed(1)} ${(rowY - 1).toFixed(1)}V${(rowY + CW + 1).toFixed(1)}` }));
      }
      this.piles.set(box, piles);
    }
    for (const [id, g] of this.counters) {
      if (!seen.has(id)) { g.remove(); this.counters.delete(id); }
    }
    // paint order: the top of each pile last
    const ordered = [...this.counters.values()].sort((p, q) => (+q.dataset.depth - +p.dataset.depth) || (+p.dataset.y - +q.dataset.y) || (+p.dataset.x - +q.dataset.x));
    for (const g of ordered) this.gUnits.append(g);
  }

  placeCounter(u, x, y, depth) {
    let g = this.counters.get(u.id);
    const t = this.types[u.type] || {};
    const key = [u.type, u.side, !!u.red, !!u.ent].join();
    if (!g || g.dataset.key !== key) {
      const old = g;
      g = counter(u, t, this.g.counter);
      g.dataset.key = key;
      if (old) { g.style.transform = old.style.transform; old.replaceWith(g); }
      else { g.style.transform = `translate(${x}px, ${y}px)`; this.gUnits.append(g); }
      this.counters.set(u.id, g);
    }
    const prev = g.dataset.loc;
    g.dataset.loc = u.loc; g.dataset.x = x; g.dataset.y = y; g.dataset.depth = depth;
    g.classList.toggle("under", depth > 0);
    const moved = prev && prev !== u.loc;
    g.classList.toggle("moving", !!(moved && this.animate));
    if (moved && this.animate) {
      g.addEventListener("transitionend", () => g.classList.remove("moving"), { once: true });
    }
    g.style.transform = `translate(${x}px, ${y}px)`;
  }

  unitsIn(boxId) { return (this.piles.get(boxId) || []).flatMap((p) => p.units); }

  highlight(boxIds, unitIds, selected) {
    for (const g of this.gBoxes.children) g.classList.toggle("legal", boxIds.has(g.dataset.box));
    for (const [id, g] of this.counters) {
      g.classList.toggle("legal", unitIds.has(id));
      g.classList.toggle("selected", id === selected);
    }
    // a pile whose hidden counters have something to do shows it on its top counter
    for (const piles of this.piles.values()) {
      for (const p of piles) {
        const top = this.counters.get(p.units[p.units.length - 1]);
        if (top) top.classList.toggle("pile-legal", p.units.slice(0, -1).some((id) => unitIds.has(id) || id === selected));
      }
    }
  }

  flash(boxIds) {
    for (const g of this.gBoxes.children) g.classList.remove("flash");
    void this.root.getBoundingClientRect();
    for (const id of boxIds) { const g = this.boxEl(id); if (g) g.classList.add("flash"); }
    clearTimeout(this._flashT);
    this._flashT = setTimeout(() => { for (const g of this.gBoxes.children) g.classList.remove("flash"); }, 2600);
  }

  // The last move (static/last-move.js): a halo round each of its boxes and a line along
  // each march, ending in an arrow at the edge of the box it went to; the box and the
  // drawing both say what they are in data-last.
  showLast(marks) {
    for (const g of this.gBoxes.querySelectorAll("[data-last]")) g.removeAttribute("data-last");
    this.gLast.replaceChildren();
    if (!marks) return;
    const HALO = 3.2;
    for (const [id, kind] of marks.boxes) {
      const b = this.boxes.get(id), g = this.boxEl(id);
      if (!b || !g) continue;
      g.dataset.last = kind;
      this.gLast.append(svg("rect", { class: `last-halo ${kind}`, "data-last": kind, "data-box-mark": id, x: (b.x - b.w / 2 - HALO).toFixed(1),
        y: (b.y - b.h / 2 - HALO).toFixed(1), width: (b.w + 2 * HALO).toFixed(1), height: (b.h + 2 * HALO).toFixed(1), rx: 4.5 }));
    }
    for (const path of marks.paths) {
      const pts = path.boxes.map((id) => this.boxes.get(id)).filter(Boolean);
      if (pts.length < 2) continue;
      const a = pts[0], z = pts[pts.length - 1];
      const start = this.edgePoint(a, pts[1].x, pts[1].y), end = this.edgePoint(z, pts[pts.length - 2].x, pts[pts.length - 2].y);
      const line = [start, ...pts.slice(1, -1), end].map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
      this.gLast.append(svg("polyline", { class: `last-path ${path.kind}`, "data-last": path.kind, "data-route": path.boxes.join(" "),
                                          points: line, "marker-end": "url(#last-arrow)" }));
    }
  }

  showPath(path, from) {
    this.gOver.replaceChildren();
    if (!path || !from) return;
    const pts = [from, ...path].map((id) => this.boxes.get(id)).filter(Boolean);
    this.gOver.append(svg("polyline", { points: pts.map((b) => `${b.x},${b.y}`).join(" "), class: "path-preview" }));
  }

  // ------------------------------------------------------------------ zoom and pan
  // Screen pixels per board unit at zoom step 0 (the whole board).
  fitScale() {
    const w = this.root.clientWidth || 1, h = this.root.clientHeight || 1;
    return Math.min(w / this.W, h / this.H);
  }
  scale() { return this.fitScale() * ZOOM_STEP ** this.step; }
  // the least zoom step at which names and counters are readable on this screen
  readableStep() {
    const need = Math.max(READABLE.name / this.g.name_size, READABLE.counter / this.g.counter);
    const s = Math.ceil(Math.log(need / this.fitScale()) / Math.log(ZOOM_STEP) - 1e-9);
    return Math.min(MAX_STEPS, Math.max(0, s));
  }

  setViewBox() {
    // the view box has the element's own shape, so a board unit is the same size both ways
    const cw = this.root.clientWidth || this.W, ch = this.root.clientHeight || this.H;
    const s = this.scale();
    const v = this.vb;
    const cx = v.x + v.w / 2, cy = v.y + v.h / 2;
    v.w = cw / s; v.h = ch / s;
    v.x = cx - v.w / 2; v.y = cy - v.h / 2;
    this.clampVb();
    this.root.setAttribute("viewBox", `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
    this.root.dataset.step = this.step;
    this.root.classList.toggle("zoomed", this.step > 0);
  }

  clampVb() {
    const v = this.vb;
    // keep the board in view: centred where it is smaller than the view, edge to edge otherwise
    v.x = v.w >= this.W ? (this.W - v.w) / 2 : Math.min(Math.max(v.x, 0), this.W - v.w);
    v.y = v.h >= this.H ? (this.H - v.h) / 2 : Math.min(Math.max(v.y, 0), this.H - v.h);
  }

  // the player's zoom (buttons, keys, wheel, pinch): kept for the next visit
  setStep(step, cx, cy) { this.zoomTo(step, cx, cy); this.viewChanged(); }
  zoomTo(step, cx, cy) {
    this.opening = null;
    step = Math.min(MAX_STEPS, Math.max(0, Math.round(step)));
    const v = this.vb;
    if (cx === undefined) { cx = v.x + v.w / 2; cy = v.y + v.h / 2; }
    const k = ZOOM_STEP ** (this.step - step);   // keep (cx, cy) where it is on the screen
    const nx = cx - (cx - v.x) * k, ny = cy - (cy - v.y) * k;
    this.step = step;
    v.w *= k; v.h *= k; v.x = nx; v.y = ny;
    this.setViewBox();
  }
  zoomBy(factor) { this.setStep(this.step + (factor < 1 ? 1 : -1)); }
  fit() { this.wholeBoard(); this.viewChanged(); }
  wholeBoard() { this.opening = null; this.step = 0; this.vb = { x: 0, y: 0, w: this.W, h: this.H }; this.setViewBox(); }
  centreOn(x, y) { const v = this.vb; v.x = x - v.w / 2; v.y = y - v.h / 2; this.setViewBox(); }

  // The view the player chose (zoom step and the board point in the middle) is kept in this
  // browser under viewKey, so that a reload or the next move finds the board where it was.
  viewChanged() {
    this.opening = null;
    if (!this.viewKey) return;
    const v = this.vb;
    try { localStorage.setItem(this.viewKey, JSON.stringify({ step: this.step, x: +(v.x + v.w / 2).toFixed(1), y: +(v.y + v.h / 2).toFixed(1) })); }
    catch (e) { /* storage full or forbidden: the view is not kept */ }
  }
  // the kept view, if there is one: true when it was restored
  restoreView() {
    let kept = null;
    try { kept = this.viewKey && JSON.parse(localStorage.getItem(this.viewKey) || "null"); } catch (e) { kept = null; }
    if (!kept || !Number.isFinite(kept.step) || !Number.isFinite(kept.x) || !Number.isFinite(kept.y)) return false;
    this.opening = null;
    this.step = Math.min(MAX_STEPS, Math.max(0, Math.round(kept.step)));
    const s = this.scale();
    this.vb = { w: (this.root.clientWidth || this.W) / s, h: (this.root.clientHeight || this.H) / s, x: 0, y: 0 };
    this.centreOn(kept.x, kept.y);
    return true;
  }

  // Bring boxes into view: centre on them if any is off screen (or always, with force).
  reveal(ids, force) {
    const bs = ids.map((i) => this.boxes.get(i)).filter(Boolean);
    if (!bs.length) return;
    const v = this.vb, m = 4;
    const out = bs.some((b) => b.x - b.w / 2 < v.x + m || b.x + b.w / 2 > v.x + v.w - m || b.y - b.h / 2 < v.y + m || b.y + b.h / 2 > v.y + v.h - m);
    if (!out && !force) return;
    this.centreOn(bs.reduce((s, b) => s + b.x, 0) / bs.length, bs.reduce((s, b) => s + b.y, 0) / bs.length);
  }
  // The opening view: the whole board where its counters are big enough to tell apart,
  // otherwise the readable step centred on the boxes that matter now.
  open(ids) {
    this.wholeBoard();
    const step = this.fitScale() * this.g.counter >= WHOLE_BOARD_COUNTER ? 0 : this.readableStep();
    if (step > 0) { this.zoomTo(step); this.reveal(ids.length ? ids : [...this.boxes.keys()].slice(0, 1), true); }
    this.opening = ids;
  }

  toMap(clientX, clientY) {
    const m = this.root.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  // Boxes whose rectangle lies within `slop` screen pixels of a point (a finger is wide).
  boxesNear(clientX, clientY, slop) {
    const p = this.toMap(clientX, clientY), r = slop / this.scale();
    const out = [];
    for (const b of this.boxes.values()) {
      const dx = Math.max(0, Math.abs(p.x - b.x) - b.w / 2), dy = Math.max(0, Math.abs(p.y - b.y) - b.h / 2);
      const d = Math.hypot(dx, dy);
      if (d <= r) out.push({ id: b.id, d });
    }
    return out.sort((a, b) => a.d - b.d).map((o) => o.id);
  }

  initZoom() {
    const r = this.root;
    let wheelAcc = 0, wheelT = 0;
    r.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      // one step per notch; a touchpad's small deltas add up to a step
      wheelAcc += ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaY;
      if (Math.abs(wheelAcc) < 60 && performance.now() - wheelT < 400) return;
      const p = this.toMap(ev.clientX, ev.clientY);
      this.setStep(this.step + (wheelAcc < 0 ? 1 : -1), p.x, p.y);
      wheelAcc = 0; wheelT = performance.now();
    }, { passive: false });
    const pointers = new Map();
    let drag = null, pinch = null;
    this.suppressClick = false;
    this.lastPointer = "mouse";
    r.addEventListener("pointerdown", (ev) => {
      this.lastPointer = ev.pointerType;
      this.lastDown = { x: ev.clientX, y: ev.clientY };
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (pointers.size === 1) drag = { x: ev.clientX, y: ev.clientY, vb: { ...this.vb }, moved: false, id: ev.pointerId };
      else {
        drag = null;
        const [a, b] = [...pointers.values()];
        pinch = { d0: Math.hypot(a.x - b.x, a.y - b.y), step0: this.step };
      }
    });
    r.addEventListener("pointermove", (ev) => {
      if (!pointers.has(ev.pointerId)) return;
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (pointers.size === 2 && pinch) {   // pinch: whole steps as the fingers part
        const [a, b] = [...pointers.values()];
        const d1 = Math.hypot(a.x - b.x, a.y - b.y);
        const want = pinch.step0 + Math.round(Math.log(d1 / Math.max(pinch.d0, 1)) / Math.log(ZOOM_STEP));
        if (want !== this.step) { const c = this.toMap((a.x + b.x) / 2, (a.y + b.y) / 2); this.setStep(want, c.x, c.y); }
        this.suppressClick = true;
        return;
      }
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 6) return;
      if (!drag.moved) { drag.moved = true; this.opening = null; r.setPointerCapture(ev.pointerId); r.classList.add("panning"); }
      const k = 1 / this.scale();
      this.vb.x = drag.vb.x - dx * k;
      this.vb.y = drag.vb.y - dy * k;
      this.setViewBox();
    });
    const up = (ev) => {
      pointers.delete(ev.pointerId);
      if (drag && drag.moved) { this.suppressClick = true; setTimeout(() => { this.suppressClick = false; }, 0); this.viewChanged(); }
      r.classList.remove("panning");
      if (pointers.size < 2) pinch = null;
      if (!pointers.size) { drag = null; setTimeout(() => { this.suppressClick = false; }, 0); }
    };
    r.addEventListener("pointerup", up);
    r.addEventListener("pointercancel", up);
  }

  // ------------------------------------------------------------------ keyboard
  // One box at a time is the map's tab stop; arrow keys go to the connected box that lies
  // most nearly in that direction, Enter picks it.
  initKeys() {
    const first = this.boxes.get("washington") || this.boxes.values().next().value;
    this.current = first ? first.id : null;
    if (first) this.boxEl(first.id).setAttribute("tabindex", "0");
    this.root.removeAttribute("tabindex");
    this.gBoxes.addEventListener("keydown", (ev) => {
      const g = ev.target.closest("[data-box]");
      if (!g) return;
      const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
      if (dir) {
        ev.preventDefault();
        const next = this.neighbourToward(g.dataset.box, dir);
        if (next) this.focusBox(next);
      } else if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        if (this.onPick) this.onPick(g.dataset.box);
      }
    });
    // (on the document: Chromium makes an SVG element with a focus listener a tab stop of
    // its own, one with no name)
    document.addEventListener("focusin", (ev) => {
      if (!(ev.target instanceof Element) || !this.gBoxes.contains(ev.target)) return;
      const g = ev.target.closest("[data-box]");
      if (g) { this.current = g.dataset.box; this.reveal([g.dataset.box]); this.viewChanged(); }
    });
  }

  neighbourToward(id, [ux, uy]) {
    const b = this.boxes.get(id);
    let best = null, bestScore = -Infinity;
    for (const n of this.neigh.get(id) || []) {
      const o = this.boxes.get(n);
      if (!o) continue;
      const dx = o.x - b.x, dy = o.y - b.y, len = Math.hypot(dx, dy) || 1;
      const cos = (dx * ux + dy * uy) / len;
      if (cos < 0.2) continue;   // not that way at all
      const score = cos - len / 2000;
      if (score > bestScore) { bestScore = score; best = n; }
    }
    return best;
  }

  focusBox(id) {
    const g = this.boxEl(id);
    if (!g) return;
    for (const x of this.gBoxes.querySelectorAll("[tabindex='0']")) x.setAttribute("tabindex", "-1");
    g.setAttribute("tabindex", "0");
    this.current = id;
    g.focus();
  }
}

function boxLabel(b, ctl) {
  const bits = [b.name];
  if (ctl && ctl !== b.color) bits.push(t("held by the {side}", { side: SIDE_NAME[ctl] || ctl }));
  else bits.push(b.color === "neutral" ? t("neutral") : SIDE_NAME[b.color]);
  for (const [side, v] of Object.entries(b.shields || {})) bits.push(t("{side} shield {value}", { side: SIDE_NAME[side], value: v }));
  if (b.port) bits.push(t("port"));
  if (b.fort) bits.push(t("permanent entrenchment"));
  return bits.join(", ");
}

// One counter: NATO-style symbol (X infantry, / cavalry), quality letters, reduced and entrenched marks.
export function counter(u, type, CW = 18) {
  const t0 = type;
  const q = (t0.quality || "militia")[0].toUpperCase();
  const g = svg("g", { class: `counter ${u.side} q-${t0.quality || "militia"}${u.red ? " reduced" : ""}${u.ent ? " entrenched" : ""}`,
                       "data-unit": u.id, role: "button", tabindex: -1,
                       "aria-label": unitName(u, t0) });
  g.append(svg("title", {}, unitName(u, t0) + (u.red ? `, ${t("reduced")}` : "") + (u.ent ? `, ${t("entrenched")}` : "")));
  const k = CW / 11;   // the counter is drawn on 11 units and scaled
  const inner = svg("g", { transform: `scale(${k.toFixed(3)})` });
  // the letters (MI, VC...) are what a player reads, so they take the lower half of the
  // counter; the NATO symbol is a small box above them
  inner.append(svg("rect", { class: "face", width: 11, height: 11, rx: 1.2 }));
  if (u.red) inner.append(svg("path", { class: "red-mark", d: "M8.2 0H9.8Q11 0 11 1.2V2.8z" }));
  if (u.ent) inner.append(svg("path", { class: "dig", d: "M1.2 10.6Q5.5 9.7 9.8 10.6" }));
  inner.append(svg("rect", { class: "sym", x: 3, y: 1.1, width: 5, height: 3.2 }));
  inner.append(svg("path", { class: "sym", d: t0.kind === "cav" ? "M3 4.3L8 1.1" : "M3 1.1L8 4.3M3 4.3L8 1.1" }));
  inner.append(svg("text", { class: "q", x: 5.5, y: 9.75 }, q + (t0.kind === "cav" ? "C" : "I")));
  if (q === "C") inner.append(svg("path", { class: "star", d: "M1.6 0.9l0.35 0.75 0.8 0.1-0.6 0.55 0.15 0.8-0.7-0.4-0.7 0.4 0.15-0.8-0.6-0.55 0.8-0.1z", transform: "translate(-0.6 -0.2)" }));
  g.append(inner);
  return g;
}

export function unitName(u, type) {
  const name = (PAGE_WORDS.unit_types || {})[u.type] || (type || {}).name || u.type;
  return `${SIDE_NAME[u.side] || ""} ${name}`.trim();
}
