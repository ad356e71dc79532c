"""Settlement: from how a hand ended to who pays whom (RULES.md 3.14 and each ruleset's
scoring). A pure function; the web layer only records the transfers it returns.

Amounts are in the room's currency (beans / coins): points × ``per_point``. Seats are 0
and 1; the house (rake) is ``HOUSE``. Balances never go below 0 (3.14.5): a loser pays at
most their balance, when balances are given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import EngineError
from .shapes import DISCARD_WIN, DRAW, ESCAPE, SELF_DRAW, Outcome

if TYPE_CHECKING:
    from .fans import ScoreResult
    from .rulesets import Ruleset

HOUSE = "house"
STAGE_YAKUMAN_SCORE = 10_000
STAGE_STREAK_BONUS_FROM = 3  # 三连庄拍分: the 3rd consecutive dealer win onwards doubles
GB_BONUS_FAN = 8  # gb pays (Σ fan + 8) × 底分 (RULES.md 8.5)


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: int | str  # seat, or HOUSE (stage pays the player from the house)
    payee: int | str  # seat, or HOUSE for the rake
    amount: int


@dataclass(frozen=True)
class Settlement:
    points: int  # the hand's value before currency and caps
    transfers: tuple[Transfer, ...] = ()

    @property
    def rake(self) -> int:
        return sum(t.amount for t in self.transfers if t.payee == HOUSE)

    def delta(self, seat: int) -> int:
        """Net change of ``seat``'s balance."""
        return sum(t.amount for t in self.transfers if t.payee == seat) - sum(
            t.amount for t in self.transfers if t.payer == seat
        )


@dataclass(frozen=True)
class Table:
    """Per-hand money facts the engine does not keep: the room's 底分 (default: the
    ruleset's ``base_points``; wenzhou: the hand's base level B, default from the
    dealer's streak), currency per point, balances (seat 0, seat 1), quesheng
    bring-ins, the wenzhou dealer's winning streak (progressive base), and the stage
    player's seat, stake and dealer streak."""

    base: int | None = None
    per_point: int = 1
    balances: Sequence[int] | None = None
    bring_ins: Sequence[int] | None = None
    dealer: int = 0
    dealer_streak: int = 0
    stake: int = 0
    player: int = 0


# A win's settlement formula (SCORING): ruleset, outcome, the winner's score, table.
_Scoring = Callable[["Ruleset", Outcome, "ScoreResult", Table], Settlement]


def settle(
    ruleset: Ruleset, outcome: Outcome, score: ScoreResult | None = None, table: Table = Table()
) -> Settlement:
    """Transfers for one finished hand. ``score`` is the winner's ScoreResult (wins)."""
    if outcome.kind == DRAW:
        return _stage_draw(table) if ruleset.scoring == "stage" else Settlement(0)
    if outcome.kind == ESCAPE:
        return _escape(ruleset, outcome, table)
    if outcome.kind not in (SELF_DRAW, DISCARD_WIN) or score is None or not score.is_win:
        raise EngineError(f"cannot settle a {outcome.kind!r} outcome without a winning score")
    return SCORING[ruleset.scoring](ruleset, outcome, score, table)


# ----- wins, per formula ---------------------------------------------------------------
def _base(ruleset: Ruleset, table: Table) -> int:
    return ruleset.base_points if table.base is None else table.base


def _classic(ruleset: Ruleset, outcome: Outcome, score: ScoreResult, table: Table) -> Settlement:
    """basic × 3 (self-draw, and a robbed kong) or × 1 (discard) × 底分 (4.3)."""
    assert outcome.loser is not None and outcome.winner is not None  # a win has both
    self_paid = outcome.kind == SELF_DRAW or outcome.robbed_kong
    factor = ruleset.self_draw_multiplier if self_paid else ruleset.discard_multiplier
    return _pay(outcome.loser, outcome.winner, score.total * factor * _base(ruleset, table), table)


def _fan_times_base(extra: int) -> _Scoring:
    """tiao72: Σ fan × 底分; gb: (Σ fan + 8) × 底分 — self-draw or discard alike."""

    def settle_win(
        ruleset: Ruleset, outcome: Outcome, score: ScoreResult, table: Table
    ) -> Settlement:
        assert outcome.loser is not None and outcome.winner is not None  # a win has both
        points = (score.total + extra) * _base(ruleset, table)
        return _pay(outcome.loser, outcome.winner, points, table)

    return settle_win


def _quesheng(ruleset: Ruleset, outcome: Outcome, score: ScoreResult, table: Table) -> Settlement:
    assert outcome.loser is not None and outcome.winner is not None  # a win has both
    return _capped_with_rake(
        ruleset, outcome.loser, outcome.winner, score.total * _base(ruleset, table), table
    )


