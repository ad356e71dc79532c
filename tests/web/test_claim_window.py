"""The claim window tells nothing (issue 30, item 1): after every discard the discarder's
and a spectator's screens, and the moment the window closes, are the same whether or not
the opponent could claim. Before, a window opened only for an option: the wall count
stayed, the clock named the opponent, and a move was refused naming the claim phase.

Both seats are driven through the services on scripted walls, on a clock of the test's
own, with the timers' tasks run at their time as a worker would; at every hint the
discarder's and a spectator's fragments are rendered as their sockets render them."""

import datetime
import heapq
from types import SimpleNamespace

import pytest
from django.utils import timezone

from catalogue.models import Ruleset
from mahjong.engine.game import is_forced, legal_actions
from mahjong.engine.scripted import scripted_hand
from mahjong.tables import broadcast, presenters, services, spectators
from mahjong.tables.models import Event, Hand
from mahjong.tables.services import (
    connections,
    departures,
    moves,
    next_hand,
    opening,
    recording,
    timers,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]

# alice deals and discards 7z, then each tile she draws; bob discards each tile he draws.
# The draws, in order (bob's, alice's, ...): each honour 1z-6z twice. Nobody can use a
# discard, but with OPTION bob holds a pair of each tile alice discards after 7z: six pons.
ALICE = "114477m2258m369m7z"
OPTION = "9m112233445566z"
NO_OPTION = "1234567895836m"  # numbers only: no pon, and no chi of an honour
DRAWS = "112233445566z"
THINK = datetime.timedelta(seconds=2)  # a player's discard, after the last push
QUICK = datetime.timedelta(seconds=0.2)  # a pass sent as soon as the window shows


class Clock:
    """timezone.now() for the services: the test moves it."""

    def __init__(self, start):
        self.at = start

    def now(self):
        return self.at


class Table:
    """One table driven on the test's clock: the timers' tasks run at their eta, and each
    hint renders the discarder's (seat 0) and a spectator's screens."""

    def close(self) -> None:
        """Called off, as the operator would: one game at a time lets the same players
        sit down at the next table only then. Its pushes are not the hand's: not kept."""
        seen = list(self.seen)
        with self.capture(execute=True):
            services.close_by_operator(self.table.pk)
        self.seen = seen

    def __init__(self, monkeypatch, django_capture_on_commit_callbacks, start, bob_hand):
        self.clock, self.start = Clock(start), start
        self.tasks, self.sent = [], 0  # (eta, order sent, args)
        self.seen = []  # (seconds since start, version, discarder's html, spectator's html)
        self.offered = []  # bob's actions in each window on alice's discards
        self.capture = django_capture_on_commit_callbacks
        clock = SimpleNamespace(now=self.clock.now)
        for module in (connections, departures, moves, next_hand, opening, recording, timers):
            if hasattr(module, "timezone"):
                monkeypatch.setattr(module, "timezone", clock)
        for module in (connections, recording):
            monkeypatch.setattr(module, "enqueue_on_commit", self._enqueue)
        monkeypatch.setattr(broadcast, "group_send", self._hint)
        from accounts.models import User

        self.users = [User.objects.get(username="alice"), User.objects.get(username="bob")]
        ruleset = Ruleset.objects.get(slug="classic")
        with self.capture(execute=True):
            self.table = services.open_table(ruleset, self.users)
        hand = self.table.current_hand()
        state = scripted_hand("classic", dealer_hand=ALICE, other_hand=bob_hand, draws=DRAWS)
        hand.state = state.evolve(claim_pause=True).to_dict()
        hand.save(update_fields=["state"])

    def _enqueue(self, name, *args, countdown=0, eta=None):
        self.sent += 1
        due = eta or self.clock.at + datetime.timedelta(seconds=countdown)
        heapq.heappush(self.tasks, (due, self.sent, args))

    def _hint(self, group, message):
        hand = self.table.current_hand()
        mine = presenters.fragments(self.table, 0, hand=hand)
        watched = spectators.fragments(self.table, hand)
        public_id = self.table.public_id
        self.seen.append(
            (
                (self.clock.at - self.start).total_seconds(),
                message["version"],
                mine.replace(public_id, "T"),
                watched.replace(public_id, "T"),
            )
        )

    def hand(self) -> Hand:
        return self.table.current_hand()

    def act(self, seat, text, after):
        self.clock.at += after
        hand = self.hand()
        with self.capture(execute=True):
            services.act(self.table, self.users[seat], text, hand.version)

    def run_timers(self, seat):
        """As a worker: the tasks due, in eta order, until it is ``seat``'s turn."""
        while not self.turn_of(seat):
            eta, _, args = heapq.heappop(self.tasks)
            self.clock.at = max(self.clock.at, eta)
            with self.capture(execute=True):
                services.timer_fired(*args)

    def turn_of(self, seat) -> bool:
        state = self.hand().game()
        return state.phase == "turn" and state.turn == seat

    def let_go(self, seat):
        """The seat lets the discard go: a pass as soon as its screen offers a choice (none
        is offered with nothing to claim); then the timers run until the seat's turn."""
        state = self.hand().game()
        if state.phase == "claim" and not is_forced(state, seat):
            self.act(seat, "pass", QUICK)
        self.run_timers(seat)

    def play(self, rounds):
        """alice discards (7z, then her draws) and bob discards his draws; each lets the
        other's discards go at once: the windows close when the timers say."""
        self.act(0, "discard 7z", THINK)
        for _ in range(rounds):
            state = self.hand().game()
            self.offered.append([str(a) for a in legal_actions(state, 1)])
            self.let_go(1)
            self.act(1, f"discard {drawn(self.hand(), 1)}", THINK)
            self.let_go(0)
            self.act(0, f"discard {drawn(self.hand(), 0)}", THINK)


