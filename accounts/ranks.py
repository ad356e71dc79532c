"""Rank levels (RULES.md 4.6): which level a rank score is, how far to the next, and the
score's change when a ranked hand is settled.

RULES.md 4.6 Interpretation: rank score = lifetime net points (won minus lost, escape
penalties included) in classic rooms, floored at 0; a level follows the score both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Value
from django.db.models.functions import Greatest

from .models import RankLevel, User


@dataclass(frozen=True)
class RankProgress:
    level: RankLevel | None
    next_level: RankLevel | None
    score: int

    @property
    def percent(self) -> int:
        """Progress from this level's threshold to the next one, 0-100 (100 at the top)."""
        if self.next_level is None:
            return 100
        floor = self.level.threshold if self.level else 0
        span = self.next_level.threshold - floor
        return max(0, min(100, (self.score - floor) * 100 // span))

    @property
    def to_next(self) -> int:
        return self.next_level.threshold - self.score if self.next_level else 0


def progress(score: int, levels: list[RankLevel] | None = None) -> RankProgress:
    levels = levels if levels is not None else list(RankLevel.objects.order_by("threshold"))
    current = None
    upcoming = None
    for level in levels:
        if level.threshold <= score:
            current = level
        else:
            upcoming = level
            break
    return RankProgress(current, upcoming, score)


def add_points(user_id: int, points: int) -> None:
    """Add a hand's net points to a player's rank score, never below 0 (one UPDATE, so a
    concurrent hand at another table cannot lose this one's points)."""
    if points:
        User.objects.filter(pk=user_id).update(
            rank_score=Greatest(F("rank_score") + points, Value(0))
        )
