// The SVG map: background, lines, boxes, unit counters; zoom and pan (wheel, drag, pinch, buttons).
// Nothing here decides what is legal: the page passes in sets of boxes/units to highlight.
const NS = "http://www.w3.org/2000/svg";
export const SIDE_NAME = { union: "Union", confederate: "Confederate", neutral: "Neutral" };

export function svg(tag, attrs, ...children) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  for (const c of children) if (c) n.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return n;
}

const CW = 11;        // counter size in map units
const GAP = 1.5;

export class MapView {
  constructor(root, map, types) {
    this.root = root;
    this.map = map;
    this.types = types;
    this.boxes = new Map(map.boxes.map((b) => [b.id, b]));
    this.W = map.viewport.width; this.H = map.viewport.height;
    this.vb = { x: 0, y: 0, w: this.W, h: this.H };
    this.counters = new Map();   // unit id -> <g>
    this.animate = true;
    this.build();
    this.initZoom();
  }

  build() {
    const r = this.root;
    r.setAttribute("viewBox", `0 0 ${this.W} ${this.H}`);
    r.setAttribute("preserveAspectRatio", "xMidYMid meet");
    r.append(this.defs());
    r.append(svg("image", { href: "/static/map-background.svg", x: 0, y: 0, width: this.W, height: this.H,
                            class: "bg", "aria-hidden": "true" }));
    this.gLines = svg("g", { class: "lines", "aria-hidden": "true" });
    this.gMarks = svg("g", { class: "marks", "aria-hidden": "true" });
    this.gBoxes = svg("g", { class: "boxes" });
    this.gUnits = svg("g", { class: "units" });
    this.gOver = svg("g", { class: "overlay", "aria-hidden": "true" });
    r.append(this.gLines, this.gMarks, this.gBoxes, this.gUnits, this.gOver);
    this.drawLines();
    this.drawBoxes();
  }

  defs() {
    const d = svg("defs");
    // shield for recruitment values
    d.append(svg("symbol", { id: "shield", viewBox: "0 0 10 12" },
      svg("path", { d: "M0.6 0.6h8.8v5.2c0 3-2.2 4.9-4.4 5.6C2.8 10.7 0.6 8.8 0.6 5.8z" })));
    const anchor = svg("symbol", { id: "anchor", viewBox: "0 0 12 12" });
    anchor.append(svg("circle", { cx: 6, cy: 2, r: 1.3, fill: "none", "stroke-width": 1 }),
      svg("path", { d: "M6 3.3V11M3.5 5h5M1.5 7.5c0.5 2.3 2.4 3.5 4.5 3.5s4-1.2 4.5-3.5", fill: "none", "stroke-width": 1.1,
                    "stroke-linecap": "round" }));
    d.append(anchor);
    return d;
  }

