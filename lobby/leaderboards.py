"""Rows of an operator-defined Leaderboard from the data that exists.

Running totals (beans, rank score, games won) come from the player row; "beans won at
tables" sums settlement ledger legs in the period, filtered by tier or ruleset through
the match each settlement references (LedgerEntry.ref = Match.public_id).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Sum
from django.utils import timezone

from accounts.models import LedgerEntry, User

from .models import Leaderboard, Match


@dataclass(frozen=True)
class Row:
    position: int
    player: User
    value: int


def period_start(period: str, now: datetime.datetime | None = None) -> datetime.datetime | None:
    now = timezone.localtime(now or timezone.now())
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == Leaderboard.Period.DAY:
        return midnight
    if period == Leaderboard.Period.WEEK:
        return midnight - datetime.timedelta(days=midnight.weekday())
    if period == Leaderboard.Period.MONTH:
        return midnight.replace(day=1)
    return None


def rows(board: Leaderboard) -> list[Row]:
    players = User.objects.filter(kind=User.Kind.PLAYER, is_active=True)
    if board.metric in Leaderboard.TOTALS:
        field = board.metric
        top = players.filter(**{f"{field}__gt": 0}).order_by(f"-{field}", "date_joined")[
            : board.size
        ]
        return [Row(i, p, getattr(p, field)) for i, p in enumerate(top, start=1)]

    entries = LedgerEntry.objects.filter(reason=LedgerEntry.Reason.SETTLEMENT, account__in=players)
    start = period_start(board.period)
    if start is not None:
        entries = entries.filter(created_at__gte=start)
    if board.tier_id or board.ruleset_id:
        matches = Match.objects.all()
        if board.tier_id:
            matches = matches.filter(tier_id=board.tier_id)
        if board.ruleset_id:
            matches = matches.filter(ruleset_id=board.ruleset_id)
        entries = entries.filter(ref__in=matches.values("public_id"))
    totals = (
        entries.values("account_id")
        .annotate(total=Sum("amount"))
        .filter(total__gt=0)
        .order_by("-total", "account_id")[: board.size]
    )
    by_id = User.objects.in_bulk([t["account_id"] for t in totals])
    return [Row(i, by_id[t["account_id"]], t["total"]) for i, t in enumerate(totals, start=1)]