def drawn(hand, seat):
    from mahjong.engine.tiles import format_tile

    return format_tile(hand.game().seat(seat).drawn)


@pytest.fixture
def start():
    return timezone.now().replace(microsecond=0)


@pytest.fixture
def driven(monkeypatch, django_capture_on_commit_callbacks, settings, alice, bob, start):
    settings.MAHJONG_TEST_SEED = "claim-window"

    def table(bob_hand):
        with monkeypatch.context() as patch:
            driven = Table(patch, django_capture_on_commit_callbacks, start, bob_hand)
            driven.play(rounds=6)
            driven.close()
        return driven

    return table


def test_the_discarders_and_a_spectators_pushes_and_their_times_are_the_same_with_or_without_a_claim(  # noqa: E501
    driven,
):
    with_option, without = driven(OPTION), driven(NO_OPTION)
    # bob could pon each of alice's discards after 7z (and let them go), or nothing
    assert with_option.offered == [["pass"]] + [[f"pon {k}z", "pass"] for k in range(1, 6)]
    assert without.offered == [["pass"]] * 6
    assert len(with_option.seen) == len(without.seen) == 1 + 1 + 6 * 4  # the deal, every move
    for one, other in zip(with_option.seen, without.seen, strict=True):
        assert one == other
    # every window closed at its pause's end: the pass sent at once waited for it
    pause = with_option.hand().game().ruleset.timers.claim_pause
    times = [seconds for seconds, *_ in with_option.seen]
    discards = [e.created_at for e in Event.objects.filter(hand=with_option.hand(), kind="discard")]
    draws = [e.created_at for e in Event.objects.filter(hand=with_option.hand(), kind="draw")]
    assert len(times) == len(set(times))
    for discard, draw in zip(discards, draws, strict=False):
        assert (draw - discard).total_seconds() == pause


def test_a_pass_sent_before_the_pause_ends_is_played_at_its_end_as_the_players_move(driven):
    table = driven(OPTION)
    events = Event.objects.filter(hand=table.hand(), kind="action", data__seat=1).order_by("seq")
    passes = [(e.data["by"], e.created_at) for e in events if e.data["action"] == "pass"]
    # 7z: nothing to claim, the server's pass; then bob's own, each sent 0.2 s into the
    # window and played at its pause's end
    assert [by for by, _ in passes] == ["auto"] + ["player"] * 5
    discards = Event.objects.filter(hand=table.hand(), kind="discard", data__seat=0).order_by("seq")
    pause = datetime.timedelta(seconds=table.hand().game().ruleset.timers.claim_pause)
    assert [at for _, at in passes] == [e.created_at + pause for e in discards][:6]


def test_a_window_with_nothing_to_claim_passes_by_itself_at_the_pause_not_as_a_timeout(
    monkeypatch, django_capture_on_commit_callbacks, settings, alice, bob, start
):
    settings.MAHJONG_TEST_SEED = "claim-window"
    table = Table(monkeypatch, django_capture_on_commit_callbacks, start, NO_OPTION)
    table.act(0, "discard 7z", THINK)
    opened = table.hand()
    table.run_timers(1)
    hand = table.hand()
    passed = Event.objects.get(hand=hand, kind="action", version=opened.version + 1)
    assert passed.data == {"type": "action", "seat": 1, "action": "pass", "by": "auto"}
    assert table.clock.at == opened.pause_until
    # bob's turn keeps the deadline every screen showed during the window
    assert hand.deadline == opened.deadline
    assert hand.game().turn == 1 and hand.game().phase == "turn"
    assert hand.table.seats.get(index=1).timeouts == 0


def test_a_move_sent_during_the_window_is_refused_as_any_move_out_of_turn(
    monkeypatch, django_capture_on_commit_callbacks, settings, alice, bob, start
):
    settings.MAHJONG_TEST_SEED = "claim-window"
    said = []
    for bob_hand in (OPTION, NO_OPTION):
        table = Table(monkeypatch, django_capture_on_commit_callbacks, start, bob_hand)
        table.act(0, "discard 7z", THINK)
        table.act(1, "pass", QUICK)
        for text in ("discard 1m", "pass", "hu"):
            with pytest.raises(services.IllegalMove) as refused:
                table.act(0, text, QUICK)
            said.append(str(refused.value))
        table.run_timers(1)  # bob's own turn now
        with pytest.raises(services.IllegalMove) as refused:
            table.act(0, "discard 1m", QUICK)
        said.append(str(refused.value))
        table.close()
    assert set(said) == {"还没轮到你，本次操作未执行。"}
