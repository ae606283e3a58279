// What the other player just did, as marks on the map: the boxes of each of their
// decisions since your own last one (for a spectator, or in the replay: the decisions of
// whoever moved last, back to the other side's), a march drawn from its box along the path,
// and the box of the last battle until the next decision after it. Worked out from the
// events alone, so that the game page (live and looking back) and the replay mark alike.
//
// -> { boxes: Map(box id -> kind), paths: [{ kind, boxes: [box id...] }], side, seqs: [seq...] }
// kinds of a box: "from" (a march's box), "via", "to", "battle", "recruit", "box" (any other)
// kinds of a path: "march", "sea", "retreat"

const ENDS_A_BATTLE = new Set(["battle_won", "withdrew", "retreated"]);
// when a box is marked twice, the stronger kind shows
const RANK = { battle: 5, to: 4, from: 3, recruit: 2, via: 1, box: 0 };

// The decisions (engine "action" events) that count, in order, each with the box of its
// march and of the battle being fought when it was made.
function decisions(events, counts) {
  const out = [];
  let march = null, battle = null, battleOpen = false, battleEnd = -1;
  for (const e of events) {
    if (!counts(e) || e.source !== "engine") continue;
    const d = e.data || {};
    if (e.type === "battle") { battle = d.box; battleOpen = true; }
    else if (ENDS_A_BATTLE.has(e.type)) { battleOpen = false; battleEnd = out.length; }
    else if (e.type === "action" && d.action) {
      if (d.action.type === "activate") march = d.action.box;
      out.push({ seq: e.seq, side: d.side || e.actor, action: d.action, march, battle: battleOpen ? battle : null });
    }
  }
  // the last battle stays marked until a decision follows its end (or while it goes on)
  const battleBox = battle && (battleOpen || battleEnd === out.length) ? battle : null;
  return { list: out, battleBox };
}

// The decisions to mark: the last run of one side's decisions (for a player who has moved
// since, the opponent's run before that).
function lastRun(list, viewerSides) {
  let end = list.length - 1;
  if (end >= 0 && viewerSides.includes(list[end].side)) {
    while (end >= 0 && viewerSides.includes(list[end].side)) end--;
  }
  if (end < 0) return [];
  const side = list[end].side;
  let start = end;
  while (start > 0 && list[start - 1].side === side) start--;
  return list.slice(start, end + 1);
}

export function lastMoveMarks(events, { viewer = [], counts = () => true } = {}) {
  const { list, battleBox } = decisions(events, counts);
  // one who plays both sides sees, as a spectator does, whoever moved last
  const run = lastRun(list, viewer.length > 1 ? [] : viewer);
  const boxes = new Map(), paths = [];
  const mark = (id, kind) => {
    if (typeof id !== "string" || !id) return;
    if (!boxes.has(id) || RANK[kind] > RANK[boxes.get(id)]) boxes.set(id, kind);
  };
  for (const { action: a, march, battle } of run) {
    switch (a.type) {
      case "activate": mark(a.box, "from"); break;
      case "move": {
        const route = [march, ...(a.path || [])].filter(Boolean);
        route.forEach((id, i) => mark(id, i === 0 ? "from" : i === route.length - 1 ? "to" : "via"));
        if (route.length > 1) paths.push({ kind: "march", boxes: route });
        break;
      }
      case "sea_move": case "invade":
        mark(march, "from"); mark(a.to, "to");
        if (march && a.to) paths.push({ kind: "sea", boxes: [march, a.to] });
        break;
      case "retreat": case "withdraw":
        mark(a.to, "to");
        if (battle && a.to) paths.push({ kind: "retreat", boxes: [battle, a.to] });
        break;
      case "fight": mark(a.box, "battle"); break;
      case "recruit": mark(a.box, "recruit"); break;
      default: mark(a.box, "box");
    }
  }
  if (battleBox) mark(battleBox, "battle");
  return { boxes, paths, side: run.length ? run[0].side : null, seqs: run.map((r) => r.seq) };
}
