"""A hand's timer (tables.services.recording.arm and timer_fired): one Celery task pending per hand,
at or before the deadline, that re-arms itself when it finds the hand moved on; a move
inside its time adds no task of its own, and a sooner deadline (a bot's turn) a task of
its own that leaves the hand's timer pending."""

import datetime

import pytest
from celery.signals import before_task_publish
from django.utils import timezone

from catalogue.models import Ruleset
from mahjong.engine.game import default_action, legal_actions
from mahjong.engine.offers import HU
from mahjong.tables import services
from mahjong.tables.models import Event, Hand
from tests.web.tables_support import wait_until

pytestmark = pytest.mark.usefixtures("no_eager_timers")

SECONDS = datetime.timedelta(seconds=1)


def move(table, users, hand=None):
    """The player to move makes the engine's default move, a win aside (the tests go on
    playing the hand, and a dealt or drawn win would end it); the hand after it."""
    hand = hand or table.current_hand()
    state = hand.game()
    action = default_action(state, state.turn)
    if action == HU:
        action = next(a for a in legal_actions(state, state.turn) if a != HU)
    services.act(table, users[state.turn], str(action), hand.version)
    return table.current_hand()


@pytest.fixture
def armed(django_capture_on_commit_callbacks):
    """The timer tasks the moves send, as (hand, version, eta), caught where they leave for
    the broker; ``with armed() as sent:`` around a move runs its commit hooks."""
    from contextlib import contextmanager

    from mahjong.celery import app
    from mahjong.tables import tasks

    tasks_sent = []

    def send(args, countdown=0, eta=None):
        tasks_sent.append((*args, eta))

    @contextmanager
    def sent():
        tasks_sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            yield tasks_sent

    eager, publish = app.conf.task_always_eager, tasks.advance.apply_async
    app.conf.task_always_eager, tasks.advance.apply_async = False, send
    yield sent
    app.conf.task_always_eager, tasks.advance.apply_async = eager, publish


def without_pause(table):
    """The table's hand as hands stored before claim pauses play on (issue 30): a claim
    window only for an option. These tests follow the turns' timers; the pause's own are
    in test_claim_window.py. Returns the hand."""
    hand = table.current_hand()
    state = dict(hand.state)
    state.pop("claim_pause", None)
    Hand.objects.filter(pk=hand.pk).update(state=state)
    hand.refresh_from_db()
    return hand


def to_the_deadline(hand) -> None:
    """As if the clock had reached the pending decision's deadline: it, and any timer due
    by then, are past."""
    past = timezone.now() - SECONDS
    Hand.objects.filter(pk=hand.pk, timer_at__lte=hand.deadline).update(timer_at=past)
    Hand.objects.filter(pk=hand.pk).update(deadline=past)


@pytest.mark.django_db
def test_a_move_inside_the_pending_timer_adds_no_task_and_a_sooner_deadline_takes_its_own(
    duel, alice, bob, armed
):
    first = without_pause(duel)
    assert (first.timer_version, first.timer_at) == (first.version, first.deadline)
    with armed() as sent:
        hand = move(duel, [alice, bob], first)
    # the next decision's deadline is later: the first timer fires first and re-arms
    assert hand.deadline > first.deadline and sent == []
    assert (hand.timer_version, hand.timer_at) == (first.version, first.deadline)
    # a deadline sooner than the pending timer (here: the pending one moved later) takes a
    # task of its own; the pending timer stays the hand's
    later = hand.deadline + SECONDS
    Hand.objects.filter(pk=hand.pk).update(timer_at=later)
    with armed() as sent:
        hand = move(duel, [alice, bob])
    assert sent == [(hand.pk, hand.version, hand.deadline)]
    assert (hand.timer_version, hand.timer_at) == (first.version, later)


@pytest.mark.django_db
def test_a_sooner_deadlines_own_task_come_early_re_arms_and_at_its_time_moves(
    duel, alice, bob, armed
):
    """Its task fires by its version, not as the hand's timer: early (a worker's clock
    behind), it re-arms for the deadline and becomes the hand's timer; at the deadline it
    resolves the decision."""
    hand = move(duel, [alice, bob], without_pause(duel))
    Hand.objects.filter(pk=hand.pk).update(timer_at=hand.deadline + SECONDS)
    hand = move(duel, [alice, bob])
    with armed() as sent:
        assert services.timer_fired(hand.pk, hand.version) is False
    hand.refresh_from_db()
    assert sent == [(hand.pk, hand.version, hand.deadline)]
    assert (hand.timer_version, hand.timer_at) == (hand.version, hand.deadline)
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - SECONDS)
    assert services.timer_fired(hand.pk, hand.version) is True
    assert duel.current_hand().version == hand.version + 1


