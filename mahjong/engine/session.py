"""From one hand to the next: dealer rules, dealer streaks, gb's round winds and
wenzhou's progressive base (RULES.md 3.2.1, 3.13.3, 6.1, 8.1, 8.5, 9.5)."""

from __future__ import annotations

import dataclasses
from typing import cast

from .errors import EngineError
from .rulesets import Ruleset
from .shapes import DRAW, Outcome
from .state import Session
from .tiles import WINDS
from .wall import random_seat

HANDS_PER_ROUND_WIND = 2  # gb: 东南西北 × 2 hands = an 8-hand match


def first_session(ruleset: Ruleset, seed: bytes, dealer: int | None = None) -> Session:
    """The first hand's dealer is random (3.2.1) unless the table fixes it."""
    if dealer is None:
        dealer = random_seat(seed, b"dealer")
    if dealer not in (0, 1):
        raise EngineError(f"dealer must be seat 0 or 1, got {dealer!r}")
    return Session(hand_number=1, dealer=dealer, round_wind=round_wind(ruleset, 1))


def round_wind(ruleset: Ruleset, hand_number: int) -> int:
    if not ruleset.match_hands:
        return WINDS[0]
    hand_in_match = (hand_number - 1) % ruleset.match_hands
    return WINDS[hand_in_match // HANDS_PER_ROUND_WIND % len(WINDS)]


def match_over(ruleset: Ruleset, session: Session) -> bool:
    """gb: the hand just played closed an 8-hand match (the table then closes)."""
    return bool(ruleset.match_hands and session.hand_number % ruleset.match_hands == 0)


def next_session(
    ruleset: Ruleset,
    session: Session,
    outcome: Outcome,
    seed: bytes,
    scores: tuple[int, int] | None = None,
) -> Session:
    dealer = next_dealer(ruleset, session, outcome, seed)
    kept = dealer == session.dealer
    number = session.hand_number + 1
    return dataclasses.replace(
        session,
        hand_number=number,
        dealer=dealer,
        streak=session.streak + 1 if kept else 0,
        level=_next_level(ruleset, session, outcome, kept),
        round_wind=round_wind(ruleset, number),
        # tuple() of a pair is a pair; mypy widens it to tuple[int, ...]
        scores=cast("tuple[int, int]", tuple(scores)) if scores is not None else session.scores,
    )


def next_dealer(ruleset: Ruleset, session: Session, outcome: Outcome, seed: bytes) -> int:
    if ruleset.dealer_rule == "random":
        return random_seat(seed, b"dealer")
    if ruleset.dealer_rule == "alternate":
        return 1 - session.dealer
    # "winner": the winner deals; a draw keeps the dealer; an escape counts as a win of
    # the opponent (3.13.3), which Outcome.winner already records.
    if outcome.kind == DRAW or outcome.winner is None:
        return session.dealer
    return outcome.winner


def _next_level(ruleset: Ruleset, session: Session, outcome: Outcome, kept: bool) -> int:
    """9.5: the base rises one level each time the dealer keeps the deal by winning,
    stays on a draw, and resets when the deal passes."""
    if not kept:
        return 0
    if outcome.winner == session.dealer and outcome.kind != DRAW:
        return min(session.level + 1, len(ruleset.base_levels) - 1)
    return session.level


def base_points(ruleset: Ruleset, session: Session) -> int:
    """The current hand's base B (wenzhou 进阶分; 1 level elsewhere)."""
    return ruleset.base_levels[min(session.level, len(ruleset.base_levels) - 1)]
