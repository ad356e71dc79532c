"""Many players press "quick match" at the same instant on PostgreSQL: nobody ends up in
two matches, nobody is paired with themselves, and everyone is paired within a poll."""

import random
import threading
import time

import pytest
from django.db import connection, connections
from django.db.models import Q

from catalogue.models import RoomTier
from lobby import matchmaking
from lobby.models import QueueTicket
from mahjong.tables.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 10


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED pairing races only exist on PostgreSQL")


def test_simultaneous_joins_pair_everyone_exactly_once(builtin, make_player):
    players = [make_player(f"q{i}", beans=20_000) for i in range(PLAYERS)]
    novice = RoomTier.objects.get(slug="novice")
    barrier = threading.Barrier(PLAYERS)
    errors = []

    def press(player):
        try:
            barrier.wait()
            ticket = matchmaking.join(player, novice)
            for _ in range(50):  # the waiting page's polls, with a browser's jitter
                if matchmaking.poll(ticket).state != QueueTicket.State.WAITING:
                    break
                time.sleep(random.uniform(0.001, 0.02))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors

    assert Match.objects.count() == PLAYERS // 2
    for p in players:
        assert Match.objects.filter(Q(player_one=p) | Q(player_two=p)).count() == 1, p.username
    assert not QueueTicket.objects.filter(state=QueueTicket.State.WAITING).exists()
    assert QueueTicket.objects.filter(state=QueueTicket.State.MATCHED).count() == PLAYERS
