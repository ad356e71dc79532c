"""What the profile shows of a player's rating: rating ± 2·RD today, rated hands, and the
chart of the last rated hands."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.dateformat import format as format_date

from . import chart, services
from .models import Rating, RatingChange

HISTORY = 100  # rated hands in the chart


@dataclass(frozen=True)
class Summary:
    rating: int
    margin: int  # 2·RD: the rating is within rating ± margin with about 95% confidence
    games: int
    charts: list[chart.Chart]  # the wide one and the phone's (chart.NARROW); none under 2 points


def _day(at) -> str:
    return format_date(timezone.localtime(at), "Y-m-d")


def summary(user) -> Summary | None:
    """None for accounts that are never rated (bots)."""
    if user.is_bot:
        return None
    row = Rating.objects.filter(player=user).first()
    today = services.current(row)
    changes = list(RatingChange.objects.filter(player=user).order_by("-at", "-id")[:HISTORY])
    changes.reverse()
    points = []
    if changes:
        first = changes[0]
        points.append(chart.Point(first.rating_before, first.deviation_before, _day(first.at)))
        points += [chart.Point(c.rating_after, c.deviation_after, _day(c.at)) for c in changes]
    return Summary(
        rating=round(today.rating),
        margin=round(2 * today.deviation),
        games=row.games if row else 0,
        charts=[
            c for c in (chart.build(points, layout) for layout in (chart.WIDE, chart.NARROW)) if c
        ],
    )
