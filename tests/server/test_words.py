"""Game events in words: every event the engine and the server can write has a sentence,
no sentence comes out broken, units are named so a player can follow them, and the
browser renders with exactly the server's templates."""
from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import httpx
import pytest

import rules_engine
from app.notices.words import Narrator, box_names, describe, events_in_words, narrator, template_key, words_data
from app.notices.words.catalog import EVENTS
from app.playbyturn.orders import auto_event
from rules_engine.ai import make_player
from rules_engine.game import BATTLE_STEPS, PHASE_ACTIONS

from .helpers import new_match, said_by_the_browser

ROOT = Path(__file__).resolve().parents[2]
FALLBACKS = {"other", "action.other", "roll.other", "server.other"}
BROKEN = ("..", "undefined", "None", "[object", "{", "}", "NaN")
ALL_OPTIONS = tuple(o["id"] for o in rules_engine.options_catalog()
                    if o["implemented"] and not o["id"].startswith("11.3"))


def random_game_events(seed: int, options: tuple = (), decisions: int = 4000) -> list[dict]:
    """A long game between two random players, its events as the server stores them."""
    g = rules_engine.new_game("1861", options, seed=f"words-{seed}")
    bot = make_player("random", seed=seed)
    raw = list(g.events)
    for _ in range(decisions):
        if not g.legal_actions():
            break
        raw += g.apply(bot.choose(g))
    return [{"seq": i + 1, "source": "engine", "type": e["type"], "data": e} for i, e in enumerate(raw)]


@pytest.fixture(scope="module")
def long_games() -> list[list[dict]]:
    return [random_game_events(seed, opts) for seed in range(3) for opts in ((), ALL_OPTIONS)]


def server_event_samples() -> list[dict]:
    """One event of each kind the server writes, with the data it writes."""
    samples = {
        "create": {"scenario": "1861", "options": ["4.8", "A8.2"], "mode": "live", "by": "alice"},
        "join": {"side": "confederate", "username": "bob"},
        "start": {"to_act": "union"},
        "undo": {"to_seq": 40, "through_seq": 42, "side": "union"},
        "resign": {"side": "union", "username": "alice"},
        "abort": {"by": "alice"},
        "rewind": {"to_seq": 11, "through_seq": 20, "back_to": 10, "reason": "a misclick.", "by": "admin"},
        "adjudicate": {"result": {"winner": "union"}, "reason": "The Union was ahead.", "by": "admin"},
        "annul": {"result": {"winner": None}, "reason": "cheating", "by": "admin"},
        "auto": {"side": "union", "reason": "forced", "action": {"type": "open_fire"},
                 "text": "Automatic (Union, the only legal choice): open fire."},
        "timeout": {"side": "union", "winner": "confederate", "days": 3, "by": "bob",
                    "text": "bob (Confederate) claims the win on time."},
        "time_extended": {"side": "union", "days": 2, "by": "bob", "text": "bob gives the Union player 2 more days."},
        "offer_draw": {"side": "union", "username": "alice"},
        "accept_draw": {"side": "confederate", "username": "bob"},
        "decline_draw": {"side": "confederate", "username": "bob"},
        "rematch": {"game_id": "k3v9q2x7ab", "by": "alice", "side": "confederate"},
    }
    return [{"seq": 1, "source": "server", "type": t, "data": d} for t, d in samples.items()]


def auto_event_samples() -> list[dict]:
    """A forced move and a standing order's answer as the server writes them now."""
    forced = auto_event("union", {"type": "target", "unit": "U-VI-07", "target": "C-MI-03"}, "forced")
    ordered = auto_event("confederate", {"type": "retreat", "to": "richmond"}, "orders",
                         ("retreat_after_round", {"round": 2}))
    return [{"seq": 2, "source": "server", "type": "auto", "data": d} for d in (forced, ordered)]


def written_server_event_types() -> set[str]:
    """The server events the application's code appends (found in its source)."""
    found: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        found |= set(re.findall(r'\("server", "(\w+)"', path.read_text()))
    return found | {"adjudicate", "annul"}          # appended with their kind in a variable


