"""How many watch a table, for its players' screens.

One Watcher row per open spectator socket, refreshed by the page's heartbeat and counted
while fresh, as a seat's connections are (tables.presence). The count changes only when a
spectator comes or goes, so only then is it pushed: a "watchers.changed" message to the
table's group, on which each player's socket counts and sends its one fragment. A move's
push reads nothing of it (spectators never slow the players down).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils import timezone

from . import broadcast
from .models import Table, Watcher
from .presence import fresh_since


def arrived(table: Table, user, channel: str, now: datetime.datetime | None = None) -> None:
    Watcher.objects.update_or_create(
        channel_name=channel,
        defaults={"table": table, "user": user, "last_seen": now or timezone.now()},
    )
    _announce(table.group)


def beat(table: Table, user, channel: str, now: datetime.datetime | None = None) -> None:
    """A spectator page's ping. A row reaped meanwhile (a background tab's pings slowed
    past STALE) comes back, and the players are told."""
    now = now or timezone.now()
    if not Watcher.objects.filter(channel_name=channel).update(last_seen=now):
        arrived(table, user, channel, now)


def left(table: Table, channel: str) -> None:
    deleted, _ = Watcher.objects.filter(channel_name=channel).delete()
    if deleted:
        _announce(table.group)


def count(table_id: int, now: datetime.datetime | None = None) -> int:
    """How many users watch (a spectator in two tabs is one)."""
    since = fresh_since(now or timezone.now())
    fresh = Watcher.objects.filter(table_id=table_id, last_seen__gte=since)
    return fresh.values("user_id").distinct().count()


def counted(now: datetime.datetime | None = None) -> Count:
    """``count`` as an annotation of Table rows (the live tables' list)."""
    since = fresh_since(now or timezone.now())
    return Count("watchers__user", filter=Q(watchers__last_seen__gte=since), distinct=True)


def reap(now: datetime.datetime | None = None) -> int:
    """The sweeper's pass: drop the rows of spectators not heard from (a dead web process
    sends no close), and tell those tables' players. Returns the rows dropped."""
    stale = Watcher.objects.filter(last_seen__lt=fresh_since(now or timezone.now()))
    public_ids = set(stale.values_list("table__public_id", flat=True))
    if not public_ids:
        return 0
    deleted, _ = stale.delete()
    for public_id in public_ids:
        _announce(Table(public_id=public_id).group)
    return deleted


def fragment(table_id: int) -> str:
    """The players' count of spectators, as an out-of-band swap."""
    context = {"watchers": count(table_id), "oob": True}
    return render_to_string("tables/table.html#watchers", context)


def _announce(group: str) -> None:
    transaction.on_commit(lambda: broadcast.group_send(group, {"type": "watchers.changed"}))
