"""Matches and the ladder: the play-quality figures on situations whose answer is
known, saved games that verify, the Elo fit on made-up results and the ladder
command end to end."""
from __future__ import annotations

import json
import os

import pytest

import rules_engine
from rules_engine.__main__ import main
from rules_engine.ai.ladder import fit_elo, play_ladder, published_elo
from rules_engine.ai.quality import analyse_game, battle_odds, capital_open
from rules_engine.verify import verify_record

BOX = "gordonsville"          # no fort, no river side: no permanent entrenchment, no 5.34


def _battle(union: list[str], confederate: list[str]):
    """A Union attack in BOX just begun (the fight action applied)."""
    g = rules_engine.from_position({"scenario": "1861", "turn": 15, "side": "union", "phase": "battle_choice",
                                    "units": {"union": {BOX: union}, "confederate": {BOX: confederate}}})
    g.apply({"type": "fight", "box": BOX})
    return g


def _union_figures(union: list[str], confederate: list[str]):
    g = _battle(union, confederate)
    return analyse_game(g.header, g.events)["union"]


def test_a_big_stack_against_a_lone_militia_is_better_than_even():
    q = _union_figures(["VI"] * 4, ["MI"])
    assert (q.battles, q.better_than_even, q.lone_against_stronger) == (1, 1, 0)
    assert q.win_chance_sum > 0.9


def test_a_lone_unit_against_an_entrenched_stack_is_counted():
    q = _union_figures(["MI"], ["VI*"] * 3)
    assert (q.battles, q.better_than_even, q.lone_against_stronger) == (1, 0, 1)
    assert q.win_chance_sum < 0.1
    # entrenched alone is enough, and so is a stronger box; one attacker to one equal is not
    assert _union_figures(["VI"], ["MI*"]).lone_against_stronger == 1
    assert _union_figures(["MI"], ["VI"]).lone_against_stronger == 1
    assert _union_figures(["VI"], ["VI"]).lone_against_stronger == 0


def test_a_promotion_continues_the_piece_it_replaces():
    g = rules_engine.from_position({"scenario": "1861", "turn": 15, "side": "union", "phase": "battle_choice",
                                    "units": {"union": {BOX: ["VI"] * 4}, "confederate": {BOX: ["MI"]}}},
                                   dice=[6, 1, 1, 1, 1])
    g.apply({"type": "fight", "box": BOX})
    while g.battle is not None:
        acts = g.legal_actions()
        g.apply(next((a for a in acts if a["type"] == "promote"), acts[0]))
    assert any(e["type"] == "promoted" for e in g.events)
    q = analyse_game(g.header, g.events)
    assert (q["union"].pieces, q["union"].never_moved, q["union"].won) == (4, 4, 1)
    assert (q["confederate"].pieces, q["confederate"].never_moved) == (1, 1)


def test_battle_odds_match_the_exact_chance_of_a_duel():
    # Veteran attacks Militia: the Militia fires first and hits on 1-2, the Veteran
    # on 1-3; two hits eliminate either. Worked out exactly: 5/8.
    assert battle_odds(_battle(["VI"], ["MI"]), samples=600, seed="duel") == pytest.approx(0.625, abs=0.08)


def _confederate_turn(move_to: str | None):
    """A Confederate Player Turn with one Militia in Richmond and a Union Veteran a
    March away; the Militia marches to ``move_to`` (or a unit elsewhere moves)."""
    g = rules_engine.from_position(
        {"scenario": "1861", "turn": 15, "side": "confederate", "phase": "movement", "marches": 1,
         "units": {"union": {"fredericksburg": ["VI"]},
                   "confederate": {"richmond": ["MI"], "lynchburg": ["MI"]}}}, dice=[1] * 40)
    box = "richmond" if move_to else "lynchburg"
    g.apply({"type": "activate", "box": box})
    g.apply(next(a for a in g.legal_actions() if a["type"] == "move"
                 and a["path"][-1] == (move_to or "staunton")))
    passive = ("end_march", "end_movement", "no_promotion", "roll_recruits", "end_recruitment",
               "roll_replacements", "roll_marches")
    while g.side == "confederate":
        acts = g.legal_actions()
        g.apply(next((a for kind in passive for a in acts if a["type"] == kind), acts[0]))
    return analyse_game(g.header, g.events)


def test_a_capital_left_to_an_enemy_a_march_away_is_counted():
    q = _confederate_turn("petersburg")
    assert (q["confederate"].capital_turns, q["confederate"].capital_open) == (1, 1)
    kept = _confederate_turn(None)
    assert (kept["confederate"].capital_turns, kept["confederate"].capital_open) == (1, 0)
    # never moved: the Union Veteran; the Confederates' marching Militia moved
    assert (q["union"].pieces, q["union"].never_moved) == (1, 1)
    assert (q["confederate"].pieces, q["confederate"].never_moved) == (2, 1)


def test_capital_open_definition():
    def after(confederate: dict, union: dict) -> rules_engine.Game:
        return rules_engine.from_position({"scenario": "1861", "turn": 15, "side": "union",
                                           "phase": "marches_roll",
                                           "units": {"union": union, "confederate": confederate}})
    far = {"philadelphia": ["VI"]}
    assert capital_open(after({"lynchburg": ["MI"]}, {"fredericksburg": ["VI"]}), "confederate", 1)
    assert not capital_open(after({"lynchburg": ["MI"]}, far), "confederate", 1)
    # a garrison thinned out next to a stack of twice its strength is open; kept whole it is not
    strong = {"fredericksburg": ["VI"] * 4}
    assert capital_open(after({"richmond": ["MI"]}, strong), "confederate", 2)
    assert not capital_open(after({"richmond": ["MI"]}, strong), "confederate", 1)
    assert not capital_open(after({"richmond": ["VI", "VI"]}, strong), "confederate", 3)