@pytest.mark.django_db
def test_a_bots_move_adds_no_task_while_the_hands_timer_is_pending(bot_table, alice, armed):
    """Against a bot, each of the player's moves gives the bot a short deadline, with a task
    of its own; the bot's move then gives the player a whole decision again, later than
    the pending timer of the player's earlier turn: no task, that timer re-arms at its
    time. (Before, the bot's move sent the player a new timer every time.)"""
    hand = without_pause(bot_table)
    while hand.game().turn != 0:  # the bot deals: its first move, by its timer
        to_the_deadline(hand)
        assert services.timer_fired(hand.pk, hand.version) is True
        hand = bot_table.current_hand()
    players_timer = (hand.timer_version, hand.timer_at)
    checked = 0
    for _ in range(12):
        if hand.game().ended:
            break
        if hand.game().turn == 0:  # the player: the bot's short deadline takes a task
            with armed() as sent:
                hand = move(bot_table, [alice, None], hand)
            if hand.game().turn == 1 and not hand.game().ended:
                assert sent == [(hand.pk, hand.version, hand.deadline)]
                assert (hand.timer_version, hand.timer_at) == players_timer
            continue
        Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - SECONDS)
        with armed() as sent:  # the bot's own task at its deadline: the bot moves
            assert services.timer_fired(hand.pk, hand.version) is True
        hand = bot_table.current_hand()
        if hand.game().turn == 0 and hand.deadline > players_timer[1]:
            assert sent == [] and (hand.timer_version, hand.timer_at) == players_timer
            checked += 1
    assert checked >= 2


@pytest.mark.django_db
def test_the_hands_timer_finding_the_hand_moved_on_re_arms_for_the_pending_deadline(
    duel, alice, bob, django_assert_max_num_queries
):
    first = without_pause(duel)
    hand = move(duel, [alice, bob], first)
    assert services.timer_fired(hand.pk, first.version) is False  # early: nothing moves
    hand.refresh_from_db()
    assert hand.version == first.version + 1
    assert (hand.timer_version, hand.timer_at) == (hand.version, hand.deadline)
    # the old timer again (a duplicate): not the hand's timer any more, one read
    with django_assert_max_num_queries(1):
        assert services.timer_fired(hand.pk, first.version) is False


@pytest.mark.django_db
def test_a_timer_at_a_passed_deadline_resolves_the_decision_whatever_version_armed_it(
    duel, alice, bob, django_assert_max_num_queries
):
    first = without_pause(duel)
    hand = move(duel, [alice, bob], first)
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - SECONDS)
    # the timer's own look (compiled.timing) and the move's budget (test_query_budget.py)
    with django_assert_max_num_queries(1 + 8):
        assert services.timer_fired(hand.pk, first.version) is True
    timed_out = Event.objects.get(hand=hand, kind="action", version=hand.version + 1)
    assert timed_out.data["by"] == "timeout"
    assert services.timer_fired(hand.pk, first.version) is False  # spent


@pytest.mark.django_db
def test_a_stale_timer_that_is_not_the_hands_does_nothing_even_past_the_deadline(duel, alice, bob):
    first = duel.current_hand()
    hand = move(duel, [alice, bob], first)
    hand = move(duel, [alice, bob], hand)
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - SECONDS)
    assert services.timer_fired(hand.pk, first.version + 1) is False
    assert duel.current_hand().version == hand.version


@pytest.fixture
def quick(builtin, alice, bob, settings):
    """alice and bob at a table whose decisions time out after 3 s, on a fixed wall."""
    settings.MAHJONG_TEST_SEED = "timers"
    ruleset = Ruleset.objects.create(
        slug="classic-quick", engine_slug="classic", name="快",
        overrides={"timers": {"decision": 3, "locked_delay": 0.1}},
    )  # fmt: skip
    return services.open_table(ruleset, [alice, bob])


