"""Glicko-2: the worked example of Glickman's paper, and what players would notice."""
from __future__ import annotations

import pytest

from app.ratings.glicko2 import Rating, Result, rate


def test_the_papers_example():
    player = Rating(1500, 200, 0.06)
    after = rate(player, [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0),
                          Result(Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    me = Rating()
    strong = rate(me, [Result(Rating(1800, 50), 1)])
    weak = rate(me, [Result(Rating(1200, 50), 1)])
    assert strong.rating > weak.rating > me.rating
    assert rate(me, [Result(Rating(1500, 50), 0.5)]).rating == pytest.approx(1500, abs=0.01)


def test_a_quiet_period_only_adds_uncertainty_up_to_a_newcomers():
    settled = Rating(1620, 60, 0.06)
    idle = rate(settled, [])
    assert idle.rating == 1620 and 60 < idle.deviation < 61
    assert rate(Rating(1500, 349.9, 0.06), []).deviation == 350


@pytest.mark.parametrize("result, union, confederate", [
    ({"winner": "union", "reason": "resignation"}, 1.0, 0.0),
    ({"winner": "confederate", "reason": "on time", "on_time": True}, 0.0, 1.0),
    ({"winner": None, "reason": "agreement"}, 0.5, 0.5),
])
def test_what_each_result_scores(result, union, confederate):
    from app.ratings.ledger import scores
    assert scores(result) == {"union": union, "confederate": confederate}


def test_an_annulled_result_scores_nothing():
    from app.ratings.ledger import scores
    assert scores({"winner": None, "reason": "annulled by an administrator: x", "annulled": True}) is None
    assert scores(None) is None
