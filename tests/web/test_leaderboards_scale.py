"""A leaderboard page over 10,000 players and 200,000 ranked hands (400,000 hand results)
renders in a bounded number of queries for every metric, period and filter: one query
per board, however many players and hands there are.

The crowd is made in the test's transaction (rolled back after it), with primary keys
chosen here so that no insert has to read ids back.
"""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from catalogue.models import Leaderboard, RoomTier, Ruleset
from lobby import leaderboards
from mahjong.ratings.models import HandResult, Rating
from mahjong.stages.models import StageProgress
from mahjong.tables.models import Hand, Table

pytestmark = pytest.mark.django_db

PLAYERS = 10_000
HANDS = 200_000
TABLES = 2_000
BATCH = 5_000
ID_BASE = 1_000_000  # above anything the built-in data or other fixtures create
# about 40 hands per player over 60 days: a minimum each period's win-rate board can fill
WIN_RATE_MINIMUM = {"all": 20, "month": 10, "week": 2, "day": 1}


def _bulk(model, objects):
    model.objects.bulk_create(objects, batch_size=BATCH)


@pytest.fixture
def crowd(builtin):
    make_crowd()


def make_crowd():
    """Players, their ratings and tables by bulk_create; the 200,000 hands and their
    400,000 results by INSERT ... SELECT in the database (plain SQL that SQLite and
    PostgreSQL both run): seconds, where building 600,000 model objects took minutes."""
    rng = random.Random(20261130)
    now = timezone.now()
    tiers = list(RoomTier.objects.all())
    variant = Ruleset.objects.create(slug="classic-fast", engine_slug="classic", name="快速")
    players = range(ID_BASE, ID_BASE + PLAYERS)
    _bulk(
        User,
        (
            User(
                pk=pk,
                username=f"crowd{pk}",
                password="!",
                public_id=f"c{pk}",
                beans=rng.randrange(0, 2_000_000),
                rank_score=rng.randrange(0, 5_000),
            )
            for pk in players
        ),
    )
    _bulk(
        Rating,
        (
            Rating(
                player_id=pk,
                rating=rng.gauss(1500, 200),
                deviation=rng.uniform(45, 350),
                games=rng.randrange(0, 80),
                rated_at=now - datetime.timedelta(days=rng.randrange(0, 30)),
            )
            for pk in players
        ),
    )
    _bulk(
        StageProgress,
        (
            StageProgress(
                user_id=pk,
                best_stage=stage,
                best_hands=rng.randrange(stage * 3, stage * 12) if stage else None,
                best_at=now if stage else None,
            )
            for pk in players
            for stage in [rng.randrange(0, 13)]
        ),
    )
    # Every fifth table plays the variant ruleset; a table's hands end when it was opened,
    # spread over the last 60 days (so each period holds a different share).
    _bulk(
        Table,
        (
            Table(
                pk=ID_BASE + i,
                public_id=f"t{i}",
                ruleset=variant if i % 5 == 0 else tiers[i % len(tiers)].ruleset,
                tier=tiers[i % len(tiers)],
                created_at=_opened(i, rng, now),
            )
            for i in range(TABLES)
        ),
    )
    with connection.cursor() as cursor:
        _insert_hands(cursor)
        for side in (0, 1):
            cursor.execute(_RESULTS_SQL.format(**_result_sql(side)))


def _opened(i: int, rng: random.Random, now: datetime.datetime) -> datetime.datetime:
    """When table i was opened: any time in the last 60 days, but every seventh today (7: of
    every room and ruleset). The players' day starts at midnight in Shanghai (16:00 UTC),
    and in the minutes after it a uniform spread had no table yet today: the day's boards
    were empty."""
    if i % 7 == 0:
        today = leaderboards.period_start("day", now)
        return today + (now - today) * rng.random()
    return now - datetime.timedelta(minutes=rng.randrange(0, 60 * 24 * 60))


def _insert_hands(cursor):
    """Hand k is number k // TABLES + 1 of table k % TABLES; a column not named here
    gets the model's default (a field added later needs no change here)."""
    own = {
        "id": f"{ID_BASE} + i",
        "table_id": f"{ID_BASE} + i %% {TABLES}",  # %% is % once the parameters are in
        "number": f"i / {TABLES} + 1",
        "commitment": "'-'",
        "created_at": "t.created_at",
        "ended_at": "t.created_at",
    }
    columns, values, params = [], [], []
    for field in Hand._meta.concrete_fields:
        if field.column in own:
            value = own[field.column]
        elif field.column == "state":
            value, params = "%s", [*params, field.get_db_prep_save({}, connection)]
        elif field.null and not field.has_default():
            continue  # left NULL
        else:  # the model's default ("" for text without one)
            default = field.get_db_prep_save(field.get_default(), connection)
            value, params = "%s", [*params, default]
        columns.append(field.column)
        values.append(value)
    cursor.execute(
        "WITH RECURSIVE seq(i) AS "
        f"(SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < {HANDS - 1}) "
        f"INSERT INTO {Hand._meta.db_table} ({', '.join(columns)}) "
        f"SELECT {', '.join(values)} FROM seq "
        f"JOIN {Table._meta.db_table} t ON t.id = {ID_BASE} + i %% {TABLES}",
        params,
    )


