"""Rank score at settlement (RULES.md 4.6 Interpretation): lifetime net points in classic
rooms, escape penalties included, floored at 0, once per hand; the level follows."""

import pytest

from accounts import ranks
from accounts.models import RankLevel, User
from mahjong.tables import services
from tests.web.tables_support import play_out, private_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]


def scores(*users):
    return [User.objects.values_list("rank_score", flat=True).get(pk=u.pk) for u in users]


def test_an_escape_in_a_room_costs_the_escaper_the_penalty_and_pays_the_opponent(duel, alice, bob):
    User.objects.filter(pk=alice.pk).update(rank_score=100)
    services.leave(duel, alice)
    penalty = 13 * duel.base_points  # classic: 13 points (RULES.md 4)
    assert duel.current_hand().result["deltas"] == [-penalty, penalty]
    assert scores(alice, bob) == [100 - penalty, penalty]


def test_a_played_hand_adds_each_players_net_points_floored_at_zero(duel, alice, bob):
    User.objects.filter(pk=bob.pk).update(rank_score=5)
    hand = play_out(duel)
    deltas = hand.result["deltas"]
    assert hand.ranked
    assert scores(alice, bob) == [max(0, deltas[0]), max(0, 5 + deltas[1])]


def test_the_rank_score_is_written_once_per_hand(duel, alice, bob):
    services.leave(duel, alice)
    hand = duel.current_hand()
    before = scores(alice, bob)
    locked = services.Locked(duel, hand, list(duel.seats.select_related("user")), hand.game())
    services.settlement._record_rank(locked, hand.result["deltas"])  # a second settlement attempt
    assert scores(alice, bob) == before


def test_play_vs_a_bot_and_unranked_matches_leave_the_rank_alone(bot_table, alice, bob):
    services.leave(bot_table, alice)
    table = private_table(alice, bob)
    services.leave(table, bob)
    assert table.current_hand().result["kind"] == "escape"
    assert scores(alice, bob) == [0, 0]
    assert not services.counts_for_rank(table)


def test_the_level_follows_the_score_down_as_well_as_up(duel, alice, bob, client_of):
    levels = list(RankLevel.objects.order_by("threshold"))
    assert len(levels) > 2
    User.objects.filter(pk=alice.pk).update(rank_score=levels[1].threshold)
    assert ranks.progress(scores(alice)[0]).level == levels[1]
    services.leave(duel, alice)  # -13 points: below level 2's threshold of 40
    assert ranks.progress(scores(alice)[0]).level == levels[0]
    page = client_of(alice).get("/accounts/profile/", follow=True).content.decode()
    assert levels[0].name in page and f"{levels[1].threshold - 13}" in page


def test_a_room_on_other_rules_is_rated_but_leaves_the_rank_score(alice, bob):
    """Ratings and the leaderboards' results cover every room's games (a 国标 board an
    operator defines fills); the rank score counts classic rooms only (RULES.md 4.6)."""
    from catalogue.models import RoomTier, Ruleset
    from mahjong.ratings.models import HandResult, Rating

    tier = RoomTier.objects.get(slug="novice")
    gb = Ruleset.objects.get(slug="gb")
    table = services.open_table(gb, [alice, bob], tier=tier, beans_per_point=1)
    services.leave(table, alice)
    hand = table.current_hand()
    assert hand.result["kind"] == "escape" and hand.result["deltas"][1] > 0
    assert hand.ranked and services.is_ranked(table) and not services.counts_for_rank(table)
    assert scores(alice, bob) == [0, 0]
    assert HandResult.objects.filter(hand=hand).count() == 2
    assert Rating.objects.filter(player__in=[alice, bob]).count() == 2
