"""The stage leaderboard: highest stage cleared, then fewest hands used to reach it."""

from __future__ import annotations

from accounts.models import User

from .models import StageProgress


def stage_leaderboard(limit: int) -> list[tuple[User, int, int]]:
    """(player, highest stage cleared, hands used to reach it), best first; ties go to
    whoever reached the result first."""
    best = (
        StageProgress.objects.filter(
            best_stage__gt=0,
            user__kind=User.Kind.PLAYER,
            user__is_active=True,
            user__leaderboard_frozen_at__isnull=True,  # accounts.farming
        )
        .select_related("user")
        .order_by("-best_stage", "best_hands", "best_at", "pk")[: max(0, limit)]
    )
    return [(p.user, p.best_stage, p.best_hands or 0) for p in best]
