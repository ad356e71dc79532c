"""Leaderboards: every metric, period and filter over the hand results, the admin's
refusals, the page (cached, with when it was computed)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from catalogue.models import Leaderboard, RoomTier, Ruleset
from lobby import leaderboards
from mahjong.ratings.models import HandResult, Rating
from mahjong.tables.models import Hand, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def record(builtin):
    """record(player, won=, fan=, beans=, at=, tier=): one ranked hand's result of one
    player, on a hand of its own (what ratings.services writes at settlement)."""
    tables = {}

    def make(player, *, won=False, fan=0, beans=0, at=None, tier="novice", ruleset=None):
        tier = RoomTier.objects.get(slug=tier)
        ruleset = ruleset or tier.ruleset
        table = tables.get((tier.pk, ruleset.pk))
        if table is None:
            table = tables[tier.pk, ruleset.pk] = Table.objects.create(ruleset=ruleset, tier=tier)
        hand = Hand.objects.create(
            table=table, number=table.hands.count() + 1, state={}, commitment="-"
        )
        return HandResult.objects.create(
            player=player,
            hand=hand,
            tier=tier,
            ruleset=ruleset,
            won=won,
            fan=fan if won else 0,
            beans=beans,
            at=at or timezone.now(),
        )

    return make


def board(metric, **kw):
    return Leaderboard(name="x", metric=metric, **{"size": 10, **kw})


def standings(definition):
    return [(row.player, row.value) for row in leaderboards.rows(definition)]


# ----- metrics -------------------------------------------------------------------------


def test_beans_won_sums_each_players_hands_and_lists_only_winners(record, alice, bob, outsider):
    record(alice, beans=500)
    record(alice, beans=-200)
    record(bob, beans=-300)
    record(outsider, beans=900)
    assert standings(board("net_beans")) == [(outsider, 900), (alice, 300)]


def test_games_won_counts_wins_only(record, alice, bob):
    for won in (True, True, False):
        record(alice, won=won, fan=8)
    record(bob, won=True, fan=8)
    record(bob, won=False)
    assert standings(board("games_won")) == [(alice, 2), (bob, 1)]


def test_players_with_the_same_figure_share_a_position(record, alice, bob, outsider):
    """Competition ranking: two players on 2 wins are both 1st and the next one is 3rd,
    rather than the later-registered one ranking 2nd for the same figure."""
    for player, wins in ((alice, 2), (bob, 2), (outsider, 1)):
        for _ in range(wins):
            record(player, won=True, fan=8)
    rows = leaderboards.rows(board("games_won"))
    assert [(r.position, r.value) for r in rows] == [(1, 2), (1, 2), (3, 1)]
    User.objects.filter(pk__in=[alice.pk, bob.pk, outsider.pk]).update(beans=20_000)
    assert [r.position for r in leaderboards.rows(board("beans"))] == [1, 1, 1]
    # the win rate's tie-break (more games) still separates equal rates
    record(alice, won=False)  # 2 of 3
    for won in (True, True, False, False):  # bob: 4 of 6, the same rate of more games
        record(bob, won=won, fan=8)
    rows = leaderboards.rows(board("win_rate", min_games=1))
    assert [(r.player, r.position) for r in rows] == [(outsider, 1), (bob, 2), (alice, 3)]


def test_biggest_hand_is_each_players_largest_winning_fan(record, alice, bob, outsider):
    record(alice, won=True, fan=12)
    record(alice, won=True, fan=64)
    record(bob, won=True, fan=24)
    record(outsider, won=False)
    rows = leaderboards.rows(board("best_fan"))
    assert [(r.player, r.value) for r in rows] == [(alice, 64), (bob, 24)]
    assert rows[0].shown == "64 番"


def test_win_rate_needs_the_minimum_of_games_and_prefers_more_games_on_a_tie(
    record, alice, bob, outsider
):
    for won in (True, True, True, False):  # 75% of 4
        record(alice, won=won, fan=8)
    for won in (True, False):  # 50% of 2
        record(bob, won=won, fan=8)
    record(outsider, won=True, fan=8)  # 100% of 1: below the minimum
    rows = leaderboards.rows(board("win_rate", min_games=2))
    assert [(r.player, r.value) for r in rows] == [(alice, 0.75), (bob, 0.5)]
    assert (rows[0].shown, rows[0].detail) == ("75.0%", "4 局")
    assert standings(board("win_rate", min_games=1))[0] == (outsider, 1.0)
    for won in (True, True, False, False):  # bob: 3 of 6 = 50% of more games than before
        record(bob, won=won, fan=8)
    record(alice, won=False)  # alice: 3 of 5 = 60%
    assert standings(board("win_rate", min_games=5)) == [(alice, 0.6), (bob, 0.5)]


def test_rating_ranks_rated_players_by_rating_with_todays_margin(alice, bob, outsider):
    long_ago = timezone.now() - datetime.timedelta(days=30, hours=1)
    Rating.objects.create(player=alice, rating=1620.4, deviation=80, games=12)
    Rating.objects.create(player=bob, rating=1700, deviation=60, games=3, rated_at=long_ago)
    Rating.objects.create(player=outsider, rating=1800, deviation=50, games=0)
    rows = leaderboards.rows(board("rating"))
    assert [(r.player, r.value) for r in rows] == [(bob, 1700), (alice, 1620)]
    assert rows[1].detail == "± 160"
    grown = Rating.objects.get(player=bob)
    assert rows[0].detail != "± 120" and rows[0].detail == f"± {round(2 * _today(grown))}"
    assert standings(board("rating", min_games=10)) == [(alice, 1620)]


def _today(row):
    from mahjong.ratings import services

    return services.current(row).deviation


def test_beans_and_rank_score_are_the_players_current_values(alice, bob, outsider):
    User.objects.filter(pk=bob.pk).update(beans=90_000, rank_score=40)
    User.objects.filter(pk=alice.pk).update(rank_score=55)
    User.objects.filter(pk=outsider.pk).update(is_active=False, beans=10**9)  # banned
    assert standings(board("beans"))[:2] == [(bob, 90_000), (alice, 20_000)]
    assert standings(board("rank_score")) == [(alice, 55), (bob, 40)]


def _stage_clear(player, stage, hands):
    from mahjong.stages.models import StageProgress

    progress, _ = StageProgress.objects.get_or_create(user=player)
    progress.record_clear(stage, hands)
    progress.save()


def test_the_stage_board_is_stage_modes_own_ranking(alice, bob, outsider):
    _stage_clear(alice, 3, 40)
    _stage_clear(bob, 5, 90)
    _stage_clear(outsider, 3, 25)
    rows = leaderboards.rows(board("stage"))
    assert [(r.player, r.value) for r in rows] == [(bob, 5), (outsider, 3), (alice, 3)]
    assert (rows[0].shown, rows[0].detail) == ("第 5 关", "用 90 局")
    assert len(leaderboards.rows(board("stage", size=2))) == 2


def test_a_banned_player_leaves_the_result_boards(record, alice, bob):
    record(alice, beans=500, won=True, fan=9)
    record(bob, beans=400, won=True, fan=8)
    User.objects.filter(pk=alice.pk).update(is_active=False)
    for metric in ("net_beans", "games_won", "best_fan"):
        assert [p for p, _v in standings(board(metric))] == [bob], metric


# ----- periods and filters ------------------------------------------------------------


@pytest.mark.parametrize("period", ["day", "week", "month"])
def test_a_period_counts_the_hands_since_its_start(record, alice, bob, period):
    start = leaderboards.period_start(period)
    record(alice, beans=100, won=True, fan=6, at=start + datetime.timedelta(minutes=1))
    record(alice, beans=1_000, won=True, fan=88, at=start - datetime.timedelta(minutes=1))
    record(bob, beans=50, won=True, fan=5, at=start)
    assert standings(board("net_beans", period=period)) == [(alice, 100), (bob, 50)]
    assert standings(board("best_fan", period=period)) == [(alice, 6), (bob, 5)]
    assert standings(board("games_won", period=period)) == [(alice, 1), (bob, 1)]
    assert standings(board("net_beans")) == [(alice, 1_100), (bob, 50)]


def test_periods_start_at_local_midnight_monday_and_the_first():
    now = timezone.make_aware(datetime.datetime(2026, 11, 26, 15, 30))  # a Thursday
    starts = {p: leaderboards.period_start(p, now) for p in ("day", "week", "month", "all")}
    local = {p: timezone.localtime(s).replace(tzinfo=None) for p, s in starts.items() if s}
    assert local == {
        "day": datetime.datetime(2026, 11, 26),
        "week": datetime.datetime(2026, 11, 23),
        "month": datetime.datetime(2026, 11, 1),
    }
    assert starts["all"] is None


@pytest.mark.parametrize("metric", ["net_beans", "games_won", "best_fan", "win_rate"])
def test_tier_and_ruleset_filters_apply_to_every_result_metric(record, alice, bob, metric):
    variant = Ruleset.objects.create(slug="classic-fast", engine_slug="classic", name="快速")
    record(alice, beans=300, won=True, fan=10, tier="novice")
    record(bob, beans=700, won=True, fan=30, tier="normal")
    record(bob, beans=200, won=True, fan=20, tier="normal", ruleset=variant)
    min_games = {"min_games": 1} if metric == "win_rate" else {}
    novice = RoomTier.objects.get(slug="novice")
    assert [p for p, _v in standings(board(metric, tier=novice, **min_games))] == [alice]
    by_variant = standings(board(metric, ruleset=variant, **min_games))
    expected = {"net_beans": 200, "games_won": 1, "best_fan": 20, "win_rate": 1.0}
    assert by_variant == [(bob, expected[metric])]
    assert {p for p, _v in standings(board(metric, **min_games))} == {alice, bob}


# ----- the admin ----------------------------------------------------------------------


@pytest.fixture
def staff(admin_user, client):
    client.force_login(admin_user)
    client.cookies.load({"django_language": "en"})  # assert on English admin messages
    return admin_user


def _add(client, **fields):
    data = {
        "name": "榜",
        "period": "all",
        "size": 10,
        "min_games": 0,
        "visible": "on",
        "ordering": 0,
        **fields,
    }
    response = client.post(reverse("admin:catalogue_leaderboard_add"), data)
    if response.status_code == 302:
        return None
    return response.context["adminform"].form.errors


@pytest.mark.parametrize(
    "fields, field, message",
    [
        ({"metric": "rating", "period": "week"}, "period", "running total"),
        ({"metric": "rating", "tier": "novice"}, "tier", "one value per player"),
        ({"metric": "beans", "ruleset": "classic"}, "tier", "one value per player"),
        ({"metric": "net_beans", "tier": "novice", "ruleset": "classic"}, "ruleset", "not both"),
        ({"metric": "best_fan", "ruleset": "stage"}, "ruleset", "against the computer"),
        ({"metric": "win_rate"}, "min_games", "at least 1"),
        ({"metric": "net_beans", "min_games": 5}, "min_games", "only to win rate and rating"),
        ({"metric": "stage", "period": "month"}, "period", "running total"),
        ({"metric": "stage", "tier": "novice"}, "tier", "one value per player"),
    ],
)
def test_the_admin_refuses_a_board_that_makes_no_sense(
    builtin, staff, client, fields, field, message
):
    for key, model in (("tier", RoomTier), ("ruleset", Ruleset)):
        if key in fields:
            fields[key] = model.objects.get(slug=fields[key]).pk
    before = Leaderboard.objects.count()
    errors = _add(client, **fields)
    assert errors is not None and message in " ".join(errors[field]), errors
    assert Leaderboard.objects.count() == before


def test_the_admin_saves_sensible_boards(builtin, staff, client):
    novice = RoomTier.objects.get(slug="novice").pk
    assert _add(client, metric="win_rate", min_games=20, period="month", tier=novice) is None
    assert _add(client, metric="rating", min_games=10) is None
    classic = Ruleset.objects.get(slug="classic").pk
    assert _add(client, metric="best_fan", period="week", ruleset=classic) is None
    assert Leaderboard.objects.filter(metric="win_rate", min_games=20, tier=novice).exists()


def test_the_built_in_boards_are_valid_and_include_rating_and_biggest_hand(builtin):
    for definition in Leaderboard.objects.all():
        definition.full_clean()
    assert {"rating", "best_fan"} <= set(Leaderboard.objects.values_list("metric", flat=True))


# ----- the page -----------------------------------------------------------------------


def _every_metric_board():
    novice = RoomTier.objects.get(slug="novice")
    Leaderboard.objects.create(name="胜率", metric="win_rate", min_games=1, period="week")
    Leaderboard.objects.create(name="新手大牌", metric="best_fan", tier=novice)
    Leaderboard.objects.create(name="今日", metric="net_beans", period="day")
    Leaderboard.objects.create(name="关卡", metric="stage")


def test_the_page_shows_every_metric_and_when_it_was_computed(record, alice, bob, client):
    _every_metric_board()
    record(alice, beans=800, won=True, fan=16)
    record(bob, beans=-800)
    Rating.objects.create(player=alice, rating=1580, deviation=90, games=1)
    _stage_clear(bob, 4, 33)
    html = client.get(reverse("lobby:leaderboards")).content.decode()
    for text in ("1,580", "± 180", "16 番", "100.0%", "1 局", "800", "第 4 关", "统计于"):
        assert text in html, text
    boards = client.get(reverse("lobby:leaderboards")).context["boards"]
    assert {entry.board.metric for entry in boards} == set(Leaderboard.Metric.values)


def test_the_page_is_cached_briefly_and_an_edit_shows_at_once(
    record, alice, client, private_cache, django_assert_max_num_queries
):
    record(alice, beans=800, won=True, fan=16)
    first = client.get(reverse("lobby:leaderboards")).context["boards"]
    record(alice, beans=100, won=True, fan=99)
    with django_assert_max_num_queries(3):  # the boards, the levels, the players
        again = client.get(reverse("lobby:leaderboards")).context["boards"]
    assert [b.computed_at for b in again] == [b.computed_at for b in first]
    assert {b.board.metric: b.rows[0].value for b in again if b.rows}["net_beans"] == 800
    Leaderboard.objects.filter(metric="net_beans").update(period="month")
    edited = client.get(reverse("lobby:leaderboards")).context["boards"]
    assert {b.board.metric: b.rows[0].value for b in edited if b.rows}["net_beans"] == 900
