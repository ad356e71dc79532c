"""Celery tasks of the lobby. They take ids, re-read rows and do nothing if the world
moved on, so a late or duplicated delivery is harmless."""

import datetime

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import matchmaking
from .models import QueueTicket


@shared_task(ignore_result=True)
def expire_ticket_if_stale(ticket_id: int) -> str:
    """Leave the queue for a player whose waiting page stopped polling (closed tab)."""
    ticket = QueueTicket.objects.filter(pk=ticket_id, state=QueueTicket.State.WAITING).first()
    if ticket is None:
        return "done"
    stale_before = timezone.now() - datetime.timedelta(seconds=settings.MATCHMAKING_STALE_SECONDS)
    if ticket.last_seen < stale_before:
        QueueTicket.objects.filter(pk=ticket.pk, state=QueueTicket.State.WAITING).update(
            state=QueueTicket.State.CANCELLED
        )
        return "expired"
    # Still polling: look again later. (Eager mode in tests runs this once, not again.)
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        expire_ticket_if_stale.apply_async((ticket.pk,), countdown=matchmaking.check_interval())
    return "waiting"


@shared_task(ignore_result=True)
def fill_with_bot(ticket_id: int) -> str:
    """Give a player still waiting after the tier's bot-fill time a bot opponent. The
    queue page's poll does the same, so a lost or early delivery costs one poll at most."""
    ticket = (
        QueueTicket.objects.select_related("tier")
        .filter(pk=ticket_id, state=QueueTicket.State.WAITING)
        .first()
    )
    if ticket is None:
        return "done"
    if matchmaking.fill_with_bot(ticket):
        return "filled"
    wait = matchmaking.bot_fill_due(ticket)
    if wait is not None and wait > 0 and not settings.CELERY_TASK_ALWAYS_EAGER:
        fill_with_bot.apply_async((ticket.pk,), countdown=wait)  # the admin lengthened it
        return "waiting"
    return "not filled"
