"""Glicko-2 ratings: the algorithm against Glickman's worked example, the update of both
players when a ranked hand settles through tables.services (and not otherwise), the
deviation's growth with idle days, and the profile's rating and chart."""

import datetime
import math
import re

import pytest
from django.utils import timezone

from mahjong.ratings import chart, glicko2
from mahjong.ratings import services as ratings
from mahjong.ratings.models import HandResult, Rating, RatingChange
from mahjong.tables import services
from tests.web.tables_support import play_out, private_table

pytestmark = pytest.mark.usefixtures("no_eager_timers")

# ----- the algorithm ----------------------------------------------------------------------


def test_glickmans_worked_example():
    """ "Example of the Glicko-2 system" (Glickman, 2012): 1500/200/0.06 against 1400/30,
    1550/100 and 1700/300 with results 1, 0, 0 and tau 0.5 gives 1464.06 / 151.52 /
    0.05999. The paper rounds each intermediate value to four places (mu' = -0.2069);
    unrounded arithmetic gives 1464.0507, inside the paper's last printed digit."""
    player = glicko2.Rating(1500, 200, 0.06)
    games = [
        (glicko2.Rating(1400, 30), 1),
        (glicko2.Rating(1550, 100), 0),
        (glicko2.Rating(1700, 300), 0),
    ]
    after = glicko2.rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001) and after.volatility < 0.06
    assert after.mu == pytest.approx(-0.2069, abs=0.0001)  # the paper's step 7/8 values
    assert after.phi == pytest.approx(0.8722, abs=0.0001)


def test_the_winner_gains_what_an_equal_loser_loses_and_a_draw_between_equals_moves_nothing():
    a = b = glicko2.Rating()
    won, lost = glicko2.rate(a, [(b, 1)]), glicko2.rate(b, [(a, 0)])
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    drawn = glicko2.rate(a, [(b, 0.5)])
    assert drawn.rating == pytest.approx(1500) and drawn.deviation < 350


def test_an_idle_period_grows_only_the_deviation_up_to_a_newcomers():
    known = glicko2.Rating(1700, 60, 0.06)
    week = glicko2.idle(known, 7)
    expected_phi = math.sqrt((60 / glicko2.SCALE) ** 2 + 7 * 0.06**2)
    assert week.rating == 1700 and week.volatility == 0.06
    assert week.deviation == pytest.approx(expected_phi * glicko2.SCALE)
    assert glicko2.rate(known, []) == glicko2.idle(known, 1)
    assert glicko2.idle(known, 100_000).deviation == pytest.approx(350)
    assert glicko2.idle(known, 0) == known


# ----- a ranked hand through tables.services --------------------------------------------


def _expected_after_one_hand(score):
    """Two newcomers, one hand: what each must be rated afterwards."""
    fresh = glicko2.Rating()
    return glicko2.rate(fresh, [(fresh, score)]), glicko2.rate(fresh, [(fresh, 1 - score)])


@pytest.mark.django_db
def test_a_ranked_hand_rates_both_players_and_records_their_results(duel, alice, bob):
    hand = play_out(duel)
    result = hand.result
    assert hand.ranked
    winner = result["winner"]
    score = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    mine, theirs = _expected_after_one_hand(score)
    rows = {r.player_id: r for r in Rating.objects.all()}
    assert rows[alice.pk].rating == pytest.approx(mine.rating)
    assert rows[bob.pk].rating == pytest.approx(theirs.rating)
    assert rows[alice.pk].deviation == pytest.approx(mine.deviation)
    assert mine.deviation < 350
    assert rows[alice.pk].games == rows[bob.pk].games == 1
    change = RatingChange.objects.get(player=alice)
    assert (change.opponent, change.hand, change.score) == (bob, hand, score)
    assert (change.rating_before, change.rating_after) == (1500, rows[alice.pk].rating)
    results = {r.player_id: r for r in HandResult.objects.filter(hand=hand)}
    assert [results[u.pk].beans for u in (alice, bob)] == result["beans"]
    assert [results[u.pk].won for u in (alice, bob)] == [winner == 0, winner == 1]
    assert max(r.fan for r in results.values()) == (result["total"] if winner is not None else 0)
    assert {r.tier_id for r in results.values()} == {duel.tier_id}


@pytest.mark.django_db
def test_an_escape_is_a_loss_and_the_next_hand_builds_on_the_last(duel, alice, bob):
    services.leave(duel, alice)
    alice_row = Rating.objects.get(player=alice)
    bob_row = Rating.objects.get(player=bob)
    assert alice_row.rating < 1500 < bob_row.rating
    mine, theirs = _expected_after_one_hand(0.0)
    assert alice_row.rating == pytest.approx(mine.rating)
    assert bob_row.rating == pytest.approx(theirs.rating)
    from catalogue.models import RoomTier

    tier = RoomTier.objects.get(slug="normal")
    again = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    services.leave(again, bob)
    change = RatingChange.objects.get(player=alice, hand=again.current_hand())
    assert change.rating_before == pytest.approx(alice_row.rating)
    assert change.rating_after > change.rating_before
    assert Rating.objects.get(player=alice).games == 2


