"""Exactly one of several competing requests is applied (issue #10, faults): duplicate and
late timer deliveries, actions racing for the same version (threads, each on its own
database connection), a double click, and two tabs of the same player on two different
web processes."""

from __future__ import annotations

import threading

import pytest
from django.utils import timezone

from mahjong.celery import app
from mahjong.engine.game import legal_actions
from mahjong.tables import services
from mahjong.tables.models import Event, Hand
from tests.faults.checks import injected, session_cookie
from tests.faults.clients import Player

pytestmark = pytest.mark.faults


def race(use_stack_db, calls) -> list:
    """Run ``calls`` at once, each in its own thread and connection; their outcomes (the
    return value or the exception) in order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(i, call):
        with use_stack_db():
            barrier.wait(timeout=30)
            try:
                outcomes[i] = call()
            except Exception as exc:
                outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a racing call hung"
    return outcomes


def first_discard(state) -> str:
    """A discard for the first move, so that the hand goes on: the default action wins
    when the dealer's deal is already a win (天和, about 3 deals in 20,000), which ended
    the hand and left the race nothing to move."""
    return str(next(a for a in legal_actions(state, state.turn) if a.verb == "discard"))


def moves(hand) -> list[tuple[int, str, str]]:
    return [
        (e.version, e.data["action"], e.data["by"])
        for e in Event.objects.filter(hand=hand, kind="action").order_by("seq")
    ]


def players_moves(hand) -> list[tuple[int, str, str]]:
    """The moves the players made. The claim pause after a discard may end while the test
    reads, and its window's pass is the server's ("auto"), which is all that may follow."""
    made = moves(hand)
    assert all(by == "auto" and action == "pass" for _v, action, by in made if by != "player")
    return [m for m in made if m[2] == "player"]


def test_duplicate_and_late_timer_deliveries_apply_once(quiet_table, use_stack_db):
    table, users = quiet_table()
    hand = table.current_hand()
    state = hand.game()
    services.act(table, users[state.turn], first_discard(state), 1)
    hand.refresh_from_db()
    assert hand.version == 2

    duplicates = [lambda: services.advance(hand.pk, 2)] * 6
    late = [lambda: services.advance(hand.pk, 1)] * 2
    outcomes = race(use_stack_db, duplicates + late)
    injected("duplicate timer deliveries", 5 + 1)
    injected("late timer deliveries", 2)
    assert outcomes[:6].count(True) == 1 and outcomes[:6].count(False) == 5, outcomes
    assert outcomes[6:] == [False, False], outcomes
    assert services.advance(hand.pk, 2) is False  # a redelivery long after
    hand.refresh_from_db()
    assert hand.version == 3
    assert [m[0] for m in moves(hand)] == [2, 3]
    assert moves(hand)[-1][2] in ("timeout", "auto")


def test_duplicates_of_the_hands_timer_re_arm_it_once_and_move_once(quiet_table, use_stack_db):
    """The hand's timer re-arms itself when it finds the hand moved on (services.
    timer_fired); delivered several times at once, it re-arms once, then its re-armed
    copies racing at the deadline make one move."""
    table, users = quiet_table()
    hand = table.current_hand()
    state = hand.game()
    services.act(table, users[state.turn], first_discard(state), 1)
    hand.refresh_from_db()
    assert (hand.version, hand.timer_version) == (2, 1)

    early = race(use_stack_db, [lambda: services.timer_fired(hand.pk, 1)] * 4)
    injected("duplicate deliveries of a timer that re-arms", 4 - 1)
    assert early == [False] * 4, early
    hand.refresh_from_db()
    # due at the claim pause's end, which every discard opens
    assert (hand.version, hand.timer_version, hand.timer_at) == (2, 2, hand.pause_until)

    now = timezone.now()
    Hand.objects.filter(pk=hand.pk).update(deadline=now, pause_until=now)
    due = race(use_stack_db, [lambda: services.timer_fired(hand.pk, 2)] * 4)
    injected("duplicate deliveries of a timer at its deadline", 4 - 1)
    assert due.count(True) == 1 and due.count(False) == 3, due
    hand.refresh_from_db()
    assert hand.version == 3 and [m[0] for m in moves(hand)] == [2, 3]


def test_actions_racing_for_the_same_version_apply_once(quiet_table, use_stack_db):
    table, users = quiet_table()
    hand = table.current_hand()
    state = hand.game()
    mover = users[state.turn]
    offered = sorted({str(a) for a in legal_actions(state, state.turn)})
    assert len(offered) >= 3, offered
    calls = [lambda a=a: services.act(table, mover, a, hand.version) for a in offered[:5]]
    calls.append(lambda: services.advance(hand.pk, hand.version))  # its timer, too
    outcomes = race(use_stack_db, calls)
    injected("actions racing for one version", len(calls) - 1)

    applied = [o for o in outcomes if o is True or isinstance(o, services.Locked)]
    refused = [o for o in outcomes if isinstance(o, services.StaleVersion) or o is False]
    assert len(applied) == 1 and len(refused) == len(calls) - 1, outcomes
    hand.refresh_from_db()
    assert hand.version == 2
    assert len(moves(hand)) == 1


@pytest.fixture
def hints_only(peer):
    """Hints reach the stack's web processes; no timers (the test is the only mover),
    and the tables get a 60 s decision so that no worker's sweeper moves them either."""
    app.conf.task_always_eager = True  # peer's teardown restores it


def test_a_double_click_applies_once(cluster, duel_table, hints_only):
    web = cluster.web(0)
    table, users = duel_table(decision=60)
    hand = table.current_hand()
    mover = hand.game().turn
    tab = Player("clicker", table.public_id, session_cookie(users[mover]))
    first = tab.connect(web)
    action = sorted(a for a in first.actions if a.startswith("discard "))[0]

    tab.send(action, first.version)
    tab.send(action, first.version)
    injected("double click")
    tab.settle()
    assert any(s.notice for s in tab.seen), "the second click got no answer"
    hand.refresh_from_db()
    assert players_moves(hand) == [(first.version + 1, action, "player")]
    assert tab.saw(first.version + 1)
    tab.close()


def test_two_tabs_of_the_same_player_on_two_processes(cluster, duel_table, hints_only):
    webs = [cluster.web(0), cluster.web(1), cluster.web(0)]
    table, users = duel_table(decision=60)
    hand = table.current_hand()
    mover = hand.game().turn
    cookie = session_cookie(users[mover])
    tabs = [Player(f"tab{i}", table.public_id, cookie) for i in (1, 2)]
    other = Player("opponent", table.public_id, session_cookie(users[1 - mover]))
    for player, web in zip([*tabs, other], webs):
        player.connect(web)
    version = tabs[0].view.version
    assert tabs[0].view == tabs[1].view
    action = sorted(a for a in tabs[0].view.actions if a.startswith("discard "))[-1]

    for tab in tabs:
        tab.send(action, version)
    injected("the same action from two tabs on two processes")
    for player in (*tabs, other):
        player.settle()
    hand.refresh_from_db()
    assert players_moves(hand) == [(version + 1, action, "player")]
    for player in (*tabs, other):
        assert player.saw(version + 1), player.name
    assert tabs[0].view.tiles == tabs[1].view.tiles
    for tab in (*tabs, other):
        tab.close()
