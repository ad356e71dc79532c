"""Rows of an operator-defined Leaderboard.

Current values (beans, rank score, rating) come from one row per player. Everything
sliced by period, room tier or ruleset (beans won, games won, biggest hand, win rate)
is one grouped query over ratings.HandResult, the narrow row each player gets per ranked
hand, written with the settlement. A board's standings are cached for CACHE_SECONDS
(ids and numbers only); the page shows when they were computed, and the players of all
boards are read in one query.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, FloatField, Max, Q, Sum
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from catalogue.models import Leaderboard
from mahjong.ratings import services as ratings
from mahjong.ratings.models import HandResult, Rating

CACHE_SECONDS = 60
Metric = Leaderboard.Metric


@dataclass(frozen=True)
class Standing:
    """What is cached of a row: who, the number ranked by, and an extra figure (the
    games behind a win rate, the deviation of a rating)."""

    player_id: int
    value: int | float
    extra: int | float | None = None


@dataclass(frozen=True)
class Row:
    position: int
    player: User
    value: int | float
    shown: str  # the value as the page prints it
    detail: str = ""


@dataclass(frozen=True)
class Board:
    board: Leaderboard
    rows: list[Row]
    computed_at: datetime.datetime


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


# ----- computing standings: one query per board --------------------------------------------


def _players():
    """Who a board may list: active players not frozen from the leaderboards by an
    operator (accounts.farming: beans farmed from one's other accounts)."""
    return User.objects.filter(
        kind=User.Kind.PLAYER, is_active=True, leaderboard_frozen_at__isnull=True
    )


def _held(board: Leaderboard) -> list[Standing]:
    field = board.metric
    top = (
        _players()
        .filter(**{f"{field}__gt": 0})
        .order_by(f"-{field}", "date_joined")
        .values_list("pk", field)[: board.size]
    )
    return [Standing(pk, value) for pk, value in top]


def _rating(board: Leaderboard) -> list[Standing]:
    """Ranked by the stored rating; the ± shown is today's (grown with idle days)."""
    top = Rating.objects.filter(
        games__gte=max(1, board.min_games),
        player__kind=User.Kind.PLAYER,
        player__is_active=True,
        player__leaderboard_frozen_at__isnull=True,
    ).order_by("-rating", "player_id")[: board.size]
    now = timezone.now()
    return [
        Standing(row.player_id, round(row.rating), round(2 * ratings.current(row, now).deviation))
        for row in top
    ]


def _results(board: Leaderboard):
    """The board's HandResult rows: its period, room or ruleset, no banned or frozen
    player (results are written for players only)."""
    unlisted = User.objects.filter(Q(is_active=False) | Q(leaderboard_frozen_at__isnull=False))
    results = HandResult.objects.exclude(player__in=unlisted)
    start = period_start(board.period)
    if start is not None:
        results = results.filter(at__gte=start)
    if board.tier_id:
        results = results.filter(tier_id=board.tier_id)
    if board.ruleset_id:
        results = results.filter(ruleset_id=board.ruleset_id)
    return results.values("player_id")


def _grouped(board: Leaderboard) -> list[Standing]:
    # Counts of * or of an indexed column, not of the id: the indexes hold what a board
    # reads, and the database need not visit the rows.
    results = _results(board)
    if board.metric == Metric.WIN_RATE:
        top = (
            results.annotate(games=Count("*"), wins=Count("won", filter=Q(won=True)))
            .filter(games__gte=max(1, board.min_games), wins__gt=0)
            .annotate(value=Cast("wins", FloatField()) / Cast("games", FloatField()))
            .order_by("-value", "-games", "player_id")[: board.size]
        )
        return [Standing(r["player_id"], r["value"], r["games"]) for r in top]
    if board.metric == Metric.NET_BEANS:
        top = results.annotate(value=Sum("beans")).filter(value__gt=0)
    elif board.metric == Metric.GAMES_WON:
        top = results.filter(won=True).annotate(value=Count("*"))
    else:  # biggest hand
        top = results.filter(won=True, fan__gt=0).annotate(value=Max("fan"))
    top = top.order_by("-value", "player_id")[: board.size]
    return [Standing(r["player_id"], r["value"]) for r in top]


def _stage(board: Leaderboard) -> list[Standing]:
    """Stage mode ranks its own climbs: highest stage cleared, then fewest hands."""
    from mahjong.stages.leaderboard import stage_leaderboard

    return [Standing(user.pk, stage, hands) for user, stage, hands in stage_leaderboard(board.size)]


def standings(board: Leaderboard) -> list[Standing]:
    if board.metric in (Metric.BEANS, Metric.RANK_SCORE):
        return _held(board)
    if board.metric == Metric.RATING:
        return _rating(board)
    if board.metric == Metric.STAGE:
        return _stage(board)
    return _grouped(board)


def _cache_key(board: Leaderboard) -> str:
    # The definition is in the key: an operator's edit shows at once.
    parts = (board.metric, board.period, board.tier_id, board.ruleset_id, board.min_games)
    return f"leaderboard:{board.pk}:{board.size}:" + ":".join(map(str, parts))


def cached_standings(board: Leaderboard) -> tuple[list[Standing], datetime.datetime]:
    key = _cache_key(board)
    hit = cache.get(key)
    if hit is not None:
        return hit
    fresh = (standings(board), timezone.now())
    cache.set(key, fresh, CACHE_SECONDS)
    return fresh


# ----- rows for the page ------------------------------------------------------------------


def _shown(metric: str, standing: Standing) -> tuple[str, str]:
    value, extra = standing.value, standing.extra
    if metric == Metric.RATING:
        return f"{value:,}", f"± {extra}"
    if metric == Metric.WIN_RATE:
        games = ngettext("%(n)s game", "%(n)s games", extra) % {"n": f"{extra:,}"}
        return f"{value * 100:.1f}%", games
    if metric == Metric.BIGGEST_HAND:
        return ngettext("%(n)s fan", "%(n)s fan", value) % {"n": value}, ""
    if metric == Metric.STAGE:
        hands = ngettext("in %(n)s hand", "in %(n)s hands", extra) % {"n": f"{extra:,}"}
        return _("Stage %(n)s") % {"n": value}, hands
    return f"{value:,}", ""


def _tie_key(metric: str, standing: Standing):
    """What a row is ranked by: equal keys share a position. The win rate's games break
    a tie of the rate (more games rank higher); the stage climb's ties go to whoever
    reached the result first (stages.leaderboard), so its rows never share one."""
    if metric == Metric.STAGE:
        return standing.player_id
    if metric == Metric.WIN_RATE:
        return standing.value, standing.extra
    return standing.value


def _rows(metric: str, top: list[Standing], users: dict[int, User]) -> list[Row]:
    """Competition ranking ("1, 1, 3"): players with the same figure share a position,
    rather than one of them ranking lower for joining later or a larger id."""
    rows = []
    position, previous = 0, object()
    for count, standing in enumerate((s for s in top if s.player_id in users), start=1):
        key = _tie_key(metric, standing)
        if key != previous:
            position, previous = count, key
        shown, detail = _shown(metric, standing)
        rows.append(Row(position, users[standing.player_id], standing.value, shown, detail))
    return rows


def boards(definitions) -> list[Board]:
    """Every board's rows: one query per board not in the cache, one for all the players."""
    computed = [(board, *cached_standings(board)) for board in definitions]
    ids = {s.player_id for _board, top, _at in computed for s in top}
    # Read through _players(): a player frozen or banned within the cache's minute
    # leaves the cached boards at once.
    users = _players().in_bulk(ids) if ids else {}
    return [Board(board, _rows(board.metric, top, users), at) for board, top, at in computed]


def rows(board: Leaderboard) -> list[Row]:
    """One board's rows, computed now (no cache)."""
    top = standings(board)
    users = _players().in_bulk({s.player_id for s in top})
    return _rows(board.metric, top, users)
