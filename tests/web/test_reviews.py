"""The review of a finished hand (issue 35): computed once by a Celery task after the
hand's end commits, stored per (hand, seat) equal to the engine's own review, shown on the
hand's page and in its replay under the history's rule of who sees a hand, and the
profile's agreement trend."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lobby import replays
from mahjong.engine.review import hand_start, review_hand
from mahjong.reviews.models import Review
from mahjong.reviews.tasks import review_hand as review_task
from mahjong.tables import services
from mahjong.tables.models import Event
from tests.web.tables_support import play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]

SEED = "history-12"  # the history's won hand: alice wins on bob's discard


@pytest.fixture
def played(alice, bob, settings, django_capture_on_commit_callbacks):
    """A novice-room hand between alice (seat 0) and bob played out, its end committed
    (the on-commit callbacks run, so the eager Celery task reviews it)."""
    from catalogue.models import RoomTier

    tier = RoomTier.objects.get(slug="novice")
    settings.MAHJONG_TEST_SEED = SEED
    table = services.open_table(
        tier.ruleset, [alice, bob], tier=tier, beans_per_point=tier.beans_per_point
    )
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_out(table)
    return hand


def hand_url(hand, name="history:hand"):
    return reverse(name, args=[hand.table.public_id, hand.number])


# ----- storage and the task -------------------------------------------------------------


def test_a_played_out_hand_is_reviewed_once_per_seat_as_the_engine_reviews_it(played, alice, bob):
    rows = {r.seat: r for r in Review.objects.filter(hand=played)}
    assert set(rows) == {0, 1}
    assert rows[0].player == alice and rows[1].player == bob
    start = hand_start(played.state, played.seed)
    for seat, row in rows.items():
        engine = review_hand(start, replays.moves_of(played), seat)
        assert row.data == engine.to_dict()
        assert (row.choices, row.agreed, row.mistakes, row.tiles_given_up) == (
            engine.choices,
            engine.agreed,
            engine.mistakes,
            engine.tiles_given_up,
        )
        assert row.engine_review() == engine
        assert engine.decisions  # the hand had decisions to review


def test_the_task_is_idempotent(played):
    before = list(Review.objects.filter(hand=played).values_list("pk", "data"))
    assert review_task.delay(played.pk).get() == 0
    assert list(Review.objects.filter(hand=played).values_list("pk", "data")) == before


def test_a_hand_in_play_is_not_reviewed(duel):
    hand = duel.current_hand()
    assert review_task.delay(hand.pk).get() == 0
    assert not Review.objects.exists()


def test_a_record_that_does_not_replay_is_logged_and_skipped(played, caplog):
    Review.objects.filter(hand=played).delete()
    first = Event.objects.filter(hand=played, kind="action").order_by("seq").first()
    first.data = {**first.data, "action": "discard 9s"}
    first.save()
    assert review_task.delay(played.pk).get() == 0
    assert not Review.objects.filter(hand=played).exists()
    assert "does not replay" in caplog.text


def test_a_bots_seat_is_not_reviewed(bot_table, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_out(bot_table)
    assert list(Review.objects.filter(hand=hand).values_list("seat", "player")) == [(0, alice.pk)]