# Two results per hand, one per side. k is the hand's index and mix a multiplicative hash
# of k (Knuth's) for the outcome: 45% side 0 wins, 45% side 1, 10% an exhaustive draw;
# fan 1-88, mostly small hands; the winner gets fan x the room's beans per point.
_RESULTS_SQL = """
INSERT INTO ratings_handresult (player_id, hand_id, tier_id, ruleset_id, won, fan, beans, at)
SELECT {player}, h.id, t.tier_id, t.ruleset_id, {won}, CASE WHEN {won} THEN {fan} ELSE 0 END,
       CASE WHEN {draw} THEN 0 WHEN {won} THEN {fan} * r.beans_per_point
            ELSE -{fan} * r.beans_per_point END,
       h.ended_at
FROM tables_hand h
JOIN tables_table t ON t.id = h.table_id
JOIN lobby_roomtier r ON r.id = t.tier_id
WHERE h.id >= {base}
"""


def _result_sql(side: int) -> dict:
    k = f"CAST(h.id - {ID_BASE} AS BIGINT)"  # PostgreSQL: no integer overflow below
    mix = f"(({k} * 2654435761) % 4294967296)"
    first = f"(({k} * 7919) % {PLAYERS})"
    # the opponent: another player, 1 to PLAYERS - 1 places further round the crowd
    second = f"(({first} + 1 + ({k} * 104729) % {PLAYERS - 1}) % {PLAYERS})"
    outcome = f"({mix} % 20)"
    spread = f"(({mix} / 20) % 1000)"
    return {
        "player": f"{ID_BASE} + {second if side else first}",
        "won": f"({outcome} >= 9 AND {outcome} < 18)" if side else f"({outcome} < 9)",
        "draw": f"({outcome} >= 18)",
        "fan": f"(1 + {spread} * {spread} / 11364)",
        "base": ID_BASE,
    }


def _every_kind_of_board():
    """Every metric, every period and both filters, on one page."""
    novice = RoomTier.objects.get(slug="novice")
    variant = Ruleset.objects.get(slug="classic-fast")
    Leaderboard.objects.all().delete()
    for metric in Leaderboard.Metric.values:
        periods = ["all"] if metric in Leaderboard.TOTALS else ["all", "day", "week", "month"]
        for period in periods:
            Leaderboard.objects.create(
                name=f"{metric}-{period}",
                metric=metric,
                period=period,
                min_games=WIN_RATE_MINIMUM[period] if metric == "win_rate" else 0,
            )
        if metric not in Leaderboard.TOTALS:
            min_games = 5 if metric == "win_rate" else 0
            for field, value in (("tier", novice), ("ruleset", variant)):
                Leaderboard.objects.create(
                    name=f"{metric}-{field}", metric=metric, min_games=min_games, **{field: value}
                )
    return list(Leaderboard.objects.all())


def test_a_page_over_10k_players_and_200k_hands_costs_one_query_per_board(
    crowd, client, private_cache, django_assert_max_num_queries
):
    """One test for the crowd: building it is the expensive part."""
    assert HandResult.objects.count() == 2 * HANDS
    boards = _every_kind_of_board()
    for definition in boards:
        definition.full_clean()
    # The boards, the rank levels, one query per board, the players of all boards at once.
    budget = len(boards) + 3
    with CaptureQueriesContext(connection) as page:
        with django_assert_max_num_queries(budget):
            response = client.get(reverse("lobby:leaderboards"))
    assert response.status_code == 200
    shown = response.context["boards"]
    assert [b.board.pk for b in shown] == [b.pk for b in boards]
    assert all(len(b.rows) == b.board.size for b in shown), [
        (b.board.name, len(b.rows)) for b in shown if len(b.rows) != b.board.size
    ]
    rows = sum(len(b.rows) for b in shown)
    print(f"\n{len(boards)} boards, {rows} rows, {len(page.captured_queries)} queries")
    with django_assert_max_num_queries(3):  # cached: no board is computed again
        client.get(reverse("lobby:leaderboards"))
    _agree_with_counting_in_python()


def _agree_with_counting_in_python():
    """The grouped queries give what counting the 400,000 rows one by one gives."""
    week = leaderboards.period_start("week")
    won_this_week, best_ever, net_ever, played, won_ever = {}, {}, {}, {}, {}
    results = HandResult.objects.values_list("player_id", "won", "fan", "beans", "at")
    for player, won, fan, beans, at in results.iterator(chunk_size=20_000):
        net_ever[player] = net_ever.get(player, 0) + beans
        played[player] = played.get(player, 0) + 1
        if won:
            won_ever[player] = won_ever.get(player, 0) + 1
            best_ever[player] = max(best_ever.get(player, 0), fan)
            if at >= week:
                won_this_week[player] = won_this_week.get(player, 0) + 1

    def top(values):
        ranked = sorted((-v, p) for p, v in values.items() if v > 0)[:10]
        return [(p, -v) for v, p in ranked]

    def rows(**kw):
        board = Leaderboard(name="x", size=10, **kw)
        return [(r.player.pk, r.value) for r in leaderboards.rows(board)]

    assert rows(metric="net_beans") == top(net_ever)
    assert rows(metric="best_fan") == top(best_ever)
    assert rows(metric="games_won", period="week") == top(won_this_week)
    rates = sorted(
        (-won_ever.get(p, 0) / n, -n, p) for p, n in played.items() if n >= 40 and won_ever.get(p)
    )[:10]
    by_rate = rows(metric="win_rate", min_games=40)
    assert [p for p, _rate in by_rate] == [p for _rate, _n, p in rates]
    assert [rate for _p, rate in by_rate] == pytest.approx([-rate for rate, _n, _p in rates])
