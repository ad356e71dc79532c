"""The reads every move repeats, written once as SQL (tables.compiled): the same model
instances the ORM gives, related objects included, in one query each, with the lock's
rules kept."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from accounts import ranks
from accounts.models import RankLevel, User
from catalogue.models import RoomTier, Ruleset
from mahjong.tables import compiled, services
from mahjong.tables.models import Hand, Seat
from tests.web.tables_support import play_out

pytestmark = pytest.mark.usefixtures("no_eager_timers")


def fields(obj) -> dict:
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


@pytest.fixture
def tables(settings, alice, bob):
    """Two tables, the second in a room tier and a hand further on, so a read that
    ignored its argument or the ordering would show it."""
    settings.MAHJONG_TEST_SEED = "compiled"
    classic = Ruleset.objects.get(slug="classic")
    first = services.open_table(classic, [alice, bob])
    play_out(first)  # one game at a time: the second table's opening closes the first
    second = services.open_table(classic, [bob, alice], tier=RoomTier.objects.first())
    second_hand = second.current_hand()
    Hand.objects.create(
        table=second,
        number=second_hand.number + 1,
        state=second_hand.state,
        commitment=second_hand.commitment,
    )
    return first, second


def test_the_latest_hand_is_the_orms_with_its_table_and_tier(tables):
    for table in tables:
        expected = (
            Hand.objects.select_related("table__tier")
            .filter(table_id=table.pk)
            .order_by("-number")
            .first()
        )
        with CaptureQueriesContext(connection) as queries:
            hand = compiled.latest_hand(table.pk)
            tier = hand.table.tier  # joined: no query of its own
        assert len(queries) == 1
        assert fields(hand) == fields(expected) and hand.game() == expected.game()
        assert fields(hand.table) == fields(expected.table)
        assert (tier and fields(tier)) == (expected.table.tier and fields(expected.table.tier))
        assert hand._state.adding is False and hand._state.db == "default"
    assert tables[1].tier_id is not None and compiled.latest_hand(tables[1].pk).number == 2


def test_seats_come_in_order_with_their_players_and_rank_levels(tables, alice, bob):
    first, second = tables
    levels = list(RankLevel.objects.order_by("threshold"))
    assert len(levels) >= 3
    # bob below the first level's threshold (if it has one), alice just on the third
    User.objects.filter(pk=bob.pk).update(rank_score=max(levels[0].threshold - 1, 0))
    User.objects.filter(pk=alice.pk).update(rank_score=levels[2].threshold)
    with CaptureQueriesContext(connection) as queries:
        seats = compiled.seats(second.pk)
        names = [s.user.username for s in seats]
        joined = [s.user.rank_level for s in seats]
    assert len(queries) == 1 and names == [bob.username, alice.username]
    expected = list(Seat.objects.filter(table=second).select_related("user").order_by("index"))
    assert [model_to_dict(s) for s in seats] == [model_to_dict(s) for s in expected]
    users = [fields(s.user) for s in seats]
    assert [u.pop("rank_level") for u in users] == joined
    assert users == [fields(s.user) for s in expected]
    assert joined == [ranks.progress(s.user.rank_score, levels).level for s in expected]
    assert joined[1] == levels[2]
    assert compiled.seats(first.pk)[0].user == alice and compiled.seats(10**9) == []


def test_the_lock_is_the_tables_row_with_what_settling_reads_then_the_hand(tables):
    table = tables[1]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = compiled.locked_table(table.pk)
        joined = (locked.ruleset.slug, locked.tier.pk, locked.match)
        hand = compiled.current_hand(table.pk)
    assert len(queries) == 2 and hand.number == 2 and hand.table_id == table.pk
    assert joined == (table.ruleset.slug, table.tier_id, None)
    if connection.vendor == "postgresql":
        assert "FOR NO KEY UPDATE OF" in queries[0]["sql"]
        assert "FOR " not in queries[1]["sql"]  # the table's lock covers its hands
    assert compiled.locked_table(10**9) is None and compiled.current_hand(10**9) is None


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_locked_read_is_refused_as_the_orms():
    orm = Hand.objects.select_for_update().filter(table_id=1)
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            list(orm)
        with pytest.raises(TransactionManagementError, match="outside of a transaction"):
            compiled.locked_table(1)
    else:  # SQLite: no row locks, nothing to refuse
        assert list(orm) == [] and compiled.locked_table(1) is None


def test_a_read_writes_its_sql_once_per_database_and_reuses_it(tables):
    table = tables[0]
    read = compiled.Read((compiled.Part(Seat, "s"),), where='s."table_id" = %s')
    assert len(read(table.pk)) == 2 and len(read(table.pk)) == 2
    assert list(read._sql) == [connection.vendor]
    written = read._sql[connection.vendor]
    assert len(read(table.pk)) == 2 and read._sql[connection.vendor] is written


def test_a_field_type_the_reads_do_not_convert_is_refused_when_first_read():
    from django.db import models

    class Odd(models.Model):
        when = models.DateField()

        class Meta:
            app_label = "tables"
            managed = False

    with pytest.raises(TypeError, match="Odd.when: a DateField"):
        compiled.Read((compiled.Part(Odd, "o"),), where='o."id" = %s')(1)


def test_a_timers_look_is_the_unfinished_hands_timing_in_one_query(tables):
    hand = tables[1].current_hand()  # tables[0] was played out
    with CaptureQueriesContext(connection) as queries:
        row = compiled.timing(hand.pk)
        seen = (row.table_id, row.version, row.deadline, row.timer_version)
    assert len(queries) == 1
    assert seen == (hand.table_id, hand.version, hand.deadline, hand.timer_version)
    assert row.get_deferred_fields() >= {"state", "result"}  # the 1 KB state stays behind
    Hand.objects.filter(pk=hand.pk).update(ended_at=hand.created_at)
    assert compiled.timing(hand.pk) is None and compiled.timing(10**9) is None
