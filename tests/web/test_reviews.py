"""The review of a finished hand (issue 35): computed once by a Celery task after the
hand's end commits, stored per (hand, seat) equal to the engine's own review, shown on the
hand's page and in its replay under the history's rule of who sees a hand, and the
profile's agreement trend."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mahjong.engine.game import revealed_start
from mahjong.engine.review import review_hand
from mahjong.reviews import services as reviews
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
    start = revealed_start(played.state, played.seed, played.commitment)
    for seat, row in rows.items():
        engine = review_hand(start, played.moves(), seat)
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


# ----- the hand's page and its replay -----------------------------------------------------


def stored(hand, seat):
    return Review.objects.get(hand=hand, seat=seat).engine_review()


def test_the_hand_page_shows_both_seats_reviews_to_anyone(
    played, client, client_of, alice, outsider
):
    """A finished hand is public (its page, its replay): so is the review of both seats."""
    mine = stored(played, 0)
    for viewer in (client, client_of(outsider), client_of(alice)):
        page = viewer.get(hand_url(played)).content.decode()
        assert 'data-review-seat="0"' in page and 'data-review-seat="1"' in page
        shown = [d for d in mine.decisions if not d.forced]
        for d in shown:
            assert f'<li data-step="{d.step}"' in page
        assert f"与电脑一致 {mine.agreed}/{mine.choices}" in page
    if mine.biggest_mistake is not None:
        link = f"{hand_url(played, 'history:replay')}?step={mine.biggest_mistake}"
        assert f'data-testid="review-biggest" href="{link}"' in page


def test_the_replay_shows_each_decision_at_its_step_with_the_engines_numbers(played, client):
    mine = stored(played, 0)
    d = next(d for d in mine.decisions if not d.forced and len(d.options) > 2)
    page = client.get(hand_url(played, "history:replay"), {"step": d.step}).content.decode()
    assert f'data-review-step="{d.step}"' in page
    panel = page[page.index(f'data-review-step="{d.step}"') :]
    for option in d.options:
        assert f'data-option="{option.action}"' in panel
    chosen = panel[panel.index(f'data-option="{d.chosen}"') :]
    row = chosen[: chosen.index("</tr>")]
    assert 'class="chosen' in row and 'aria-current="true"' in row
    assert f'<td class="num">{_option(d, d.chosen).acceptance}</td>' in row
    assert ("review-lost" in panel.split("</p>")[0]) == d.lost
    # the step before shows the decision before it, not this one
    other = client.get(hand_url(played, "history:replay"), {"step": 0}).content.decode()
    assert other.count("data-review-step=") <= 1 and f'data-review-step="{d.step}"' not in other


def _option(decision, action):
    return next(o for o in decision.options if o.action == action)


def test_a_review_is_never_shown_for_a_hand_in_play(duel, alice, client_of):
    """Even a review row of a hand in play (none is ever written) is shown to nobody."""
    from lobby import hand_reviews

    hand = duel.current_hand()
    Review.objects.create(
        hand=hand,
        seat=0,
        player=alice,
        choices=3,
        agreed=1,
        mistakes=1,
        tiles_given_up=4,
        data={},
    )
    assert hand_reviews.seats_shown(hand) == ()
    assert hand_reviews.of_hand(hand, ["a", "b"]) == []
    for name in ("history:hand", "history:replay"):
        assert client_of(alice).get(hand_url(hand, name)).status_code == 404


def test_whose_reviews_are_shown_is_whose_hand_is_public(played, duel):
    from lobby import hand_reviews

    assert hand_reviews.seats_shown(played) == (0, 1)
    assert hand_reviews.seats_shown(duel.current_hand()) == ()


def test_the_review_speaks_chinese_by_default_and_english_on_request(played, client, alice):
    from tests.web.test_i18n import english_words

    allowed = {"Online", "Alice", "Bob", "English"}
    page = client.get(hand_url(played)).content.decode()
    card = page[page.index('<div class="card review"') : page.index('<div class="card">')]
    assert english_words(card, allowed) == []
    d = next(d for d in stored(played, 0).decisions if not d.forced)
    replay = client.get(hand_url(played, "history:replay"), {"step": d.step}).content.decode()
    line = replay[replay.index('<div class="review replay-review"') : replay.index("<nav")]
    panel = replay[replay.index('<div class="review-decision"') :]
    panel = panel[: panel.index("</table>")]
    assert english_words(line, allowed) == [] and english_words(panel, allowed) == []
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = client.get(hand_url(played)).content.decode()
    assert "agreed with the bot in" in english and "Review (复盘)" in english


# ----- the profile's trend --------------------------------------------------------------


def _ended_hands(alice, bob, count):
    """``count`` hands of alice against bob ended at once (bob leaves: an escape)."""
    from catalogue.models import Ruleset

    hands = []
    for _ in range(count):
        table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
        services.leave(table, bob)
        hands.append(table.hands.get())
    return hands


def _review(hand, player, agreed, choices, seat=0):
    return Review.objects.create(
        hand=hand,
        seat=seat,
        player=player,
        choices=choices,
        agreed=agreed,
        mistakes=0,
        tiles_given_up=0,
        data={},
    )


def test_the_profile_shows_the_agreement_over_the_last_reviewed_hands(
    alice, bob, client, monkeypatch
):
    monkeypatch.setattr(reviews, "TREND", 3)
    oldest, *rest = _ended_hands(alice, bob, 4)
    _review(oldest, alice, 0, 10)  # beyond the last three: not counted
    for hand, agreed in zip(rest, (1, 3, 4), strict=True):
        _review(hand, alice, agreed, 4)
    _review(rest[0], bob, 0, 9, seat=1)  # the opponent's review of the same hand
    trend = reviews.trend(alice)
    assert trend.rates == [25, 75, 100] and (trend.agreed, trend.choices) == (8, 12)
    assert trend.overall == 67 and trend.line == "0.0,75 150.0,25 300.0,0"
    page = client.get(alice.get_absolute_url()).content.decode()
    assert 'data-testid="review-overall">67%' in page
    assert "最近 3 局复盘：8/12 个决策与高手电脑一致" in page
    assert 'points="0.0,75 150.0,25 300.0,0"' in page


def test_a_hand_in_play_is_not_in_the_trend(alice, duel, client):
    _review(duel.current_hand(), alice, 5, 5)  # never written for a hand in play: not counted
    assert reviews.trend(alice) is None
    page = client.get(alice.get_absolute_url()).content.decode()
    assert 'data-testid="review-trend"' not in page


def test_the_task_feeds_the_profile(played, alice, client):
    mine = stored(played, 0)
    assert reviews.trend(alice).rates == [round(100 * mine.agreed / mine.choices)]
    page = client.get(alice.get_absolute_url()).content.decode()
    assert 'data-testid="review-trend"' in page and "review-spark" not in page  # one hand: no line


def test_the_command_reviews_the_hands_ended_without_a_review(played, bot_table, capsys):
    """Hands that ended before the reviews existed (or whose task was lost) are reviewed
    by `manage.py review_hands`; a second run has nothing left to do."""
    from django.core.management import call_command

    other = play_out(bot_table)  # its end's task never ran: no on-commit callbacks here
    Review.objects.filter(hand=played, seat=1).delete()
    assert not Review.objects.filter(hand=other).exists()
    assert reviews.unreviewed(10) == [other.pk, played.pk]
    call_command("review_hands")
    assert "2 hands looked at, 2 reviews stored." in capsys.readouterr().out
    assert set(Review.objects.filter(hand=other).values_list("seat", flat=True)) == {0}
    assert Review.objects.filter(hand=played).count() == 2
    assert reviews.unreviewed(10) == []
    call_command("review_hands")
    assert "0 hands looked at, 0 reviews stored." in capsys.readouterr().out


@pytest.mark.parametrize("slug", ["stage", "wenzhou", "gb"])
def test_hands_of_other_rulesets_are_reviewed_and_shown(
    slug, alice, client, settings, django_capture_on_commit_callbacks
):
    """A stage hand (its offers listed without numbers), the 财神 of wenzhou, gb's fans:
    each is reviewed as the engine reviews it, and its pages show every reviewed step."""
    from accounts.models import User
    from catalogue.models import Ruleset

    settings.MAHJONG_TEST_SEED = f"review-{slug}"
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    extra = {"stage": 1} if slug == "stage" else {}
    table = services.open_table(
        Ruleset.objects.filter(engine_slug=slug).first(), [alice, bot], bot_level="strong", **extra
    )
    with django_capture_on_commit_callbacks(execute=True):
        hand = play_out(table)
    mine = stored(hand, 0)
    start = revealed_start(hand.state, hand.seed, hand.commitment)
    assert mine == review_hand(start, hand.moves(), 0)
    page = client.get(hand_url(hand)).content.decode()
    assert page.count("<li data-step=") == sum(1 for d in mine.decisions if not d.forced)
    for d in mine.decisions[:3]:
        replay = client.get(hand_url(hand, "history:replay"), {"step": d.step})
        assert replay.status_code == 200
        assert (f'data-review-step="{d.step}"' in replay.content.decode()) != d.forced
