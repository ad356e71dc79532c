"""Quick match: a queue per (tier, ruleset) that pairs two waiting players into a Match.

Pairing runs when a player joins and again on every poll of the waiting page, so two
players who joined at the same instant (neither saw the other's uncommitted ticket) are
still paired on the next poll. Tickets are locked own-ticket-first and the partner with
SKIP LOCKED: two pairings in flight never wait on each other; one of them simply retries
on its next poll.

Bot fill: in a tier with ``bot_fill_seconds``, a player still waiting (and still polling)
that long is matched with the tier's bot. A Celery task scheduled with the ticket does it
on time; every poll checks too, so a lost task delays the bot by one poll, not more.
"""

from __future__ import annotations

import datetime

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, OuterRef
from django.dispatch import receiver
from django.utils import timezone

from accounts.signals import player_banned
from catalogue.models import RoomTier
from mahjong.tables.models import Hand, Match, Seat, Table

from .models import QueueTicket

# A match (quick or private) is made while both players' pages poll, and each page goes to
# the table within seconds. One nobody sat down at for this long is called off: opening
# its table later would seat an opponent long gone, who would time out and pay an escape.
UNSEATED_AFTER = datetime.timedelta(minutes=5)


class EntryRefused(Exception):
    """The player may not enter this tier; the message says why."""


def _fresh_since() -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=settings.MATCHMAKING_STALE_SECONDS)


def check_interval() -> int:
    """How often a waiting ticket is looked at for a page that stopped polling."""
    return settings.MATCHMAKING_STALE_SECONDS * 3


def _task(name: str):
    # By name, through Celery's registry: lobby.tasks calls this module, which therefore
    # does not import it.
    return current_app.tasks[f"lobby.tasks.{name}"]


def join(user, tier: RoomTier) -> QueueTicket:
    from mahjong.tables.services import in_play_refusal

    refusal = tier.entry_refusal(user.beans) or in_play_refusal(user)
    if refusal:
        raise EntryRefused(refusal)
    with transaction.atomic():
        # One queue at a time: joining another tier leaves the previous queue.
        current = (
            QueueTicket.objects.select_for_update()
            .filter(player=user, state=QueueTicket.State.WAITING)
            .first()
        )
        if current and current.tier_id == tier.pk and current.ruleset_id == tier.ruleset_id:
            current.last_seen = timezone.now()
            current.save(update_fields=["last_seen"])
            ticket = current
        else:
            if current:
                current.state = QueueTicket.State.CANCELLED
                current.save(update_fields=["state"])
            ticket = QueueTicket.objects.create(player=user, tier=tier, ruleset_id=tier.ruleset_id)
            if not settings.CELERY_TASK_ALWAYS_EAGER:
                # After commit, so the worker never looks for a ticket not there yet. Eager
                # mode (no Redis) would run the check at once, before the player is stale.
                transaction.on_commit(
                    lambda: _task("expire_ticket_if_stale").apply_async(
                        (ticket.pk,), countdown=check_interval()
                    )
                )
                if tier.fills_with_bot:
                    transaction.on_commit(
                        lambda: _task("fill_with_bot").apply_async(
                            (ticket.pk,), countdown=tier.bot_fill_seconds
                        )
                    )
    try_pair(ticket) or fill_with_bot(ticket)
    ticket.refresh_from_db()
    return ticket


def poll(ticket: QueueTicket) -> QueueTicket:
    """The waiting page's heartbeat: stay fresh, try to pair, return the current state."""
    if ticket.state == QueueTicket.State.WAITING:
        if ticket.tier.entry_refusal(ticket.player.beans):
            # An operator closed the room (or moved its entry range) while they waited: a
            # lone player was never paired nor given a bot, the page said "waiting" for
            # good. The view says why they are back in the lobby.
            cancel(ticket)
        else:
            QueueTicket.objects.filter(pk=ticket.pk, state=QueueTicket.State.WAITING).update(
                last_seen=timezone.now()
            )
            try_pair(ticket) or fill_with_bot(ticket)
    ticket.refresh_from_db()
    return ticket


def bot_fill_due(ticket: QueueTicket, now: datetime.datetime | None = None) -> float | None:
    """Seconds until the ticket's tier fills its seat with a bot (0 or less: now), or None
    when the tier never does."""
    tier = ticket.tier
    if not tier.fills_with_bot:
        return None
    due = ticket.created_at + datetime.timedelta(seconds=tier.bot_fill_seconds)
    return (due - (now or timezone.now())).total_seconds()


