"""The writes every move repeats, as plain SQL built once (tables.compiled): the rows they
leave are the rows the ORM's save(update_fields=...) and bulk_create leave, in one
statement each."""

from __future__ import annotations

import datetime

import pytest
from django.db import DatabaseError, connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalogue.models import Ruleset
from mahjong.tables import compiled, services
from mahjong.tables.models import Event, Hand

pytestmark = pytest.mark.usefixtures("no_eager_timers")

STATE = {"nested": {"tiles": ["1m", "中"], "n": [1, None, 2.5]}, "text": 'it\'s "quoted"'}


@pytest.fixture
def hands(alice, bob, outsider, make_player):
    """Two hands alike: one written by the ORM, the other by the compiled statements (at
    two tables of their own: one game at a time)."""
    classic = Ruleset.objects.get(slug="classic")
    pairs = ([alice, bob], [outsider, make_player("dave")])
    return [services.open_table(classic, pair).current_hand() for pair in pairs]


def row(hand: Hand) -> dict:
    fresh = Hand.objects.get(pk=hand.pk)
    return {k: v for k, v in model_to_dict(fresh).items() if k not in {"id", "table"}}


def moved(hand: Hand, when: datetime.datetime) -> Hand:
    hand.version += 3
    hand.state = STATE
    hand.event_count += 2
    hand.deadline = when
    hand.timer_version, hand.timer_at = hand.version, when - datetime.timedelta(seconds=1)
    return hand


def test_a_moves_update_leaves_the_row_the_orm_leaves(hands):
    by_orm, by_sql = hands
    when = timezone.now().replace(microsecond=123456)
    moved(by_orm, when).save(update_fields=compiled.MOVE_FIELDS)
    with CaptureQueriesContext(connection) as queries:
        compiled.save_move(moved(by_sql, when))
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")
    written = [{k: row(h)[k] for k in compiled.MOVE_FIELDS} for h in (by_sql, by_orm)]
    assert written[0] == written[1]
    assert row(by_sql)["state"] == STATE and row(by_sql)["deadline"] == when


def test_nulls_are_written_as_nulls(hands):
    hand = hands[0]
    hand.deadline = hand.timer_at = hand.timer_version = None
    compiled.save_move(hand)
    assert [row(hand)[k] for k in ("deadline", "timer_at", "timer_version")] == [None] * 3


def test_only_the_moves_columns_change(hands):
    hand = hands[0]
    before = row(hand)
    hand.seed, hand.number = "not saved by a move", 99
    compiled.save_move(hand)
    assert row(hand) == before


def test_an_update_of_no_row_is_an_error(hands):
    hand = hands[0]
    hand.pk = 10**9
    with pytest.raises(DatabaseError, match="no row to update"):
        compiled.save_move(hand)


def test_events_are_inserted_as_bulk_create_inserts_them(hands):
    by_orm, by_sql = hands
    when = timezone.now()
    data = [{"type": "action", "seat": 0, "action": "discard 5m"}, {"type": "draw", "t": "中"}]
    Event.objects.bulk_create(
        Event(hand=by_orm, seq=100 + i, version=7, kind=d["type"], data=d, created_at=when)
        for i, d in enumerate(data)
    )
    with CaptureQueriesContext(connection) as queries:
        compiled.insert_events(
            [(by_sql.pk, 100 + i, 7, d["type"], d, when) for i, d in enumerate(data)]
        )
        compiled.insert_events([])  # nothing to write: no statement
    assert len(queries) == 1 and queries[0]["sql"].startswith("INSERT")

    def logged(hand):
        rows = Event.objects.filter(hand=hand, seq__gte=100).order_by("seq")
        return [
            {k: v for k, v in model_to_dict(e).items() if k not in {"id", "hand"}} for e in rows
        ]

    assert logged(by_sql) == logged(by_orm) and len(logged(by_sql)) == 2


def test_a_timers_update_writes_its_two_columns_only(hands):
    hand = hands[0]
    before = row(hand)
    when = timezone.now()
    hand.timer_version, hand.timer_at, hand.version = 42, when, 999
    compiled.save_timer(hand)
    assert row(hand) == before | {"timer_version": 42, "timer_at": when}