def engine_event_kinds() -> set[str]:
    """The templates the engine's events and decisions need (found in its source)."""
    kinds = {f"action.{a}" for acts in [*PHASE_ACTIONS.values(), *BATTLE_STEPS.values()] for a in acts}
    for path in (ROOT / "rules_engine").glob("*.py"):
        text = path.read_text()
        kinds |= set(re.findall(r'_note\("(\w+)"', text))
        kinds |= {f"roll.{p}" for p in re.findall(r'_roll\("(\w+)"', text) if p != "fire"}
    return kinds | {"roll.fire.hit", "roll.fire.miss", "game_over_draw"}


def assert_reads_well(text: str) -> None:
    assert text == text.strip() and "  " not in text, text
    for bad in BROKEN:
        assert bad not in text, f"{bad!r} in {text!r}"


def test_every_kind_the_engine_and_server_write_has_words(long_games):
    seen = {template_key(e) for game in long_games for e in game}
    seen |= {template_key(e) for e in server_event_samples()}
    assert not seen & FALLBACKS, seen & FALLBACKS
    assert {"roll.fire.hit", "roll.fire.miss", "battle", "promoted", "recruited", "player_turn"} <= seen
    needed = engine_event_kinds() | {f"server.{t}" for t in written_server_event_types()}
    assert not needed - set(EVENTS), f"no words for {sorted(needed - set(EVENTS))}"
    assert {"server.offer_draw", "server.accept_draw", "server.decline_draw", "server.create_rematch"} <= set(EVENTS)


def test_every_event_of_long_random_games_reads_well(long_games):
    for game in long_games:
        n = Narrator(box_names())
        for e in game:
            text = n.describe(e)
            if text is not None:
                assert_reads_well(text)
    for e in server_event_samples():
        text = describe(e)
        assert text is not None
        assert_reads_well(text)


def test_shots_name_the_units_and_the_battle_in_the_active_voice():
    n = Narrator(box_names())
    n.describe({"source": "engine", "type": "battle",
                "data": {"type": "battle", "box": "manassas_junction", "attacker": "confederate", "round": 1}})
    shot = {"source": "engine", "type": "roll", "data": {"type": "roll", "purpose": "fire", "side": "confederate",
                                                         "unit": "C-MI-03", "target": "U-MI-02", "value": 6, "need": 2}}
    assert n.describe(shot) == "Confederate MI 3 at Manassas Junction fires at Union MI 2: 6, miss (needs 2)."
    shot["data"]["value"] = 2
    assert n.describe(shot) == "Confederate MI 3 at Manassas Junction fires at Union MI 2: 2, hit (needs 2)."


def test_a_reinforcement_says_where_it_came_from():
    n = Narrator(box_names())
    n.describe({"source": "engine", "type": "action", "data": {
        "type": "action", "side": "union",
        "action": {"type": "move", "unit": "U-MI-04", "path": ["washington"], "by": ["road"]}}})
    n.describe({"source": "engine", "type": "battle",
                "data": {"type": "battle", "box": "manassas_junction", "attacker": "union", "round": 1}})
    said = n.describe({"source": "engine", "type": "action", "data": {
        "type": "action", "side": "union", "action": {"type": "reinforce", "unit": "U-MI-04"}}})
    assert said == "Union MI 4 reinforces the battle at Manassas Junction from Washington."


def test_unit_identities_are_stable_and_short():
    n = Narrator(box_names())
    assert n.unit("U-VI-07") == "Union VI 7"
    assert n.unit("C-MI-03") == "Confederate MI 3"
    assert n.unit("C-BM-KY") == "Confederate BM KY"
    assert n.unit("C-CD-charleston_sc") == f"Confederate CD {box_names()['charleston_sc']}"


def test_draw_offers_and_rematches_are_said():
    said = {e["type"]: describe(e) for e in server_event_samples()}
    assert said["offer_draw"] == "Union (alice) offers a draw."
    assert said["accept_draw"] == "Confederate (bob) accepts the draw: the game is drawn."
    assert said["decline_draw"] == "Confederate (bob) declines the draw."
    rematch = {"source": "server", "type": "create",
               "data": {"scenario": "1861", "options": [], "by": "alice", "rematch_of": "g123"}}
    assert describe(rematch) == "alice created a rematch of game g123 (1861)."
    # free text that ends a sentence already gets no second full stop
    assert said["rewind"].startswith("An administrator (admin) rewound the game to seq 10: a misclick. Seqs")
    assert said["auto"] == "Automatic (Union, the only legal choice): open fire."


