"""Sockets under attack (issue 30 items 4 and 5): spectator sockets are capped per account
and per table, a refused one is told why in the page's language and closed with a code
the page does not retry; a player's own seat is never refused for their spectating; a
socket flooding frames is closed and the frames queued behind the close are not worked
on."""

import datetime
import json

import pytest
from django.utils import timezone

from mahjong.tables import frames, ratelimit, watchers
from mahjong.tables.consumers import CROWDED, FLOODED
from mahjong.tables.models import Watcher
from tests.web.tables_support import refused_connect, run
from tests.web.test_spectators import watch_socket
from tests.web.test_tables_live import communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]
WAIT = 20


async def open_all(sockets) -> list[str]:
    """Connect each in turn; the first message each gets (a snapshot or a refusal)."""
    first = []
    for ws in sockets:
        assert (await ws.connect())[0]
        first.append(await ws.receive_from(WAIT))
    return first


async def close_code(ws) -> int | None:
    """What the server sent last, if it closed the socket."""
    output = await ws.receive_output(WAIT)
    return output.get("code") if output["type"] == "websocket.close" else None


def test_an_account_past_its_spectator_sockets_is_told_and_its_seat_still_connects(
    redis_layer, settings, duel, alice, outsider
):
    settings.TABLES_WATCH_SOCKETS_PER_ACCOUNT = 2
    tabs = [watch_socket(duel, alice) for _ in range(2)]  # a player may watch, too
    third = watch_socket(duel, alice, language="zh-hans")
    seat = communicator(duel, alice)

    async def scenario():
        await open_all(tabs)
        refusal = (await open_all([third]))[0]
        code = await close_code(third)
        assert (await seat.connect())[0]
        snapshot = await seat.receive_from(WAIT)
        for ws in (*tabs, seat):
            await ws.disconnect()
        await third.disconnect()
        return refusal, code, snapshot

    refusal, code, snapshot = run(scenario)
    assert "标签页" in refusal and code == CROWDED  # said in the page's language
    assert 'id="mj-status"' in snapshot  # the seat's own screen, uncounted
    assert Watcher.objects.count() == 0  # each left, the refused one never counted


def test_a_full_table_refuses_one_more_spectator_but_not_for_a_dead_processs_rows(
    redis_layer, settings, duel, outsider, make_player
):
    settings.TABLES_WATCH_SOCKETS_PER_TABLE = 2
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    for i in range(3):  # a killed process's sockets: never closed, no longer heard from
        watchers.arrived(duel, make_player(f"ghost{i}"), f"dead-{i}", now=long_ago)
    crowd = [watch_socket(duel, u) for u in (outsider, make_player("carol2"))]
    late = watch_socket(duel, make_player("dave2"), language="en")

    async def scenario():
        snapshots = await open_all(crowd)
        refusal = (await open_all([late]))[0]
        code = await close_code(late)
        for ws in (*crowd, late):
            await ws.disconnect()
        return snapshots, refusal, code

    snapshots, refusal, code = run(scenario)
    assert all("mj-watch-status" in s for s in snapshots)
    assert "as many spectators as it can take" in refusal and code == CROWDED


def test_a_flooding_socket_is_closed_and_its_queued_frames_are_not_worked_on(
    redis_layer, settings, monkeypatch, duel, alice, bob
):
    settings.TABLES_SOCKET_FRAME_RATE, settings.TABLES_SOCKET_FRAME_BURST = 1, 10
    settings.TABLES_ACTION_RATE = settings.TABLES_ACTION_BURST = 1000  # not what is tested
    now, read = [1_000.0], []
    monkeypatch.setattr(frames, "clock", lambda: now[0])  # the flood comes at one instant
    real_allow = ratelimit.allow

    def handled(*args):
        """Each frame the consumer works on takes a second: slower than the refill, which
        must not keep a budget checked only then from ever running dry."""
        read.append(1)
        now[0] += 1.0
        return real_allow(*args)

    monkeypatch.setattr(ratelimit, "allow", handled)
    ws, next_socket = communicator(duel, alice), communicator(duel, alice)
    opponent = communicator(duel, bob)

    async def scenario():
        assert (await ws.connect())[0]
        await ws.receive_from(WAIT)
        for _ in range(200):  # queued all at once, before the consumer takes any
            await ws.send_input({"type": "websocket.receive", "text": json.dumps({"x": 1})})
        replies, code = 0, None  # the close goes out as the 11th frame arrives: it may
        while code is None or replies < 10:  # come before the first ten are answered
            output = await ws.receive_output(WAIT)
            if output["type"] == "websocket.close":
                code = output["code"]
            else:
                replies += 1
        quiet = await ws.receive_nothing(0.5)
        await ws.disconnect()
        again = await refused_connect(next_socket)
        other = (await opponent.connect())[0]
        await opponent.disconnect()
        return replies, code, quiet, again, other

    replies, code, quiet, again, other = run(scenario)
    assert code == FLOODED
    assert len(read) == replies == 10  # the burst was worked on; the other 190 dropped
    assert quiet
    assert again == (False, FLOODED) and other  # the flooder's next socket, not others'
