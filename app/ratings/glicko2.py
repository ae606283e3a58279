"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), for rated games.

A rating is (rating, deviation, volatility) on the familiar scale (1500, 350, 0.06 for
a newcomer). A rating period's results update it in the five steps of the paper; a
player with no games in a period only grows less certain (step 6 alone). The paper's
own example is the test (tests/unit/test_ratings.py).
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178          # Glicko-2 works on (rating - 1500) / SCALE
TAU = 0.5                 # how much volatility may change: the paper suggests 0.3 to 1.2
EPSILON = 0.000001        # convergence of the volatility iteration
NEW_PLAYER = (1500.0, 350.0, 0.06)


@dataclass(frozen=True)
class Rating:
    rating: float = NEW_PLAYER[0]
    deviation: float = NEW_PLAYER[1]
    volatility: float = NEW_PLAYER[2]

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True)
class Result:
    opponent: Rating
    score: float          # 1 a win, 0.5 a draw, 0 a loss


PROVISIONAL_DEVIATION = 110.0  # above this a rating is shown as provisional ("1620?")


def rating_view(rating: float | None, deviation: float | None) -> dict | None:
    """A rating as pages and the API show it (None: not rated yet)."""
    if rating is None or deviation is None:
        return None
    return {"rating": round(rating), "deviation": round(deviation),
            "provisional": deviation > PROVISIONAL_DEVIATION}


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[Result], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results."""
    results = list(results)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        return Rating(player.rating, min(math.sqrt(phi * phi + sigma * sigma) * SCALE, NEW_PLAYER[1]),
                      sigma)
    inv_v = 0.0
    gain = 0.0
    for r in results:
        g = _g(r.opponent.phi)
        e = _expected(mu, r.opponent.mu, r.opponent.phi)
        inv_v += g * g * e * (1.0 - e)
        gain += g * (r.score - e)
    v = 1.0 / inv_v
    sigma_new = _new_volatility(phi, sigma, v * gain, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(1500.0 + SCALE * mu_new, SCALE * phi_new, sigma_new)
