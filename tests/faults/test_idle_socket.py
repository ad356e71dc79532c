"""A table socket outlives a quiet table: a player may think for the whole decision timer
(15 s by default) while the consumer waits on the Redis channel layer."""

from __future__ import annotations

import pytest

from tests.faults.checks import session_cookie
from tests.faults.clients import Player

pytestmark = pytest.mark.faults

QUIET = 8  # seconds: longer than the layer's blocking read and redis-py's default timeout


def test_an_idle_table_socket_stays_open_and_gets_the_next_move(cluster, duel_table):
    web = cluster.web(0)
    table, users = duel_table(decision=60)  # no timer fires while the table is quiet
    players = [Player(u.username, table.public_id, session_cookie(u)) for u in users]
    for player in players:
        player.connect(web)
    version = players[0].view.version
    mover = next(p for p in players if p.view.actions)

    assert players[0].poll(timeout=QUIET) is None  # raises ConnectionClosed if it dropped
    action = sorted(a for a in mover.view.actions if a.startswith("discard "))[0]
    mover.send(action, version)
    for player in players:
        assert player.wait(lambda s: s.version == version + 1).version == version + 1
        player.close()