  drawLines() {
    const pairs = new Map();
    for (const ln of this.map.lines) {
      const k = [ln.a, ln.b].sort().join("|");
      if (!pairs.has(k)) pairs.set(k, []);
      pairs.get(k).push(ln);
    }
    const order = { river: 0, road: 1, rail: 2 };
    const riverLabels = new Map();
    const rivers = svg("g", { class: "rivers" }), roads = svg("g", { class: "roads" }), rails = svg("g", { class: "rails" });
    for (const group of pairs.values()) {
      group.sort((p, q) => order[p.kind] - order[q.kind]);
      group.forEach((ln, i) => {
        const a = this.boxes.get(ln.a), b = this.boxes.get(ln.b);
        const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
        const off = (i - (group.length - 1) / 2) * 3.2;
        const nx = -dy / len * off, ny = dx / len * off;
        const x1 = a.x + nx, y1 = a.y + ny, x2 = b.x + nx, y2 = b.y + ny;
        const dPath = `M${x1.toFixed(1)} ${y1.toFixed(1)}L${x2.toFixed(1)} ${y2.toFixed(1)}`;
        const title = `${a.name} – ${b.name}: ${ln.kind === "river" ? `${ln.river} River` : ln.kind === "rail" ? "railroad" : "road"}`;
        if (ln.kind === "river") {
          const g = svg("g", { class: "river" + (ln.river === "Potomac" ? " potomac" : "") });
          g.append(svg("title", {}, title));
          g.append(svg("path", { d: dPath, class: "river-bank" }), svg("path", { d: dPath, class: "river-water" }));
          // downstream arrow at the middle
          const down = ln.downstream === ln.b ? 1 : -1;
          const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
          const ang = Math.atan2(dy * down, dx * down) * 180 / Math.PI;
          g.append(svg("path", { d: "M-3.2 -2.6L1.8 0L-3.2 2.6z", class: "river-arrow",
                                 transform: `translate(${mx.toFixed(1)} ${my.toFixed(1)}) rotate(${ang.toFixed(1)})` }));
          rivers.append(g);
          const prev = riverLabels.get(ln.river);
          if (!prev || len > prev.len) riverLabels.set(ln.river, { len, x1, y1, x2, y2 });
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
        for (const sideBox of ln.river_side || []) this.riverSideMark(sideBox === ln.a ? [x1, y1, x2, y2] : [x2, y2, x1, y1]);
      });
    }
    this.gLines.append(rivers, roads, rails);
    // river names along their longest stretch
    for (const [name, s] of riverLabels) {
      let { x1, y1, x2, y2 } = s;
      if (x2 < x1) [x1, y1, x2, y2] = [x2, y2, x1, y1];
      const ang = Math.atan2(y2 - y1, x2 - x1) * 180 / Math.PI;
      const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
      const t = svg("text", { class: "river-name" + (name === "Potomac" ? " potomac" : ""),
        transform: `translate(${mx.toFixed(1)} ${my.toFixed(1)}) rotate(${ang.toFixed(1)}) translate(0 -3.6)` }, name === "Potomac" ? "Potomac R." : name);
      this.gMarks.append(t);
    }
  }

  riverSideMark([bx, by, ox, oy]) {
    // a short wavy bank across the line, 10 units out from the box on that line
    const dx = ox - bx, dy = oy - by, len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;
    const cx = bx + ux * 9, cy = by + uy * 9;
    const px = -uy, py = ux;
    const p = (s, w) => `${(cx + px * s + ux * w).toFixed(2)} ${(cy + py * s + uy * w).toFixed(2)}`;
    const d = `M${p(-4, 0)}Q${p(-2, 1.4)} ${p(0, 0)}T${p(4, 0)}`;
    this.gMarks.append(svg("path", { d, class: "bank" }));
  }

  drawBoxes() {
    for (const b of this.map.boxes) {
      const g = svg("g", { class: `box color-${b.color}`, "data-box": b.id, transform: `translate(${b.x} ${b.y})`,
                           tabindex: -1, role: "button", "aria-label": b.name });
      g.append(svg("title", {}, `${b.name}${b.state ? ", " + b.state : ""}`));
      g.append(svg("circle", { r: 6.6, class: "hit" }));
      g.append(svg("circle", { r: 6.2, class: "ring" }));
      if (b.fort) g.append(svg("path", { class: "fort", d: starPath(5.6, 4.1, 8) }));
      g.append(svg("circle", { r: 3.7, class: "ctl" }));
      if (b.port) g.append(svg("use", { href: "#anchor", x: -10.2, y: -3.4, width: 5.2, height: 5.2, class: "anchor" }));
      let sx = 3.4;
      for (const side of ["union", "confederate"]) {
        const v = (b.shields || {})[side];
        if (!v) continue;
        const s = svg("g", { class: `shield ${side}`, transform: `translate(${sx} -8.4)` });
        s.append(svg("use", { href: "#shield", width: 5.4, height: 6.4 }), svg("text", { x: 2.7, y: 4.6 }, v));
        g.append(s);
        sx += 5.6;
      }
      g.append(svg("text", { class: "name", y: 9.4 }, b.name));
      this.gBoxes.append(g);
    }
  }

  boxEl(id) { return this.gBoxes.querySelector(`[data-box="${CSS.escape(id)}"]`); }

  setControl(state) {
    for (const b of this.map.boxes) {
      const ctl = (state.control || {})[b.id] || b.color;
      const g = this.boxEl(b.id);
      g.dataset.control = ctl;
      g.classList.toggle("captured", ctl !== b.color);
      g.classList.toggle("cav-only", (state.cav_only || []).includes(b.id));
      g.classList.toggle("active-box", state.active === b.id);
      g.classList.toggle("battle-box", !!(state.battle && state.battle.box === b.id));
    }
  }

  // draw/refresh every counter; animate those that changed box
  setUnits(state) {
    const byBox = new Map();
    for (const u of state.units) {
      if (!this.boxes.has(u.loc)) continue;
      if (!byBox.has(u.loc)) byBox.set(u.loc, []);
      byBox.get(u.loc).push(u);
    }
    const seen = new Set();
    const qRank = { C: 0, V: 1, M: 2 };
    for (const [box, units] of byBox) {
      const b = this.boxes.get(box);
      const sides = ["union", "confederate"].map((s) => units.filter((u) => u.side === s)
        .sort((p, q) => (p.type[1] > q.type[1] ? -1 : p.type[1] < q.type[1] ? 1 : qRank[p.type[0]] - qRank[q.type[0]] || (p.id < q.id ? -1 : 1))));
      const both = sides[0].length && sides[1].length;
      sides.forEach((list, si) => {
        if (!list.length) return;
        const n = list.length;
        const step = n > 1 ? Math.min(CW + GAP, 34 / (n - 1)) : 0;
        const width = CW + step * (n - 1);
        // first side above the box; in a contested box the other side goes below the name
        const y = both && si === 1 ? b.y + 11.5 : b.y - 8.6 - CW;
        const x0 = b.x - width / 2;
        list.forEach((u, i) => {
          seen.add(u.id);
          this.placeCounter(u, x0 + i * step, y);
        });
      });
    }
    for (const [id, g] of this.counters) {
      if (!seen.has(id)) { g.remove(); this.counters.delete(id); }
    }
    // keep DOM order = paint order (later on top) per box row
    const ordered = [...this.counters.values()].sort((p, q) => (+p.dataset.y - +q.dataset.y) || (+p.dataset.x - +q.dataset.x));
    for (const g of ordered) this.gUnits.append(g);
  }

  placeCounter(u, x, y) {
    let g = this.counters.get(u.id);
    const t = this.types[u.type] || {};
    const key = [u.type, u.side, !!u.red, !!u.ent].join();
    if (!g || g.dataset.key !== key) {
      const old = g;
      g = counter(u, t);
      g.dataset.key = key;
      if (old) { g.style.transform = old.style.transform; old.replaceWith(g); }
      else { g.style.transform = `translate(${x}px, ${y}px)`; this.gUnits.append(g); }
      this.counters.set(u.id, g);
    }
    const prev = g.dataset.loc;
    g.dataset.loc = u.loc; g.dataset.x = x; g.dataset.y = y;
    const moved = prev && prev !== u.loc;
    g.classList.toggle("moving", !!(moved && this.animate));
    if (moved && this.animate) {
      g.addEventListener("transitionend", () => g.classList.remove("moving"), { once: true });
    }
    g.style.transform = `translate(${x}px, ${y}px)`;
  }

  highlight(boxIds, unitIds, selected) {
    for (const g of this.gBoxes.children) g.classList.toggle("legal", boxIds.has(g.dataset.box));
    for (const [id, g] of this.counters) {
      g.classList.toggle("legal", unitIds.has(id));
      g.classList.toggle("selected", id === selected);
    }
  }

  flash(boxIds) {
    for (const g of this.gBoxes.children) g.classList.remove("flash");
    void this.root.getBoundingClientRect();
    for (const id of boxIds) { const g = this.boxEl(id); if (g) g.classList.add("flash"); }
    clearTimeout(this._flashT);
    this._flashT = setTimeout(() => { for (const g of this.gBoxes.children) g.classList.remove("flash"); }, 2600);
  }

  showPath(path, from) {
    this.gOver.replaceChildren();
    if (!path || !from) return;
    const pts = [from, ...path].map((id) => this.boxes.get(id)).filter(Boolean);
    this.gOver.append(svg("polyline", { points: pts.map((b) => `${b.x},${b.y}`).join(" "), class: "path-preview" }));
  }

  // ------------------------------------------------------------------ zoom and pan
  setViewBox() {
    const v = this.vb;
    this.root.setAttribute("viewBox", `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
    this.root.classList.toggle("zoomed", v.w < this.W * 0.55);
  }

  clampVb() {
    const v = this.vb;
    v.w = Math.min(Math.max(v.w, 90), this.W * 1.05);
    v.h = v.w * this.H / this.W;
    v.x = Math.min(Math.max(v.x, -v.w * 0.3), this.W - v.w * 0.7);
    v.y = Math.min(Math.max(v.y, -v.h * 0.3), this.H - v.h * 0.7);
  }

  zoomAt(factor, cx, cy) {
    const v = this.vb;
    const nw = v.w * factor;
    v.x = cx - (cx - v.x) * (nw / v.w);
    v.y = cy - (cy - v.y) * (nw / v.w);
    v.w = nw;
    this.clampVb();
    this.setViewBox();
  }

  zoomBy(factor) { this.zoomAt(factor, this.vb.x + this.vb.w / 2, this.vb.y + this.vb.h / 2); }
  fit() { this.vb = { x: 0, y: 0, w: this.W, h: this.H }; this.setViewBox(); }
  focus(ids, width = 260) {
    const pts = ids.map((i) => this.boxes.get(i)).filter(Boolean);
    if (!pts.length) return;
    const cx = pts.reduce((s, b) => s + b.x, 0) / pts.length, cy = pts.reduce((s, b) => s + b.y, 0) / pts.length;
    this.vb.w = width; this.vb.h = width * this.H / this.W;
    this.vb.x = cx - this.vb.w / 2; this.vb.y = cy - this.vb.h / 2;
    this.clampVb(); this.setViewBox();
  }

  toMap(clientX, clientY) {
    const m = this.root.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  initZoom() {
    const r = this.root;
    r.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const p = this.toMap(ev.clientX, ev.clientY);
      this.zoomAt(Math.exp(ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0018)), p.x, p.y);
    }, { passive: false });
    const pointers = new Map();
    let drag = null;
    this.suppressClick = false;
    r.addEventListener("pointerdown", (ev) => {
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (pointers.size === 1) drag = { x: ev.clientX, y: ev.clientY, vb: { ...this.vb }, moved: false, id: ev.pointerId };
      else drag = null;
    });
    r.addEventListener("pointermove", (ev) => {
      if (!pointers.has(ev.pointerId)) return;
      const prev = pointers.get(ev.pointerId);
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (pointers.size === 2) {            // pinch
        const [a, b] = [...pointers.values()];
        const before = [...pointers.entries()].map(([id, p]) => (id === ev.pointerId ? prev : p));
        const d0 = Math.hypot(before[0].x - before[1].x, before[0].y - before[1].y);
        const d1 = Math.hypot(a.x - b.x, a.y - b.y);
        if (d0 > 0 && d1 > 0) {
          const c = this.toMap((a.x + b.x) / 2, (a.y + b.y) / 2);
          this.zoomAt(d0 / d1, c.x, c.y);
        }
        this.suppressClick = true;
        return;
      }
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      if (!drag.moved) { drag.moved = true; r.setPointerCapture(ev.pointerId); r.classList.add("panning"); }
      const scale = this.vb.w / r.clientWidth;
      const k = Math.max(scale, this.vb.h / r.clientHeight);
      this.vb.x = drag.vb.x - dx * k;
      this.vb.y = drag.vb.y - dy * k;
      this.clampVb();
      this.setViewBox();
    });
    const up = (ev) => {
      pointers.delete(ev.pointerId);
      if (drag && drag.moved) { this.suppressClick = true; setTimeout(() => { this.suppressClick = false; }, 0); }
      r.classList.remove("panning");
      if (!pointers.size) { drag = null; setTimeout(() => { this.suppressClick = false; }, 0); }
    };
    r.addEventListener("pointerup", up);
    r.addEventListener("pointercancel", up);
  }
}

function starPath(r1, r2, n) {
  const pts = [];
  for (let i = 0; i < n * 2; i++) {
    const r = i % 2 ? r2 : r1, a = Math.PI * i / n - Math.PI / 2;
    pts.push(`${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`);
  }
  return "M" + pts.join("L") + "z";
}

// One counter: NATO-style symbol (X infantry, / cavalry), quality letter, reduced and entrenched marks.
export function counter(u, t) {
  const q = (t.quality || "militia")[0].toUpperCase();
  const g = svg("g", { class: `counter ${u.side} q-${t.quality || "militia"}${u.red ? " reduced" : ""}${u.ent ? " entrenched" : ""}`,
                       "data-unit": u.id, role: "button", tabindex: -1,
                       "aria-label": unitName(u, t) });
  g.append(svg("title", {}, unitName(u, t) + (u.red ? ", reduced" : "") + (u.ent ? ", entrenched" : "")));
  if (u.ent) g.append(svg("path", { class: "dig", d: `M-1 ${CW + 0.6}Q${CW / 2} ${CW + 3.6} ${CW + 1} ${CW + 0.6}` }));
  g.append(svg("rect", { class: "face", width: CW, height: CW, rx: 1.2 }));
  if (u.red) g.append(svg("path", { class: "red-mark", d: `M${CW} ${CW - 4.4}V${CW}H${CW - 4.4}z` }));
  // NATO frame
  g.append(svg("rect", { class: "sym", x: 2, y: 1.8, width: CW - 4, height: 4.4 }));
  const sym = t.kind === "cav" ? `M2 6.2L${CW - 2} 1.8` : `M2 1.8L${CW - 2} 6.2M2 6.2L${CW - 2} 1.8`;
  g.append(svg("path", { class: "sym", d: sym }));
  g.append(svg("text", { class: "q", x: CW / 2, y: CW - 1.2 }, q + (t.kind === "cav" ? "C" : "I")));
  if (q === "C") g.append(svg("path", { class: "star", d: "M1.6 0.9l0.35 0.75 0.8 0.1-0.6 0.55 0.15 0.8-0.7-0.4-0.7 0.4 0.15-0.8-0.6-0.55 0.8-0.1z", transform: "translate(-0.6 -0.2)" }));
  return g;
}

export function unitName(u, t) {
  t = t || {};
  return `${SIDE_NAME[u.side] || ""} ${t.name || u.type}`.trim();
}
