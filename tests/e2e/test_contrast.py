"""Every text a player reads has a contrast of at least 4.5:1 with what it is drawn on
(3:1 for large text, as WCAG 2 allows): the page's own text against its background, and
the map's text (box names, shields, counters, count badges) against the shape beneath it."""
from __future__ import annotations

import pytest

from .test_board import SIZES, new_game

# For each visible text: its colour, and the colour it is painted on. HTML text: the first
# ancestor with an opaque background. SVG text: the topmost filled shape under its centre
# (elementsFromPoint lists what lies under a point, topmost first); one under the page's
# own panels is hidden, not checked.
CONTRAST = r"""() => {
  const rgb = (s) => { const m = s.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const over = (fg, bg) => ({ r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1 });
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  // an opaque gradient (the top bar) counts by its worst colour stop
  const gradientStops = (n) => (getComputedStyle(n).backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(rgb);
  const htmlBackgrounds = (el) => {
    const layers = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const stops = gradientStops(n);
      if (stops.length && stops.every((c) => c.a >= 1)) return stops;
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    for (const c of layers.reverse()) bg = over(c, bg);
    return [bg];
  };
  const svgBackground = (text) => {
    const r = text.getBoundingClientRect();
    const under = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    // a map text covered by the page (the phone's bottom sheet) is not read at all
    if (under.length && !(under[0] instanceof SVGElement)) return null;
    for (const n of under) {
      if (n === text || n.tagName === "text" || n.tagName === "tspan" || n.tagName === "svg" && n.id !== "map") continue;
      const fill = n instanceof SVGElement ? rgb(getComputedStyle(n).fill) : rgb(getComputedStyle(n).backgroundColor);
      if (fill && fill.a > 0 && getComputedStyle(n).fillOpacity !== "0") return over(fill, { r: 255, g: 255, b: 255, a: 1 });
    }
    return null;
  };
  const bad = [];
  let checked = 0;
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && +s.opacity > 0.2 &&
      r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth; };
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !visible(el) || el.closest("[aria-hidden=true], .superseded, .gone, [disabled]")) continue;
    const s = getComputedStyle(el);
    const isSvg = el instanceof SVGElement;
    const fg = rgb(isSvg ? s.fill : s.color);
    const bgs = isSvg ? [svgBackground(el)].filter(Boolean) : htmlBackgrounds(el);
    if (!fg || !bgs.length) continue;
    checked++;
    const size = parseFloat(s.fontSize) * (isSvg ? el.getScreenCTM().a : 1);
    const large = size >= 24 || (size >= 18.66 && +s.fontWeight >= 700);
    const r = Math.min(...bgs.map((bg) => ratio(over(fg, bg), bg)));
    if (r < (large ? 3 : 4.5)) bad.push(`${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""} "${el.textContent.trim().slice(0, 30)}": ${r.toFixed(2)}`);
  }
  return { checked, bad: [...new Set(bad)] };
}"""


@pytest.mark.parametrize("width,height", [SIZES[0], SIZES[2]], ids=["1366x900", "390x844"])
def test_every_text_on_the_game_page_has_contrast(server, browser, width, height):
    gid, ctxs = new_game(browser, server, "1862")
    try:
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  storage_state=ctxs["union"].storage_state())
        page = ctx.new_page()
        page.goto(f"{server}/games/{gid}")
        page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.toAct === 'union'")
        page.wait_for_timeout(300)
        out = page.evaluate(CONTRAST)
        assert out["checked"] > (100 if width > 800 else 50), out
        assert out["bad"] == [], "\n".join(out["bad"])
        ctx.close()
    finally:
        for c in ctxs.values():
            c.close()


@pytest.mark.parametrize("path", ["/", "/login", "/register", "/new"])
def test_every_text_on_the_other_pages_has_contrast(server, browser, path):
    gid, ctxs = new_game(browser, server, "1861")
    try:
        page = ctxs["union"].new_page()
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        out = page.evaluate(CONTRAST)
        assert out["checked"] > 3, out
        assert out["bad"] == [], "\n".join(out["bad"])
    finally:
        for c in ctxs.values():
            c.close()