@pytest.mark.django_db
def test_idle_days_widen_the_deviation_before_the_next_rated_hand(duel, alice, bob):
    services.leave(duel, alice)
    stored = Rating.objects.get(player=alice)
    ten_days_ago = timezone.now() - datetime.timedelta(days=10, hours=1)
    Rating.objects.filter(player=alice).update(rated_at=ten_days_ago)
    stored.refresh_from_db()
    grown = glicko2.idle(stored.glicko(), 10)
    assert ratings.current(stored).deviation == pytest.approx(grown.deviation)
    assert grown.deviation > stored.deviation
    from catalogue.models import RoomTier

    tier = RoomTier.objects.get(slug="novice")
    again = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    services.leave(again, bob)
    change = RatingChange.objects.get(player=alice, hand=again.current_hand())
    assert change.deviation_before == pytest.approx(grown.deviation)


@pytest.mark.django_db
def test_play_vs_a_bot_and_private_rooms_are_not_rated(bot_table, alice, bob):
    services.leave(bot_table, alice)
    services.leave(private_table(alice, bob), bob)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not HandResult.objects.exists()


@pytest.mark.django_db
def test_a_bot_filled_room_seat_counts_for_the_humans_results_but_rates_nobody(alice):
    """Quick match's bot fill (a ranked match against a bot account): the human's beans and
    wins are real and reach the leaderboards, but a bot is no rated opponent."""
    from accounts.models import User
    from catalogue.models import RoomTier
    from mahjong.tables.models import Match

    tier = RoomTier.objects.get(slug="novice")
    bot = User.objects.get(username="bot-efficient")
    match = Match.objects.create(
        kind=Match.Kind.QUICK,
        tier=tier,
        ruleset=tier.ruleset,
        ranked=True,
        player_one=alice,
        player_two=bot,
    )
    table = services.open_table(
        tier.ruleset, [alice, bot], tier=tier, match=match, beans_per_point=tier.beans_per_point
    )
    services.leave(table, alice)
    result = HandResult.objects.get()
    assert (result.player, result.won, result.beans) == (
        alice,
        False,
        table.current_hand().result["beans"][0],
    )
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


# ----- the profile ------------------------------------------------------------------------


def test_the_chart_spans_its_points_and_needs_two():
    points = [chart.Point(1500 + 10 * i, 300 - 20 * i, f"d{i}") for i in range(8)]
    drawn = chart.build(points)
    xy = [tuple(map(float, p.split(","))) for p in drawn.line.split()]
    wide = chart.WIDE
    assert len(xy) == 8 and xy[0][0] == wide.left and xy[-1][0] == wide.width - wide.right
    assert xy[-1][1] < xy[0][1]  # a rising rating is drawn upwards
    assert all(wide.top <= y <= wide.height - wide.bottom for _x, y in xy)
    assert len(drawn.band.split()) == 16
    assert drawn.x_labels[0][2] == "d0" and drawn.x_labels[-1][2] == "d7"
    ticks = [value for _y, value in drawn.y_ticks]
    assert ticks[0] <= 1500 - 600 and ticks[-1] >= 1570 + 2 * 160
    assert chart.build(points[:1]) is None


@pytest.mark.django_db
def test_the_profile_shows_rating_games_history_chart_and_rank(duel, alice, bob, client):
    services.leave(duel, alice)
    from catalogue.models import RoomTier

    tier = RoomTier.objects.get(slug="novice")
    for leaver in (bob, alice):
        table = services.open_table(
            tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
        )
        services.leave(table, leaver)
    row = Rating.objects.get(player=alice)
    html = client.get(alice.get_absolute_url()).content.decode()
    assert f"评分 {round(row.rating)} ± {round(2 * row.deviation)}" in html
    assert "已计分 3 局" in html and "评分走势" in html
    # the rank's score is another number under another name (等级分: the rank levels' 等级)
    assert html.count("等级分") == 1 and "等级分 0" in html
    # the computer's chart and the phone's (CSS shows one), each the start and one point
    # per rated hand
    for layout in ("wide", "narrow"):
        svg = re.search(
            rf'<svg class="rating-chart rating-chart--{layout}".*?</svg>', html, re.S
        ).group(0)
        line = re.search(r'<polyline points="([^"]+)"', svg).group(1)
        assert len(line.split()) == 4
    assert "rank-badge" in html  # the rank level alongside


@pytest.mark.django_db
def test_a_new_player_sees_the_starting_rating_and_a_bot_none(alice, client):
    from accounts.models import User

    html = client.get(alice.get_absolute_url()).content.decode()
    assert "1500 ± 700" in html and "rating-chart" not in html
    bot = User.objects.get(username="bot-efficient")
    assert "1500 ±" not in client.get(bot.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_operators_look_ratings_up_in_the_admin_and_cannot_edit_them(duel, alice, bob, client):
    from django.urls import reverse

    from accounts.models import User

    play_out(duel)
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw-boss-1234"))
    board = client.get(reverse("admin:ratings_rating_changelist"), {"q": alice.nickname})
    assert [r.player for r in board.context["cl"].result_list] == [alice]
    history = client.get(reverse("admin:ratings_ratingchange_changelist"))
    assert {c.player for c in history.context["cl"].result_list} == {alice, bob}
    # read-only: no add page, and the change page has no save button
    assert client.get(reverse("admin:ratings_rating_add")).status_code == 403
    page = client.get(reverse("admin:ratings_rating_change", args=[alice.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    before = Rating.objects.get(pk=alice.pk).rating
    client.post(reverse("admin:ratings_rating_change", args=[alice.pk]), {"rating": 9999})
    assert Rating.objects.get(pk=alice.pk).rating == before
