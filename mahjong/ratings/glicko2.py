"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012), steps 1-8.

Pure Python, no Django: ratings in, ratings out. Public values are on the Glicko scale
(1500 / 350 / 0.06); the update works on the Glicko-2 scale (mu, phi) internally.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko -> Glicko-2 (step 2)
TAU = 0.5  # system constant: how much volatility may change (the paper's example uses 0.5)
EPSILON = 0.000001  # convergence tolerance of the volatility iteration (step 5)

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


def _from_scaled(mu: float, phi: float, volatility: float) -> Rating:
    return Rating(SCALE * mu + START_RATING, SCALE * phi, volatility)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(player: Rating, periods: int = 1) -> Rating:
    """Rating periods without a game: only the deviation grows (step 6 alone), never past
    a newcomer's, since nothing is less known than a player never seen."""
    if periods <= 0:
        return player
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    return _from_scaled(player.mu, min(phi, START_DEVIATION / SCALE), player.volatility)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these (opponent, score) results,
    score 1 for a win, 0.5 for a draw, 0 for a loss."""
    if not results:
        return idle(player)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    v_inv = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum  # step 4: the estimated improvement
    sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)  # step 7
    new_mu = mu + new_phi**2 * delta_sum
    return _from_scaled(new_mu, new_phi, sigma)  # step 8


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm (regula falsi), as in the paper."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - d) / (2 * d * d) - (x - a) / (tau * tau)

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
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