def _wenzhou(ruleset: Ruleset, outcome: Outcome, score: ScoreResult, table: Table) -> Settlement:
    """B × M, B the dealer's progressive base (9.5), M the capped multiplier."""
    assert outcome.loser is not None and outcome.winner is not None  # a win has both
    points = _wenzhou_b(ruleset, table) * score.total
    return _pay(outcome.loser, outcome.winner, points, table)


def _stage(ruleset: Ruleset, outcome: Outcome, score: ScoreResult, table: Table) -> Settlement:
    """The house returns the stake and pays the hand score when the player wins; a
    computer win pays nothing (the stake is already lost) (5.3)."""
    assert outcome.winner is not None  # a win has one
    if outcome.winner != table.player:
        return Settlement(0)
    points = stage_hand_score(score, table.dealer_streak)
    amount = table.stake + points
    return Settlement(points, (Transfer(HOUSE, outcome.winner, amount),))


def _stage_draw(table: Table) -> Settlement:
    return Settlement(0, (Transfer(HOUSE, table.player, table.stake),) if table.stake else ())


SCORING: dict[str, _Scoring] = {
    "classic": _classic,
    "stage": _stage,
    "quesheng": _quesheng,
    "tiao72": _fan_times_base(0),
    "gb": _fan_times_base(GB_BONUS_FAN),
    "wenzhou": _wenzhou,
}


# ----- shared pieces -----------------------------------------------------------------------
def stage_hand_score(score: ScoreResult, dealer_streak: int = 0) -> int:
    """fan × (fan + 1) × 50, or 10,000 per distinct yakuman; doubled from the third
    consecutive dealer win (三连庄拍分, 5.4.1)."""
    if score.yakuman:
        points = STAGE_YAKUMAN_SCORE * len(set(score.yakuman))
    else:
        points = score.total * (score.total + 1) * 50
    return points * 2 if dealer_streak >= STAGE_STREAK_BONUS_FROM else points


def wenzhou_base(ruleset: Ruleset, dealer_streak: int) -> int:
    """10 for a dealer's first hand, one level up per consecutive winning hand kept, 40
    at most (9.5)."""
    levels = ruleset.base_levels
    return levels[min(dealer_streak, len(levels) - 1)]


def _wenzhou_b(ruleset: Ruleset, table: Table) -> int:
    """The hand's B: the level the caller passes as ``base``, or the one the dealer's
    winning streak has reached."""
    return table.base if table.base is not None else wenzhou_base(ruleset, table.dealer_streak)


def _pay(loser: int, winner: int, points: int, table: Table) -> Settlement:
    amount = _within_balance(loser, points * table.per_point, table)
    return Settlement(points, (Transfer(loser, winner, amount),) if amount else ())


def _within_balance(payer: int, amount: int, table: Table) -> int:
    if table.balances is None:
        return amount
    return max(0, min(amount, table.balances[payer]))


def _capped_with_rake(
    ruleset: Ruleset, loser: int, winner: int, points: int, table: Table
) -> Settlement:
    """quesheng 6.3: X = A × B in currency, capped by both bring-ins (防以小博大), then the
    rake floor(rake% × X') goes to the house out of the winner's gain."""
    amount = points * table.per_point
    if table.bring_ins is not None:
        amount = min(amount, table.bring_ins[loser], table.bring_ins[winner])
    amount = _within_balance(loser, amount, table)
    rake = amount * ruleset.rake_percent // 100
    transfers = [Transfer(loser, winner, amount)] if amount else []
    if rake:
        transfers.append(Transfer(winner, HOUSE, rake))
    return Settlement(points, tuple(transfers))


# ----- escape -----------------------------------------------------------------------------
def _escape(ruleset: Ruleset, outcome: Outcome, table: Table) -> Settlement:
    """The escaper pays the ruleset's penalty to the opponent: classic 13, quesheng 88 (with
    rake and cap), tiao72 60, gb 96 (× 底分); wenzhou B × 16 (dealer) or B × 8. Stage has
    no escape."""
    escaper = outcome.escaper
    if escaper is None or ruleset.scoring == "stage":
        raise EngineError(f"{ruleset.slug} has no escape settlement for {outcome!r}")
    other = 1 - escaper
    if ruleset.scoring == "wenzhou":
        dealer = escaper == table.dealer
        factor = (
            ruleset.options.get("dealer_escape_penalty", 16) if dealer else ruleset.escape_penalty
        )
        return _pay(escaper, other, _wenzhou_b(ruleset, table) * factor, table)
    points = ruleset.escape_penalty * _base(ruleset, table)
    if ruleset.scoring == "quesheng":
        return _capped_with_rake(ruleset, escaper, other, points, table)
    return _pay(escaper, other, points, table)
