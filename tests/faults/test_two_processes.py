"""Past one machine (issue #9): the two players of a game on two different daphne processes,
sharing only Redis (channel layer, broker) and the database, and a turn timer firing in a
Celery worker, a third process."""

from __future__ import annotations

import pytest

from mahjong.tables.models import Event
from tests.faults.checks import assert_history, session_cookie
from tests.faults.clients import Player, at_least, drive, ended
from tests.faults.conftest import FAST_TIMERS

pytestmark = pytest.mark.faults


def test_two_players_on_two_web_processes_and_a_timer_in_a_worker(cluster, duel_table):
    web_a, web_b = cluster.web(0), cluster.web(1)
    cluster.worker(0)
    table, (ann, ben) = duel_table()
    pa = Player("ann", table.public_id, session_cookie(ann))
    pb = Player("ben", table.public_id, session_cookie(ben))
    pa.connect(web_a)
    pb.connect(web_b)
    assert pa.web.child.pid != pb.web.child.pid
    hand = table.current_hand()

    drive([pa, pb], at_least([pa, pb], hand.version + 6))

    # Nobody answers: the pending decision's timer fires in the worker process.
    pa.acting = pb.acting = False
    for p in (pa, pb):
        p.settle()
    idle = table.current_hand().version
    moves_before = cluster.timer_moves()
    wait = FAST_TIMERS["decision"] + 15
    for p in (pa, pb):
        p.wait(lambda s: s.version > idle, timeout=wait)
    timed_out = Event.objects.get(hand=hand, kind="action", version=idle + 1).data
    assert timed_out["by"] in ("timeout", "auto"), timed_out  # "auto": a forced move
    assert cluster.timer_moves() > moves_before  # a worker's timer did it, not the sweeper
    # Both were shown the timed-out move (or, when its hint was handled late, the state
    # after it); assert_history below checks every screen against the log.

    pa.acting = pb.acting = True
    drive([pa, pb], ended([pa, pb]), timeout=120)
    hand.refresh_from_db()
    assert hand.ended_at is not None
    assert_history(hand, {0: [pa], 1: [pb]})
    pa.close()
    pb.close()
