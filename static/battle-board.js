// The battle board's history and its place on the map: every volley of the battle so
// far, read from the game's events, and a corner of the map that leaves the battle's box
// (and the boxes round it, where a retreat goes) in sight.

// The fire rolls of the battle being fought (or just over), as volleys: a volley is the
// fire of one side between two decisions of the players. [{side, rolls: [roll data]}]
export function volleys(events, taken) {
  const seqs = [...events.keys()].sort((a, b) => a - b);
  let start = -1;
  for (const seq of seqs) if (events.get(seq).type === "battle" && !taken(seq)) start = seq;
  if (start < 0) return [];
  const out = [];
  let cur = null;
  for (const seq of seqs) {
    if (seq < start || taken(seq)) continue;
    const e = events.get(seq), d = e.data || {};
    if (e.type === "battle_won" || (e.type === "battle" && seq !== start)) break;
    if (e.source === "engine" && e.type === "roll" && d.purpose === "fire") {
      if (!cur || cur.side !== d.side) { cur = { side: d.side, rolls: [] }; out.push(cur); }
      cur.rolls.push(d);
    } else if (e.source === "engine" && e.type === "action") {
      cur = null;
    }
  }
  return out;
}

const MARGIN = 8;        // px between the board and the map's edge
const ZOOM_EDGE = 62;    // the zoom buttons keep the right edge free

function overlaps(a, b) {
  return a.left < b.right + MARGIN && b.left < a.right + MARGIN && a.top < b.bottom + MARGIN && b.top < a.bottom + MARGIN;
}

// Put the board in the corner of the map farthest from the box where it does not cover
// it; where every corner would (a phone), pan the map so that the box sits in the part the
// board leaves free. `boxRect()` measures the box on the screen now.
export function placeBoard(sec, wrap, boxRect, map) {
  const w = sec.offsetWidth, h = sec.offsetHeight;
  const corners = [];
  for (const top of [false, true]) for (const left of [false, true]) {
    const x = left ? MARGIN : wrap.width - ZOOM_EDGE - w, y = top ? MARGIN : wrap.height - MARGIN - h;
    corners.push({ top, left, rect: { left: wrap.left + x, right: wrap.left + x + w, top: wrap.top + y, bottom: wrap.top + y + h } });
  }
  let r = boxRect();
  const far = (c) => Math.hypot((c.rect.left + c.rect.right) / 2 - (r.left + r.right) / 2, (c.rect.top + c.rect.bottom) / 2 - (r.top + r.bottom) / 2);
  corners.sort((a, b) => far(b) - far(a));
  let pick = corners.find((c) => !overlaps(c.rect, r));
  if (!pick) {
    pick = corners[0];
    // the free band above or below the board: centre the box in it
    const freeMid = pick.top ? (pick.rect.bottom + wrap.bottom) / 2 : (wrap.top + pick.rect.top) / 2;
    const s = map.scale(), v = map.vb;
    map.centreOn(v.x + v.w / 2, v.y + v.h / 2 + ((r.top + r.bottom) / 2 - freeMid) / s);
    r = boxRect();
  }
  sec.classList.toggle("dock-left", pick.left);
  sec.classList.toggle("dock-top", pick.top);
  return !overlaps(pick.rect, r);
}
