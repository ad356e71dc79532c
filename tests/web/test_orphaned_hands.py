"""Hands left in play at closed tables (issue 30, item 6) are called off by migration
0012, as the operator's "Close the table" calls a hand off: drawn, nobody pays."""

import importlib

import pytest
from django.apps import apps

from accounts.models import LedgerEntry
from mahjong.tables import services
from mahjong.tables.models import Hand, Table
from tests.web.tables_support import play_out, private_table

pytestmark = pytest.mark.usefixtures("no_eager_timers")

migration = importlib.import_module("mahjong.tables.migrations.0012_close_orphaned_hands")


@pytest.fixture
def orphan(settings, alice, bob):
    """What a Leave racing the next hand left behind: the table closed as "left" with
    hand 2 in play (written as the race wrote it, the services no longer can)."""
    settings.MAHJONG_TEST_SEED = "orphan"
    table = private_table(alice, bob)
    play_out(table)
    services.ready_next(table, alice)
    services.ready_next(table, bob)
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED, note=services.departures._left_note(alice)
    )
    return table


def test_the_migration_calls_off_a_hand_left_in_play_at_a_closed_table(orphan):
    ledger = LedgerEntry.objects.count()
    migration.close_orphaned_hands(apps, None)
    hand = Hand.objects.get(table=orphan, number=2)
    assert hand.ended_at is not None and hand.result["called_off"]
    assert hand.result["deltas"] == [0, 0] and LedgerEntry.objects.count() == ledger
    assert hand.events.order_by("seq").filter(kind="action").last().data["action"] == (
        services.CALL_OFF
    )
    table = Table.objects.get(pk=orphan.pk)
    assert table.status == Table.Status.FINISHED
    assert table.note == services.departures._left_note(orphan.seats.get(index=0).user)


def test_the_migration_leaves_open_tables_and_ended_hands_alone(orphan, alice, bob, outsider):
    playing = private_table(bob, outsider)
    before = Hand.objects.get(table=orphan, number=1).version
    migration.close_orphaned_hands(apps, None)
    assert Hand.objects.get(table=orphan, number=1).version == before
    assert playing.current_hand().ended_at is None
    assert services.close_orphaned_hands() == 0


def test_a_closed_tables_hand_is_no_players_escape(orphan):
    """The escape check locks the table and finds it closed: the hand waits for its
    call-off, nobody is charged an escape from a table that had closed."""
    import datetime

    from django.utils import timezone

    from mahjong.tables.models import Seat

    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Seat.objects.filter(table=orphan).update(disconnected_at=long_ago, connections=0)
    seat = orphan.seats.get(index=0)
    assert services.check_escape(seat.pk) is False
    assert Hand.objects.get(table=orphan, number=2).ended_at is None