def test_forced_moves_and_standing_orders_are_said_in_the_readers_language(tmp_path):
    forced, ordered = auto_event_samples()
    assert [e["data"]["text"] for e in (forced, ordered)] == [
        "Automatic (Union, the only legal choice): Union VI 7 fires at Confederate MI 3.",
        "Standing orders (Confederate: retreat after round 2): Retreat to Richmond."]
    said = {lang: [narrator(lang).describe(e) for e in (forced, ordered)] for lang in ("en", "hu", "de")}
    assert said["en"] == [forced["data"]["text"], ordered["data"]["text"]]
    assert said["hu"] == [
        "Automatikus (Unió, az egyetlen szabályos lehetőség): Unió VI 7 tüzel erre: Konföderáció MI 3.",
        "Állandó parancs (Konföderáció: visszavonulás a(z) 2. kör után): Visszavonulás ide: Richmond."]
    assert said["de"] == [
        "Automatisch (Union, die einzige zulässige Wahl): Union VI 7 feuert auf Konföderierte MI 3.",
        "Dauerauftrag (Konföderierte: Rückzug nach Runde 2): Rückzug nach Richmond."]
    # events stored before: their English sentence, as it was written
    old = server_event_samples()[[e["type"] for e in server_event_samples()].index("auto")]
    assert narrator("hu").describe(old) == "Automatic (Union, the only legal choice): open fire."
    if shutil.which("node"):
        for lang in ("hu", "de"):
            assert said_by_the_browser([forced, ordered, old], tmp_path, lang) == \
                said[lang] + ["Automatic (Union, the only legal choice): open fire."]


def test_mail_lines_leave_out_the_small_decisions(long_games):
    game = long_games[0]
    lines = events_in_words(game, limit=10_000)
    assert any(line.startswith("Turn ") for line in lines)
    assert not any(line.endswith("ends the March.") for line in lines)
    assert len(events_in_words(game, limit=5)) == 6          # the note about earlier entries, then 5


def words_in_page(text: str) -> dict:
    m = re.search(r'<script type="application/json" id="words">(.*?)</script>', text, re.S)
    assert m, "the page carries no words"
    return json.loads(html.unescape(m.group(1)))


def test_the_pages_carry_the_servers_words(server):
    a, b, gid = new_match(server.base)
    expected = json.loads(json.dumps(words_data()))
    for path in (f"/games/{gid}", "/replay"):
        r = httpx.get(server.base + path, headers={"Authorization": f"Bearer {a.token}"}, timeout=30)
        assert r.status_code == 200, r.text
        assert words_in_page(r.text) == expected
    a.close()
    b.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run static/words.js")
def test_the_browser_says_every_event_as_the_server_does(long_games, tmp_path):
    events = [e for game in long_games[:2] for e in game] + server_event_samples() + auto_event_samples()
    expected = []
    n = Narrator(box_names())
    for e in events:
        expected.append(n.describe(e))
    said = said_by_the_browser(events, tmp_path)
    assert len(said) == len(expected)
    differ = [(e["type"], x, y) for e, x, y in zip(events, expected, said) if x != y]
    assert not differ, differ[:5]


def test_every_phase_and_battle_step_has_a_name_and_prompts():
    w = words_data()
    phases = set(PHASE_ACTIONS) | {"battle"}
    assert not phases - set(w["phases"]), phases - set(w["phases"])
    for key in phases | {f"battle.{step}" for step in BATTLE_STEPS} | {"movement.active"}:
        prompt = w["prompts"][key]
        assert prompt["mine"] and prompt["theirs"], key
    assert [t["label"] for t in w["calendar"][:2]] == ["07 1861", "08 1861"]
    assert len(w["calendar"]) == 45 and w["calendar"][-1]["label"] == "11/12 1865"
