"""How many watch a table, for its players' screens.

One Watcher row per open spectator socket, refreshed by the page's heartbeat and counted
while fresh, as a seat's connections are (tables.presence). The count changes only when a
spectator comes or goes, so only then is it pushed: a "watchers.changed" message to the
table's group, on which each player's socket counts and sends its one fragment. A move's
push reads nothing of it (spectators never slow the players down).

The rows are also what caps spectator sockets (``admit``): per account across tables, and
per table. Counting fresh rows works across web processes, and a killed process's rows
stop counting once stale, before the sweeper even reaps them.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from . import broadcast
from .models import Table, Watcher
from .presence import fresh_since


def admit(table: Table, user, channel: str, language: str = "") -> str:
    """A spectator socket opening: counted, or refused past a cap (the reason, shown to
    them). The row goes in first and the caps are checked counting it: two sockets racing
    for the last place may both be refused, never both admitted."""
    _store(table, user, channel, timezone.now(), language)
    refusal = _over_cap(table, user)
    if refusal:  # the players were not told of it: nothing to tell them now
        Watcher.objects.filter(channel_name=channel).delete()
    else:
        _announce(table.group)
    return refusal


def _over_cap(table: Table, user) -> str:
    fresh = Watcher.objects.filter(last_seen__gte=fresh_since(timezone.now()))
    if fresh.filter(user=user).count() > settings.TABLES_WATCH_SOCKETS_PER_ACCOUNT:
        return _("You are watching in too many tabs: close one to watch here.")
    if fresh.filter(table=table).count() > settings.TABLES_WATCH_SOCKETS_PER_TABLE:
        return _("This table has as many spectators as it can take: try again later.")
    return ""


def arrived(
    table: Table, user, channel: str, now: datetime.datetime | None = None, language: str = ""
) -> None:
    _store(table, user, channel, now or timezone.now(), language)
    _announce(table.group)


def _store(table: Table, user, channel: str, now: datetime.datetime, language: str) -> None:
    Watcher.objects.update_or_create(
        channel_name=channel,
        defaults={"table": table, "user": user, "last_seen": now, "language": language},
    )


def beat(
    table: Table, user, channel: str, now: datetime.datetime | None = None, language: str = ""
) -> None:
    """A spectator page's ping. A row reaped meanwhile (a background tab's pings slowed
    past STALE) comes back, and the players are told."""
    now = now or timezone.now()
    if not Watcher.objects.filter(channel_name=channel).update(last_seen=now):
        arrived(table, user, channel, now, language)


def left(table: Table, channel: str) -> None:
    deleted, _ = Watcher.objects.filter(channel_name=channel).delete()
    if deleted:
        _announce(table.group)


def count(table_id: int, now: datetime.datetime | None = None) -> int:
    """How many users watch (a spectator in two tabs is one)."""
    since = fresh_since(now or timezone.now())
    fresh = Watcher.objects.filter(table_id=table_id, last_seen__gte=since)
    return fresh.values("user_id").distinct().count()


def languages(table_id: int, now: datetime.datetime | None = None) -> list[str]:
    """The page languages the table's fresh spectators read it in (none: nobody watches)."""
    since = fresh_since(now or timezone.now())
    fresh = Watcher.objects.filter(table_id=table_id, last_seen__gte=since)
    return list(fresh.values_list("language", flat=True).distinct().order_by())


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
