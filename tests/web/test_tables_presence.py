"""Presence that survives a dead web process: a connection counts only while its heartbeat
is fresh, so a killed daphne's leftover rows go stale, the sweeper reaps them and the 90 s
escape rule (RULES.md 3.13) runs from the player's last heartbeat."""

import datetime

import pytest
from django.utils import timezone

from mahjong.tables import presence, services
from mahjong.tables.models import Connection, Hand, Seat

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]

ESCAPE = 90  # classic's escape limit, seconds


def seconds(n):
    return datetime.timedelta(seconds=n)


@pytest.fixture(autouse=True)
def no_overdue_decisions(duel):
    """The sweeps here look at presence only: no decision of the hand is overdue."""
    Hand.objects.filter(table=duel).update(deadline=None)


def killed_process_left(seat, last_heard):
    """What a web process killed mid-game leaves: a connection row nobody will close."""
    services.connected(seat, "dead-daphne!abc")
    Connection.objects.filter(channel_name="dead-daphne!abc").update(last_seen=last_heard)


def test_a_seat_with_a_fresh_connection_is_present_and_counted(duel):
    seat = Seat.objects.get(table=duel, index=0)
    services.connected(seat, "chan-a")
    seat.refresh_from_db()
    assert seat.connections == 1 and seat.disconnected_at is None
    assert presence.present(seat.pk)
    assert not presence.present(seat.pk, now=timezone.now() + seconds(presence.STALE + 1))


def test_a_stale_connection_of_a_dead_process_ends_in_an_escape_90_s_after_its_last_ping(duel):
    now = timezone.now()
    seat = Seat.objects.get(table=duel, index=0)
    heard = now - seconds(presence.STALE + 5)
    killed_process_left(seat, heard)
    seat.refresh_from_db()
    assert seat.connections == 1 and seat.disconnected_at is None  # as the process left it
    # the sweeper reaps the stale row: gone since the last heartbeat, not an escape yet
    assert services.sweep(now=now) == 0
    seat.refresh_from_db()
    assert seat.connections == 0 and seat.disconnected_at == heard
    assert not Connection.objects.filter(seat=seat).exists()
    assert duel.current_hand().result is None
    # 90 s after the last heartbeat, the next sweep finds an escape
    assert services.sweep(now=heard + seconds(ESCAPE - 1)) == 0
    assert services.sweep(now=heard + seconds(ESCAPE + 1)) == 1
    result = duel.current_hand().result
    assert result["kind"] == "escape" and result["escaper"] == 0


def test_the_escape_check_itself_does_not_count_a_stale_connection(duel):
    seat = Seat.objects.get(table=duel, index=1)
    killed_process_left(seat, timezone.now() - seconds(ESCAPE + 5))
    assert services.check_escape(seat.pk)
    assert duel.current_hand().result["escaper"] == 1


def test_a_heartbeat_keeps_the_seat_present_next_to_a_dead_connection(duel):
    now = timezone.now()
    seat = Seat.objects.get(table=duel, index=0)
    killed_process_left(seat, now - seconds(300))
    services.connected(seat, "alive!xyz")  # reconnected to another process
    assert presence.beat("alive!xyz", duel.pk, now=now + seconds(200)) == (
        True,
        duel.current_hand().version,
    )
    later = now + seconds(230)
    assert services.sweep(now=later) == 0
    seat.refresh_from_db()
    assert seat.connections == 1 and seat.disconnected_at is None
    assert list(Connection.objects.values_list("channel_name", flat=True)) == ["alive!xyz"]
    assert duel.current_hand().result is None
    # and once that one falls silent too, the limit runs from its last ping
    assert services.sweep(now=now + seconds(200 + presence.STALE + 1)) == 0
    assert services.sweep(now=now + seconds(200 + ESCAPE + 1)) == 1


def test_a_heartbeat_for_a_reaped_connection_changes_nothing(duel):
    assert presence.beat("never-connected", duel.pk) == (False, duel.current_hand().version)


def test_a_heartbeat_is_one_statement_that_also_reads_the_tables_version(duel):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seat = Seat.objects.get(table=duel, index=0)
    services.connected(seat, "beating!1")
    Hand.objects.filter(pk=duel.current_hand().pk).update(version=41)
    Hand.objects.create(table=duel, number=99, state={}, version=57, commitment="x")
    then = timezone.now() + seconds(30)
    with CaptureQueriesContext(connection) as queries:
        assert presence.beat("beating!1", duel.pk, now=then) == (True, 57)  # the latest hand
    assert len(queries) == 1
    assert Connection.objects.get(channel_name="beating!1").last_seen == then


def test_the_opponent_is_told_of_a_player_away_for_more_than_a_few_seconds(
    duel, alice, bob, client_of, monkeypatch
):
    """A reload is back within a second or two and shows nothing; a player gone longer is
    tagged on the other screen (told by a push: the task disconnected() sends, or the
    sweeper for a dead process's connections), and untagged when back."""
    from mahjong.tables import broadcast

    hints = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, msg: hints.append(group))
    seat = Seat.objects.get(table=duel, index=0)
    services.connected(seat, "chan-a")
    services.disconnected(Seat.objects.get(pk=seat.pk), "chan-a")

    def bobs_page():
        return client_of(bob).get(duel.get_absolute_url()).content.decode()

    assert 'data-testid="opp-away"' not in bobs_page()
    assert not services.announce_absence(seat.pk) and hints == []  # a reload's blip
    gone = timezone.now() - presence.AWAY_AFTER - seconds(1)
    Seat.objects.filter(pk=seat.pk).update(disconnected_at=gone)
    assert 'data-testid="opp-away"' in bobs_page()
    alices_page = client_of(alice).get(duel.get_absolute_url()).content.decode()
    assert 'data-testid="opp-away"' not in alices_page  # her own seat is not tagged
    assert services.announce_absence(seat.pk) and hints == [duel.group]
    services.connected(Seat.objects.get(pk=seat.pk), "chan-b")  # back: the tag goes
    assert hints == [duel.group] * 2
    assert 'data-testid="opp-away"' not in bobs_page()


def test_the_sweeper_tells_the_opponent_of_a_dead_processs_player(duel, monkeypatch):
    from mahjong.tables import broadcast

    hints = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, msg: hints.append(group))
    now = timezone.now()
    killed_process_left(Seat.objects.get(table=duel, index=0), now - seconds(presence.STALE + 5))
    services.sweep(now=now)
    assert hints == [duel.group]
