"""The stage leaderboard: highest stage cleared first, then fewest hands; best kept."""

import pytest

from mahjong.stages.leaderboard import stage_leaderboard
from mahjong.stages.models import StageProgress

pytestmark = pytest.mark.django_db


def _best(user, stage, hands):
    progress, _ = StageProgress.objects.get_or_create(user=user)
    progress.record_clear(stage, hands)
    progress.save()
    return progress


def test_order_is_highest_stage_then_fewest_hands(alice, bob, outsider):
    _best(alice, 2, 30)
    _best(bob, 3, 50)
    _best(outsider, 2, 12)
    rows = stage_leaderboard(10)
    assert [(u.username, s, h) for u, s, h in rows] == [
        ("bob", 3, 50),
        ("carol", 2, 12),
        ("alice", 2, 30),
    ]
    assert [u.username for u, _, _ in stage_leaderboard(2)] == ["bob", "carol"]


def test_players_without_a_clear_and_bots_are_left_out(alice, bob):
    StageProgress.objects.create(user=alice)
    from accounts.builtin import bot_for

    _best(bot_for("strong"), 4, 5)
    assert stage_leaderboard(10) == []


def test_best_result_is_kept(alice):
    progress = _best(alice, 3, 40)
    assert not progress.record_clear(2, 5)  # lower stage: not better
    assert not progress.record_clear(3, 41)  # same stage, more hands
    assert progress.record_clear(3, 39)
    progress.save()
    assert stage_leaderboard(5)[0][1:] == (3, 39)
