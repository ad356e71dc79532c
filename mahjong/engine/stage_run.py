"""A stage-mode climb across hands (RULES.md 5.3): stage, score, stake, hands, the
player's dealer streak (三连庄拍分), cleared and failed. A pure value with a JSON form;
the web keeps it per player so a climb resumes where it stopped.

    run = start()                        # stage 1 at its starting score
    run = begin_hand(run)                # stake placed (or the stage failed)
    run = finish_hand(run, won=True, hand_score=..., player_dealt=True)
    run = next_stage(run) / retry(run)   # after a clear / a failure
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from .errors import EngineError
from .settlement import STAGE_STREAK_BONUS_FROM
from .stage import LAST_STAGE, STREAK_BONUS, StageLevel, stage_level

READY = "ready"  # between hands: the next hand may start
IN_HAND = "in_hand"  # the stake is placed and the hand is being played
CLEARED = "cleared"  # the score reached the pass score: the next stage is open
COMPLETE = "complete"  # stage 4 cleared: the whole game is cleared
FAILED = "failed"  # the score could not cover the stake: retry the stage
STATUSES = (READY, IN_HAND, CLEARED, COMPLETE, FAILED)


@dataclass(frozen=True)
class StageRun:
    stage: int = 1
    score: int = 0
    status: str = READY
    hands: int = 0  # hands played in this climb, every stage and retry included
    stage_hands: int = 0  # hands played in this attempt at the stage
    streak: int = 0  # the player's consecutive wins as dealer (5.4.1)
    last_score: int = 0  # the last hand's score (after any 三连庄 doubling)

    @property
    def level(self) -> StageLevel:
        return stage_level(self.stage)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StageRun:
        run = cls(**data)
        stage_level(run.stage)
        if run.status not in STATUSES:
            raise EngineError(f"unknown stage run status {run.status!r}")
        return run


def start(stage: int = 1, hands: int = 0) -> StageRun:
    """Entering a stage sets the score to its starting score (scores do not carry)."""
    return StageRun(stage=stage, score=stage_level(stage).start_score, hands=hands)


def _expect(run: StageRun, *statuses: str) -> None:
    if run.status not in statuses:
        raise EngineError(f"the stage run is {run.status}, not {' or '.join(statuses)}")


def begin_hand(run: StageRun) -> StageRun:
    """Before each hand: a score below the stake fails the stage; else the stake is
    placed (5.3.2)."""
    _expect(run, READY)
    stake = run.level.stake
    if run.score < stake:
        return replace(run, status=FAILED)
    return replace(run, score=run.score - stake, status=IN_HAND)


def hand_score(run: StageRun, base_score: int, *, player_dealt: bool) -> tuple[int, int]:
    """(score paid, new streak) for a player win worth ``base_score`` (fan × (fan + 1) ×
    50, or N × 10,000): doubled when a win as dealer brings the streak to 3+ (5.4.1)."""
    streak = run.streak + 1 if player_dealt else 0
    doubled = run.level.has(STREAK_BONUS) and streak >= STAGE_STREAK_BONUS_FROM
    return (base_score * 2 if doubled else base_score), streak


def finish_hand(
    run: StageRun,
    *,
    won: bool = False,
    drawn: bool = False,
    base_score: int = 0,
    player_dealt: bool = False,
) -> StageRun:
    """5.3.3-4: a player win returns the stake plus the hand score, a draw returns the
    stake, a computer win (or leaving) loses it; then clear, fail or go on."""
    _expect(run, IN_HAND)
    stake = run.level.stake
    paid, streak = 0, run.streak
    if won:
        paid, streak = hand_score(run, base_score, player_dealt=player_dealt)
        score = run.score + stake + paid
    elif drawn:
        score = run.score + stake
    else:
        score, streak = run.score, 0
    run = replace(
        run,
        score=score,
        streak=streak,
        last_score=paid,
        hands=run.hands + 1,
        stage_hands=run.stage_hands + 1,
    )
    if score >= run.level.pass_score:
        return replace(run, status=COMPLETE if run.stage == LAST_STAGE else CLEARED)
    return replace(run, status=FAILED if score < run.level.stake else READY)


def next_stage(run: StageRun) -> StageRun:
    _expect(run, CLEARED)
    return start(run.stage + 1, hands=run.hands)


def retry(run: StageRun) -> StageRun:
    """A failed stage starts again from its starting score; the climb's hands count on."""
    _expect(run, FAILED)
    return start(run.stage, hands=run.hands)
