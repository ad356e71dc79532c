"""Transitions of one table racing on PostgreSQL (issue 30, items 6 and 7): each locks the
table row and then reads the latest hand, so a request that waited sees what the one
before it committed. Real threads, each with its own connection.

SQLite takes the write lock at BEGIN (settings: IMMEDIATE), so its transactions never
overlap and these races only exist on PostgreSQL (CI runs there).
"""

import threading

import pytest
from django.db import connection, connections, transaction
from django.test import Client

from accounts.builtin import bot_for
from catalogue.models import Ruleset
from mahjong.tables import services
from mahjong.tables.models import Hand, Table
from tests.web.tables_support import play_out, wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_eager_timers")]

CLICKS = 20


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row-lock races are a PostgreSQL matter; run with DATABASE_URL=postgres://...")


@pytest.fixture
def between_hands(settings, alice, bob):
    """alice and bob after hand 1's result; alice asked for the next hand already."""
    settings.MAHJONG_TEST_SEED = "locks"
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bob])
    play_out(table)
    services.ready_next(table, alice, after=1)
    return table


def _in_threads(*jobs):
    """Run each job in a thread of its own (its own connection); the exceptions raised."""
    errors = []

    def run(job):
        try:
            job()
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a thread is stuck"
    return errors


def _holding_the_lock(first, then):
    """``first`` runs and keeps its transaction open until ``then``, started meanwhile, is
    waiting for a lock; then ``first`` commits. The exceptions raised by either."""
    done, release = threading.Event(), threading.Event()
    outcome = {}

    def hold():
        with transaction.atomic():
            outcome["first"] = first()
            done.set()
            release.wait(30)

    def wait_then_run():
        done.wait(30)
        outcome["then"] = then()

    def waiting_on_a_lock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            return cursor.fetchone()[0] > 0

    def release_when_blocked():
        done.wait(30)
        wait_until(waiting_on_a_lock, what="the second request to wait for the lock")
        release.set()

    errors = _in_threads(hold, wait_then_run, release_when_blocked)
    return outcome, errors


def _orphans():
    """Hands in play at a table that is no longer open: nothing would ever end them."""
    return Hand.objects.filter(ended_at__isnull=True).exclude(table__status=Table.Status.PLAYING)


def test_a_leave_that_waited_for_the_next_hand_sees_it_started(between_hands, alice, bob):
    outcome, errors = _holding_the_lock(
        lambda: services.ready_next(between_hands, bob, after=1),
        lambda: services.leave(between_hands, alice, after=1),
    )
    assert [type(e) for e in errors] == [services.TableError], errors
    table = Table.objects.get(pk=between_hands.pk)
    assert table.status == Table.Status.PLAYING
    assert table.current_hand().number == 2 and not _orphans().exists()


def test_a_next_hand_that_waited_for_a_leave_starts_nothing(between_hands, alice, bob):
    outcome, errors = _holding_the_lock(
        lambda: services.leave(between_hands, alice, after=1),
        lambda: services.ready_next(between_hands, bob, after=1),
    )
    assert outcome["first"] == "left"
    assert [type(e) for e in errors] == [services.TableError], errors
    assert Table.objects.get(pk=between_hands.pk).status == Table.Status.FINISHED
    assert Hand.objects.filter(table=between_hands).count() == 1 and not _orphans().exists()


def test_simultaneous_next_hand_clicks_start_exactly_one_hand(settings, alice):
    settings.MAHJONG_TEST_SEED = "locks"
    table = services.open_table(Ruleset.objects.get(slug="classic"), [alice, bot_for("novice")])
    play_out(table)
    barrier = threading.Barrier(CLICKS)

    def click():
        barrier.wait()
        services.ready_next(table, alice, after=1)

    assert _in_threads(*[click] * CLICKS) == []
    assert list(Hand.objects.filter(table=table).values_list("number", flat=True)) == [1, 2]


def test_simultaneous_play_vs_bot_requests_open_one_table(alice):
    clients = []
    for _ in range(CLICKS):
        client = Client()
        client.force_login(alice)
        clients.append(client)
    barrier = threading.Barrier(CLICKS)
    statuses = []

    def press(client):
        barrier.wait()
        statuses.append(client.post("/play-bot/", {"level": "novice"}).status_code)

    assert _in_threads(*[lambda c=c: press(c) for c in clients]) == []
    assert statuses == [302] * CLICKS
    assert Table.objects.filter(seats__user=alice).count() == 1
