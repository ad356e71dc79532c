"""Rank levels (RULES.md 4.6): which level a rank score is, and how far to the next."""

from __future__ import annotations

from dataclasses import dataclass

from .models import RankLevel


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
