"""static/game-state.js, the one module that applies the server's messages to the game as
the page knows it (game page and replay), run with node on the messages a page gets."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run static/game-state.js")

SCRIPT = """
const { GameState, foldFrames } = await import(process.argv[2]);
const g = new GameState({ status: "active", your_sides: ["union"], seats: {} });
const out = {};
const state = (n) => ({ turn: n, units: [{ id: "U-MI-01", loc: "washington" }] });
g.applySnapshot({ seq: 10, status: "active", to_act: "union", state: state(1), legal: [{ type: "roll_marches" }],
                  your_sides: ["union"], seats: {} });
// a "legal" message ahead of its "events" message waits for it
out.earlyLegalShown = g.applyLegal({ seq: 12, actions: [{ type: "end_movement" }] });
const seen = [];
const r1 = g.applyEvents({ seq: 12, status: "active", to_act: "union", state: state(2), events: [
  { seq: 11, source: "engine", type: "action", data: { type: "action", side: "union", action: { type: "activate", box: "washington" } } },
  { seq: 12, source: "engine", type: "battle", data: { type: "battle", box: "manassas_junction", attacker: "union" } },
] }, (e) => seen.push([e.seq, g.state.turn]));
out.afterEarlyLegal = g.legal.map((a) => a.type);
out.seenBeforeState = seen;
out.awaiting1 = r1.awaitingLegal;
// the same events again change nothing
out.again = g.applyEvents({ seq: 12, events: [{ seq: 12, source: "engine", type: "battle", data: {} }] }).added.length;
const r2 = g.applyEvents({ seq: 15, to_act: "confederate", events: [
  { seq: 13, source: "engine", type: "roll", data: { purpose: "fire", value: 2, need: 3, unit: "U-MI-01", target: "C-MI-01" } },
  { seq: 14, source: "engine", type: "roll", data: { purpose: "fire", value: 6, need: 2, unit: "C-MI-01", target: "U-MI-01" } },
  { seq: 15, source: "engine", type: "battle_won", data: { box: "manassas_junction", winner: "union" } },
] });
out.awaiting2 = r2.awaitingLegal;
out.legalCleared = g.legal.length;
out.volley = g.lastVolley.map((d) => d.value);
out.lastBattle = g.lastBattle && g.lastBattle.seq;
out.toAct = g.toAct;
g.applyEvents({ seq: 16, events: [{ seq: 16, source: "server", type: "undo", data: { to_seq: 13, through_seq: 15, side: "union" } }] });
out.undone = [12, 13, 15, 16].map((s) => g.isUndone(s));
g.applyEvents({ seq: 17, events: [{ seq: 17, source: "engine", type: "battle", data: { box: "richmond" } }] });
out.afterNewBattle = [g.lastVolley.length, g.lastBattle];
out.staleLegal = g.applyLegal({ seq: 3, actions: [] });
const frames = foldFrames([
  { full: { turn: 1, phase: "movement", units: [{ id: "a", loc: "x" }, { id: "b", loc: "y" }] } },
  { phase: "battle", units: [{ id: "b", loc: "z" }] },
  { turn: 2 },
]);
out.frames = frames.map((f) => [f.turn, f.phase, f.units.map((u) => u.id + "@" + u.loc).join(",")]);
process.stdout.write(JSON.stringify(out));
"""


def test_messages_change_the_game_as_the_page_shows_it(tmp_path):
    script = tmp_path / "state.mjs"
    script.write_text(SCRIPT)
    run = subprocess.run(["node", str(script), (ROOT / "static" / "game-state.js").as_uri()],
                         capture_output=True, text=True, timeout=60, check=True)
    out = json.loads(run.stdout)
    assert out["earlyLegalShown"] is False
    assert out["afterEarlyLegal"] == ["end_movement"] and out["awaiting1"] is False
    assert out["seenBeforeState"] == [[11, 1], [12, 1]]       # the log sees each event before the new state
    assert out["again"] == 0
    assert out["awaiting2"] is True and out["legalCleared"] == 0 and out["toAct"] == "confederate"
    assert out["volley"] == [2, 6] and out["lastBattle"] == 15
    assert out["undone"] == [False, True, True, False]
    assert out["afterNewBattle"] == [0, None]
    assert out["staleLegal"] is False
    assert out["frames"] == [[1, "movement", "a@x,b@y"], [1, "battle", "a@x,b@z"], [2, "battle", "a@x,b@z"]]
