"""The players' open pages: connects, disconnects, heartbeats, and the absence the
opponent is told of (tables.presence keeps the counts)."""

from __future__ import annotations

import datetime

from .. import broadcast, presence
from ..models import Seat, Table
from .recording import enqueue_on_commit


def connected(seat: Seat, channel: str) -> None:
    """A page's socket opened. A player the opponent was told is away is back: their
    screens drop the tag (``seat`` was read before this connection counted)."""
    presence.joined(seat, channel)
    if presence.shown_away(seat):
        _presence_changed(seat.table)


def disconnected(seat: Seat, channel: str) -> None:
    """A connection closed; with none left during play, the escape clock starts, and the
    opponent is told once the player has stayed away past presence.AWAY_AFTER (a reload
    comes back sooner, and should not flash a tag on the other screen)."""
    if presence.left(seat, channel):
        table = Table.objects.select_related("ruleset").get(pk=seat.table_id)
        if table.status == Table.Status.PLAYING:
            limit = table.ruleset.engine().timers.escape
            enqueue_on_commit("escape_check", seat.pk, countdown=limit + 1)
            away = presence.AWAY_AFTER.total_seconds()
            enqueue_on_commit("announce_absence", seat.pk, countdown=away + 0.5)


def announce_absence(seat_id: int, now: datetime.datetime | None = None) -> bool:
    """The task disconnected() sends: if the player is still away, the table's screens
    re-render with the tag (presenters: the seat's ``away``)."""
    seat = Seat.objects.select_related("table").filter(pk=seat_id).first()
    if seat is None or seat.table.status != Table.Status.PLAYING:
        return False
    if not presence.shown_away(seat, now):
        return False
    _presence_changed(seat.table)
    return True


def _presence_changed(table: Table) -> None:
    """A player away or back, outside the hand (no version): the screens re-render now."""
    broadcast.group_send(table.group, {"type": "hand.changed", "version": None})


def heartbeat(channel: str, table_id: int) -> int | None:
    """A page's ping on ``channel``: its connection is alive; returns the version of the
    table's latest hand (presence.beat: one statement)."""
    return presence.beat(channel, table_id)[1]