def fill_with_bot(ticket: QueueTicket) -> Match | None:
    """Match a player who waited the tier's bot-fill time, still waiting and polling, with
    the bot of the tier's level (seat two). None when it is not time, or not any more."""
    from accounts.bot_wallets import top_up
    from accounts.builtin import bot_for

    with transaction.atomic():
        mine = (
            # Only the ticket's row: a plain FOR UPDATE would lock the joined tier, ruleset
            # and player rows too, making every pairing in the tier wait on one row and
            # deadlock with the foreign-key checks (FOR KEY SHARE) of a match or table
            # being created (found by bench/load.py, issue 9).
            QueueTicket.objects.select_for_update(of=("self",))
            .select_related("tier__ruleset", "player")
            .filter(pk=ticket.pk, state=QueueTicket.State.WAITING)
            .first()
        )
        if mine is None or mine.last_seen < _fresh_since():
            return None
        wait = bot_fill_due(mine)
        if wait is None or wait > 0:
            return None
        tier = mine.tier
        if tier.entry_refusal(mine.player.beans):
            mine.state = QueueTicket.State.CANCELLED
            mine.save(update_fields=["state"])
            return None
        bot = bot_for(tier.bot_fill_level)
        top_up(bot, tier.entry_min)  # a bot that lost its beans can still cover its stakes
        match = Match.objects.create(
            kind=Match.Kind.QUICK,
            tier=tier,
            ruleset_id=mine.ruleset_id,
            base_points=tier.ruleset.engine().base_points,
            beans_per_point=tier.beans_per_point,
            ranked=True,
            player_one_id=mine.player_id,
            player_two=bot,
        )
        mine.state, mine.match = QueueTicket.State.MATCHED, match
        mine.save(update_fields=["state", "match"])
        return match


def try_pair(ticket: QueueTicket) -> Match | None:
    with transaction.atomic():
        mine = (
            QueueTicket.objects.select_for_update(of=("self",))  # the ticket only, as above
            .select_related("tier__ruleset", "player")
            .filter(pk=ticket.pk, state=QueueTicket.State.WAITING)
            .first()
        )
        if mine is None:
            return None
        partner = (
            QueueTicket.objects.select_for_update(skip_locked=True)
            .filter(
                state=QueueTicket.State.WAITING,
                tier_id=mine.tier_id,
                ruleset_id=mine.ruleset_id,
                last_seen__gte=_fresh_since(),
            )
            .exclude(player_id=mine.player_id)
            .order_by("created_at", "id")
            .first()
        )
        if partner is None:
            return None
        # Beans may have changed since joining (a deduction, another settlement).
        for t in (mine, partner):
            if mine.tier.entry_refusal(t.player.beans):
                t.state = QueueTicket.State.CANCELLED
                t.save(update_fields=["state"])
                return None
        first, second = sorted([mine, partner], key=lambda t: (t.created_at, t.pk))
        match = Match.objects.create(
            kind=Match.Kind.QUICK,
            tier=mine.tier,
            ruleset_id=mine.ruleset_id,
            base_points=mine.tier.ruleset.engine().base_points,
            beans_per_point=mine.tier.beans_per_point,
            ranked=True,
            player_one_id=first.player_id,
            player_two_id=second.player_id,
        )
        QueueTicket.objects.filter(pk__in=[mine.pk, partner.pk]).update(
            state=QueueTicket.State.MATCHED, match=match
        )
        return match


def cancel(ticket: QueueTicket) -> bool:
    """True if the ticket stopped waiting now; False if it had already been matched."""
    return bool(
        QueueTicket.objects.filter(pk=ticket.pk, state=QueueTicket.State.WAITING).update(
            state=QueueTicket.State.CANCELLED
        )
    )


def waiting_counts() -> dict[int, int]:
    """Fresh waiting players per tier id, in one query."""
    rows = (
        QueueTicket.objects.filter(state=QueueTicket.State.WAITING, last_seen__gte=_fresh_since())
        .values("tier_id")
        .annotate(n=Count("id"))
    )
    return {row["tier_id"]: row["n"] for row in rows}


def playing_counts() -> dict[int, int]:
    """Players at a hand in play per tier id, in one query: the people (not the bots that
    fill a seat) seated at a room's table whose hand is not over, as "in play" means for
    one game at a time (tables.services.table_in_play). A table left between hands waits
    for the sweeper with nobody playing at it: it does not count."""
    in_progress = Exists(Hand.objects.filter(table=OuterRef("table"), ended_at__isnull=True))
    rows = (
        Seat.objects.filter(
            in_progress, table__status=Table.Status.PLAYING, table__tier__isnull=False, bot_level=""
        )
        .values("table__tier_id")
        .annotate(n=Count("user_id", distinct=True))
    )
    return {row["table__tier_id"]: row["n"] for row in rows}


def call_off_unseated(now: datetime.datetime | None = None) -> int:
    """The sweeper's pass: READY matches older than UNSEATED_AFTER become ABANDONED (a
    READY match has no table: the table opens in the same transaction that makes it
    PLAYING). Returns how many."""
    return Match.objects.filter(state=Match.State.READY, created_at__lt=_made_before(now)).update(
        state=Match.State.ABANDONED
    )


def is_unseated(match: Match, now: datetime.datetime | None = None) -> bool:
    """Called off already, or due to be: no table may open for it."""
    if match.state == Match.State.ABANDONED:
        return True
    return match.state == Match.State.READY and match.created_at < _made_before(now)


def _made_before(now: datetime.datetime | None) -> datetime.datetime:
    """A READY match made before this is due to be called off."""
    return (now or timezone.now()) - UNSEATED_AFTER


def leave_queues(player_ids) -> None:
    """Cancel these players' waiting tickets: a player who sits down elsewhere (a bot, a
    private room, a stage) or is banned would otherwise still be paired into a table."""
    QueueTicket.objects.filter(player_id__in=player_ids, state=QueueTicket.State.WAITING).update(
        state=QueueTicket.State.CANCELLED
    )


@receiver(player_banned, dispatch_uid="lobby.matchmaking.leave_queue_when_banned")
def leave_queue_when_banned(sender, user_id, **kwargs):
    leave_queues([user_id])
