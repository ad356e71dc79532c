"""Who is at a table: one Connection row per open WebSocket, refreshed by the page's
heartbeat (a ping every HEARTBEAT seconds). A connection counts only while it is fresh.

A clean close removes its row. A web process that dies takes no close with it: its rows
stop being refreshed, and after STALE seconds the sweeper reaps them and counts the seat
as gone since its last heartbeat, so the escape limit (RULES.md 3.13, 90 s) is measured
from the moment the player was last heard of, whatever happened to the process.

``Seat.connections`` and ``Seat.disconnected_at`` are kept here, as the rest of the app
reads them: the number of fresh connections, and since when there has been none.
"""

from __future__ import annotations

import datetime
from functools import cache

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from .models import Connection, Hand, Seat

HEARTBEAT = 20  # seconds between the page's pings (a background tab may ping late)
STALE = 60  # a connection not heard from for this long is gone


def fresh_since(now: datetime.datetime) -> datetime.datetime:
    """A socket heard from since then is alive (players' and spectators' alike)."""
    return now - datetime.timedelta(seconds=STALE)


# A seat with no connection for this long is shown to the opponent as away (a reload or a
# network blip is back sooner).
AWAY_AFTER = datetime.timedelta(seconds=5)


def shown_away(seat: Seat, now: datetime.datetime | None = None) -> bool:
    """What the opponent's screen says of this seat (as read): away for AWAY_AFTER."""
    if seat.disconnected_at is None or seat.connections > 0:
        return False
    return (now or timezone.now()) - seat.disconnected_at >= AWAY_AFTER


def joined(seat: Seat, channel: str, now: datetime.datetime | None = None) -> None:
    now = now or timezone.now()
    with transaction.atomic():
        Connection.objects.update_or_create(
            channel_name=channel, defaults={"seat_id": seat.pk, "last_seen": now}
        )
        _recount(seat.pk, now)


def beat(channel: str, table_id: int, now=None) -> tuple[bool, int | None]:
    """The page's heartbeat: this connection is alive (False if it was already reaped), and
    the version of the table's latest hand, which the page's own is checked against. One
    statement: every open socket pings, and at a slow pace the pings are a large share
    of the queries (docs/BENCHMARKS-diary.md, session 6)."""
    seen = Connection._meta.get_field("last_seen")
    params = [seen.get_db_prep_save(now or timezone.now(), connection), channel, table_id]
    with connection.cursor() as cursor:
        cursor.execute(_beat_sql(connection.vendor), params)
        row = cursor.fetchone()
    if row is None:  # no row refreshed, so nothing returned: read the version alone
        version = (
            Hand.objects.filter(table_id=table_id)
            .order_by("-number")
            .values_list("version", flat=True)
            .first()
        )
        return False, version
    return True, row[0]


@cache  # per database vendor (its quoting): built once, not on every ping
def _beat_sql(vendor: str) -> str:
    qn = connection.ops.quote_name

    def column(model, name: str) -> str:
        return qn(model._meta.get_field(name).column)

    return (
        f"UPDATE {qn(Connection._meta.db_table)} SET {column(Connection, 'last_seen')} = %s"
        f" WHERE {column(Connection, 'channel_name')} = %s"
        f" RETURNING (SELECT {column(Hand, 'version')} FROM {qn(Hand._meta.db_table)}"
        f" WHERE {column(Hand, 'table')} = %s ORDER BY {column(Hand, 'number')} DESC LIMIT 1)"
    )


def left(seat: Seat, channel: str, now: datetime.datetime | None = None) -> bool:
    """A clean close. True when the seat has no fresh connection left."""
    now = now or timezone.now()
    with transaction.atomic():
        Connection.objects.filter(channel_name=channel).delete()
        return _recount(seat.pk, now)


def present(seat_id: int, now: datetime.datetime | None = None) -> bool:
    now = now or timezone.now()
    return Connection.objects.filter(seat_id=seat_id, last_seen__gte=fresh_since(now)).exists()


def reap(now: datetime.datetime | None = None, seat_ids=None) -> list[int]:
    """Drop stale connections (a dead process, a vanished network); returns the seats
    that have none left, now marked disconnected since their last heartbeat."""
    now = now or timezone.now()
    stale = Connection.objects.filter(last_seen__lt=fresh_since(now))
    if seat_ids is not None:
        stale = stale.filter(seat_id__in=seat_ids)
    gone = []
    for seat_id, last in (
        stale.values("seat_id").annotate(last=Max("last_seen")).values_list("seat_id", "last")
    ):
        with transaction.atomic():
            Connection.objects.filter(seat_id=seat_id, last_seen__lt=fresh_since(now)).delete()
            if _recount(seat_id, now, since=last):
                gone.append(seat_id)
    return gone


def _recount(seat_id: int, now: datetime.datetime, since=None) -> bool:
    """Write the seat's fresh-connection count; True when it is zero."""
    seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
    if seat is None:
        return False
    live = Connection.objects.filter(seat_id=seat_id, last_seen__gte=fresh_since(now)).count()
    if live:
        Seat.objects.filter(pk=seat_id).update(connections=live, disconnected_at=None)
        return False
    away = seat.disconnected_at or since or now
    Seat.objects.filter(pk=seat_id).update(connections=0, disconnected_at=away)
    return True