@pytest.fixture
def published():
    """The timer tasks sent to the broker, as (hand, version)."""
    sent = []

    def count(sender=None, body=None, **kwargs):
        if sender == "mahjong.tables.tasks.advance":
            sent.append(tuple(body[0]))

    before_task_publish.connect(count, weak=False)
    yield sent
    before_task_publish.disconnect(count)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_times_out_a_decision_at_its_deadline_after_quick_moves(
    celery_worker, published, quick, alice, bob
):
    first = hand = without_pause(quick)
    armed = {(first.pk, first.version)}
    for _ in range(6):  # quick moves: only a sooner deadline takes a task of its own
        hand = move(quick, [alice, bob], hand)
        armed.add((hand.pk, hand.timer_version))
    assert not hand.game().ended
    pending = hand
    wait_until(lambda: quick.current_hand().version > pending.version, timeout=15)
    timed_out = Event.objects.get(hand=hand, kind="action", version=pending.version + 1)
    assert timed_out.data["by"] in ("timeout", "auto")
    # at the deadline, not at the time of the timer armed before, nor the sweeper's
    assert pending.deadline <= timed_out.created_at
    assert timed_out.created_at < pending.deadline + services.SWEEP_GRACE
    # one task per deadline that came sooner than the pending timer, then the re-arms
    assert armed <= set(published) and len(armed) < 6
    assert (pending.pk, pending.version) in published  # re-armed for the pending deadline


@pytest.mark.django_db(transaction=True)
def test_im_back_gives_the_player_a_whole_timer_again(celery_worker, quick, alice, bob):
    from mahjong.tables.models import Seat

    hand = move(quick, [alice, bob], without_pause(quick))
    player = [alice, bob][hand.game().turn]
    Seat.objects.filter(table=quick, user=player).update(auto_play=True, timeouts=2)
    wait_until(lambda: timezone.now() > hand.deadline - datetime.timedelta(seconds=0.5))
    services.back(quick, player)
    renewed = quick.current_hand()
    assert renewed.deadline > hand.deadline + SECONDS
    wait_until(lambda: quick.current_hand().version > hand.version, timeout=15)
    timed_out = Event.objects.get(hand=hand, kind="action", version=hand.version + 1)
    assert timed_out.created_at >= renewed.deadline  # the old deadline passed: no move


@pytest.mark.django_db
def test_im_back_landing_between_a_timers_read_and_its_lock_stops_the_auto_move(
    duel, alice, bob, monkeypatch
):
    """The race of "I'm back" with the 托管 move: the timer read the passed deadline, then
    the player's click committed a whole new timer before the timer took the lock."""
    from mahjong.tables import compiled
    from mahjong.tables.models import Seat

    hand = duel.current_hand()
    player = [alice, bob][hand.game().turn]
    Seat.objects.filter(table=duel, user=player).update(auto_play=True, timeouts=2)
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - SECONDS)
    read = compiled.timing

    def read_then_back(hand_id):
        row = read(hand_id)
        services.back(duel, player)  # lands between the read and the lock
        return row

    monkeypatch.setattr(compiled, "timing", read_then_back)
    assert services.timer_fired(hand.pk, hand.version) is False
    hand.refresh_from_db()
    assert hand.version == 1 and hand.deadline > timezone.now()
    seat = Seat.objects.get(table=duel, user=player)
    assert (seat.auto_play, seat.timeouts) == (False, 0)
    # the sweeper's read of an overdue hand, raced the same way, does not move it either
    Seat.objects.filter(table=duel, user=player).update(auto_play=True, timeouts=2)
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - 10 * SECONDS)
    lock, clicks = services.locking.lock, []

    def back_then_lock(table_id):
        if not clicks:  # the sweeper's lock, after its read (back takes the lock too)
            clicks.append(player)
            services.back(duel, player)
        return lock(table_id)

    monkeypatch.setattr(services.timers, "lock", back_then_lock)
    assert services.sweep() == 0
    assert duel.current_hand().version == 1


@pytest.mark.django_db
def test_im_back_from_a_player_not_on_auto_play_gives_no_new_timer(duel, alice, bob):
    """The button shows only in 托管; a post of it otherwise (a second tab, a crafted
    request) must not renew the decision's deadline, or repeating it would stall the
    opponent without end."""
    hand = duel.current_hand()
    player = [alice, bob][hand.game().turn]
    services.back(duel, player)
    assert duel.current_hand().deadline == hand.deadline