def test_match_reports_quality_and_saves_games_that_verify(tmp_path, capsys):
    base = ["match", "--a", "random", "--b", "greedy", "--games", "1", "--scenario", "1861-short",
            "--seed", "save/me", "--save", str(tmp_path)]
    assert main(base + ["--first", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    for who in ("a", "b"):
        q = out["quality"][who]
        assert {"battles", "better_than_even", "lone_against_stronger", "capital_open",
                "never_moved", "never_moved_share"} <= set(q)
        assert q["pieces"] > 0
    assert main(base + ["--first", "2", "--no-quality"]) == 0        # a second part of the match
    assert "quality" not in json.loads(capsys.readouterr().out)
    files = sorted(os.listdir(tmp_path))
    assert files == ["random-vs-greedy-save_me-0001.json", "random-vs-greedy-save_me-0002.json"]
    for name in files:
        record = json.loads((tmp_path / name).read_text())
        assert record["seed"] == f"save/me/{int(name[-9:-5])}"
        assert verify_record(record) == []
    assert main(["verify", str(tmp_path / files[0])]) == 0


def _result(a: str, b: str, games: int, a_wins: int, b_wins: int, unfinished: int = 0) -> dict:
    return {"a": a, "b": b, "games": games, "wins": {"a": a_wins, "b": b_wins}, "unfinished": unfinished}


def test_elo_fit_on_made_up_results():
    # 75% is 400 * log10(3) = 190.8 Elo, split evenly about a mean of 0
    fit = fit_elo([_result("A", "B", 100, 75, 25)], prior_draws=0)
    assert fit["A"]["elo"] == pytest.approx(95.4, abs=0.1)
    assert fit["B"]["elo"] == pytest.approx(-95.4, abs=0.1)
    # the standard error of 75% in 100 games is about 40 Elo on the difference
    assert fit["A"]["error"] == pytest.approx(fit["B"]["error"])
    anchored = fit_elo([_result("B", "random", 100, 25, 75)], prior_draws=0)
    assert anchored["random"] == {"elo": 0.0, "error": 0.0}
    assert anchored["B"]["elo"] == pytest.approx(-190.8, abs=0.1)
    assert anchored["B"]["error"] == pytest.approx(78.6, abs=1)
    # a clean sweep stays finite (the prior), unfinished games count half, and
    # transitive results come out in order
    sweep = fit_elo([_result("random", "X", 4, 0, 4)])["X"]["elo"]
    assert 150 < sweep < 1000
    three = fit_elo([_result("random", "X", 20, 5, 13, 2), _result("X", "Y", 20, 6, 14),
                     _result("random", "Y", 20, 1, 19)])
    assert 0 < three["X"]["elo"] < three["Y"]["elo"]


@pytest.mark.slow   # a whole game of the computer player
def test_ladder_command_end_to_end(tmp_path, capsys):
    out = tmp_path / "ladder.json"
    assert main(["ladder", "--games", "2", "--levels", "random", "greedy", "--scenario", "1861-short",
                 "--seed", "e2e", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "random" in printed and "greedy" in printed
    report = json.loads(out.read_text())
    assert report["command"].startswith("python -m rules_engine ladder --games 2")
    assert report["levels"] == ["random", "greedy"] and report["anchor"] == "random"
    (pairing,) = report["pairings"]
    assert (pairing["a"], pairing["b"], pairing["games"]) == ("random", "greedy", 2)
    assert pairing["wins"]["a"] + pairing["wins"]["b"] + pairing["unfinished"] == 2
    assert set(pairing["quality"]) == {"a", "b"}
    assert report["elo"]["random"] == {"elo": 0, "error": 0}
    assert isinstance(report["elo"]["greedy"]["elo"], int) and report["elo"]["greedy"]["error"] > 0
    assert published_elo(out) == report["elo"]
    assert published_elo(tmp_path / "none.json") == {}
    # merging the file again doubles the games and keeps the ratings' order
    assert main(["ladder", "--games", "0", "--merge", str(out), str(out), "--out", str(out)]) == 0
    merged = json.loads(out.read_text())
    assert len(merged["pairings"]) == 2 and merged["elo"]["random"]["elo"] == 0


@pytest.mark.slow   # a whole game of the computer player
def test_ladder_in_two_processes_plays_the_same_games():
    def results(jobs: int) -> list:
        return [(p["a"], p["b"], p["wins"], p["quality"])
                for p in play_ladder(["random", "greedy", "easy"], 1, "1861-short", seed="jobs", jobs=jobs)]
    assert results(2) == results(1)


def test_ladder_merges_a_match_result(tmp_path, capsys):
    assert main(["match", "--a", "greedy", "--b", "random", "--games", "2", "--scenario", "1861-short",
                 "--seed", "merge", "--no-quality"]) == 0
    match_file = tmp_path / "match.json"
    match_file.write_text(capsys.readouterr().out)
    out = tmp_path / "ladder.json"
    assert main(["ladder", "--games", "0", "--merge", str(match_file), "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert set(report["elo"]) == {"greedy", "random"}
    assert report["pairings"][0]["games"] == 2
