"""Processes die mid-hand (issue #10, faults): a daphne process killed with -9, the Celery
worker holding a turn timer killed with -9, the Redis server restarted with everything in
it lost. Each game goes on to the end of the hand, and its whole history is checked
against every screen the players saw (tests/faults/checks.py)."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from mahjong.celery import app
from mahjong.tables import services, tasks
from mahjong.tables.models import Event, Hand
from tests.faults.checks import TALLY, assert_history, injected, session_cookie
from tests.faults.clients import Player, at_least, drive

pytestmark = pytest.mark.faults

# The killed worker's table: time to find and kill the holder before its timer fires.
DECISION = 10
# A lost timer is resolved by a worker's sweeper: deadline + SWEEP_GRACE (3 s) + one
# sweep period (5 s), plus room for a busy machine.
SWEEP_WAIT = DECISION + 3 + 5 + 15


def seated(table, users) -> tuple[Player, Player]:
    return tuple(Player(u.username, table.public_id, session_cookie(u)) for u in users)


def test_kill_9_a_web_process_mid_hand(cluster, duel_table):
    doomed, other = cluster.web(0), cluster.web(1)
    cluster.worker(0)
    table, users = duel_table()
    pa, pb = seated(table, users)
    pa.connect(doomed)
    pb.connect(doomed)
    hand = table.current_hand()
    drive([pa, pb], at_least([pa, pb], hand.version + 8))

    last_seen = {p.name: p.view.version for p in (pa, pb)}
    doomed.kill()
    injected("kill -9 of a daphne process mid-hand")
    drive(
        [pa, pb],
        at_least([pa, pb], max(last_seen.values()) + 10),
        timeout=90,
        on_drop=lambda p: p.reconnect(other),
    )
    for p in (pa, pb):
        p.acting = False
        p.settle()

    for p in (pa, pb):
        assert p.drops == 1 and p.reconnects == 1, (p.name, p.drops)
        assert p.web is other
        after = [s.version for s in p.seen]
        assert after[-1] >= last_seen[p.name]
    assert_history(hand, {0: [pa], 1: [pb]})


def holder_of(hand_id: int) -> str:
    """The worker that has the hand's timer reserved (an ETA task waiting in its memory),
    by Celery's remote control. The timer carries the version it was armed at
    (``Hand.timer_version``), which may be older than the pending decision's: it re-arms
    itself when it finds the hand moved on (tables.services.timer_fired)."""
    for _ in range(3):  # it may re-arm between the read and the inspection
        version = Hand.objects.values_list("timer_version", flat=True).get(pk=hand_id)
        scheduled = app.control.inspect(timeout=3).scheduled() or {}
        for worker, queued in scheduled.items():
            for task in queued:
                request = task["request"]
                if request["name"].endswith(".advance") and list(request["args"]) == [
                    hand_id,
                    version,
                ]:
                    return worker
    raise AssertionError(f"no worker holds the timer of hand {hand_id}: {scheduled}")


def test_kill_9_the_worker_holding_a_turn_timer(cluster, duel_table):
    web = cluster.web(0)
    doomed = cluster.worker(0)  # the only worker: whatever the timer re-arms, it holds it
    table, users = duel_table(decision=DECISION)
    pa, pb = seated(table, users)
    pa.connect(web)
    pb.connect(web)
    hand = table.current_hand()
    drive([pa, pb], at_least([pa, pb], hand.version + 4))

    pa.acting = pb.acting = False
    for p in (pa, pb):
        p.settle()
    pending = table.current_hand()
    idle = pending.version
    assert holder_of(hand.pk).startswith(f"{doomed.name}@")
    doomed.kill()
    assert timezone.now() < pending.deadline, "too slow: the timer fired before the kill"
    injected("kill -9 of the Celery worker holding a turn timer")
    cluster.worker(1)  # a worker that lives: its sweeper, not a timer, makes the move

    for p in (pa, pb):
        p.wait(lambda s: s.version > idle, timeout=SWEEP_WAIT)
    resolved = Event.objects.filter(hand=hand, kind="action", version=idle + 1)
    assert [e.data["by"] for e in resolved] in (["timeout"], ["auto"])
    # Not before the deadline; at it if the living worker's sweeper re-armed the lost
    # timer in time (it was due well before the deadline), else a few seconds after it,
    # the sweeper's own move.
    late = (resolved[0].created_at - pending.deadline).total_seconds()
    assert 0 <= late < services.SWEEP_GRACE.total_seconds() + tasks.SWEEP_EVERY + 15
    TALLY["seconds past the deadline, the move for a killed worker's timer"] = round(late, 1)

    pa.acting = pb.acting = True
    drive([pa, pb], at_least([pa, pb], idle + 6), timeout=60)
    for p in (pa, pb):
        p.settle()
    steps = assert_history(hand, {0: [pa], 1: [pb]})
    # exactly once: one server move for the decision pending at ``idle``, then the players
    first = hand.version - (len(steps) - 1)
    assert steps[idle + 1 - first].by in ("timeout", "auto")
    assert Event.objects.filter(hand=hand, kind="action", version=idle + 1).count() == 1


def wait_until_exited(workers, timeout: float) -> int:
    """How many of ``workers`` exited within ``timeout`` (all of them: sooner)."""
    deadline = time.monotonic() + timeout
    while any(w.alive() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    return sum(not w.alive() for w in workers)


def test_restart_redis_during_play(cluster, duel_table, private_redis):
    web_a, web_b = cluster.web(0), cluster.web(1)
    cluster.worker(0)
    table, users = duel_table()
    pa, pb = seated(table, users)
    pa.connect(web_a)
    pb.connect(web_b)
    hand = table.current_hand()
    drive([pa, pb], at_least([pa, pb], hand.version + 4))
    for p in (pa, pb):  # quiet screens: a push after the restart is the restart's doing
        p.acting = False
        p.settle()

    restarted_at = max(p.view.version for p in (pa, pb))
    private_redis.restart(down_for=1.0)
    injected("Redis restart losing every key")
    # The sockets stay open: each process's pub/sub re-subscribes by itself and tells its
    # consumers, which push a fresh snapshot (mahjong.channel_layer), with no move or ping.
    for p in (pa, pb):
        p.wait(lambda s: True, timeout=30)
    TALLY["sockets refreshed after the Redis restart without reconnecting"] += 2
    # Celery 5.7 exits a worker that holds timers when its broker connection drops
    # (docs/RELIABILITY.md); a supervisor restarts it, as cluster.worker() does here.
    # Play needs a worker: the claim pause after every discard ends by its timer.
    exited = wait_until_exited(cluster.workers, timeout=15)
    TALLY["workers that exited when Redis went away"] += exited
    cluster.worker(0)
    pa.acting = pb.acting = True
    # The timers armed before the restart went with Redis: the sweeper re-arms them, or
    # (their time passed first) makes their moves; the turns after get timers of their own.
    drive(
        [pa, pb],
        at_least([pa, pb], restarted_at + 8),
        timeout=90,
        on_drop=lambda p: p.reconnect(p.web),
    )
    for p in (pa, pb):
        p.acting = False
        p.settle()
    pending = table.current_hand()
    if pending.ended_at is None:  # (a hand may end early: nothing left to time out)
        moves_before = cluster.timer_moves()
        for p in (pa, pb):
            p.wait(lambda s: s.version > pending.version, timeout=SWEEP_WAIT)
        assert cluster.timer_moves() > moves_before  # on the new Redis, in a worker
    assert_history(hand, {0: [pa], 1: [pb]})
