"""Everything before a hand that is not the catalogue's: the quick-match queue and
private rooms. Both end in a Match (mahjong.tables), which a table is then opened for.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.codes import new_public_id


class QueueTicket(models.Model):
    """A player waiting for a quick match in one tier."""

    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        MATCHED = "matched", _("Matched")
        CANCELLED = "cancelled", _("Cancelled")

    public_id = models.CharField(
        _("public id"), max_length=12, unique=True, default=new_public_id, editable=False
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="queue_tickets",
        verbose_name=_("player"),
    )
    tier = models.ForeignKey(
        "catalogue.RoomTier",
        on_delete=models.CASCADE,
        related_name="tickets",
        verbose_name=_("room tier"),
    )
    ruleset = models.ForeignKey(
        "catalogue.Ruleset", on_delete=models.CASCADE, related_name="+", verbose_name=_("ruleset")
    )
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.WAITING
    )
    match = models.ForeignKey(
        "tables.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tickets",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("joined"), default=timezone.now)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now)

    class Meta:
        verbose_name = _("queue ticket")
        verbose_name_plural = _("queue tickets")
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(state="waiting"),
                name="one_waiting_ticket_per_player",
            )
        ]
        indexes = [models.Index(fields=["tier", "ruleset", "state", "created_at"])]

    def __str__(self):
        return self.public_id

    def get_absolute_url(self):
        return reverse("lobby:queue", args=[self.public_id])


ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read out loud safely


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(6))


class PrivateRoom(models.Model):
    """A friends' room: a 6-character code, a share link, unranked, no beans at stake."""

    class State(models.TextChoices):
        OPEN = "open", _("Waiting for a guest")
        MATCHED = "matched", _("Guest joined")
        CLOSED = "closed", _("Closed")

    code = models.CharField(
        _("code"), max_length=6, unique=True, default=new_room_code, editable=False
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="hosted_rooms",
        verbose_name=_("host"),
    )
    ruleset = models.ForeignKey(
        "catalogue.Ruleset", on_delete=models.PROTECT, related_name="+", verbose_name=_("ruleset")
    )
    base_points = models.PositiveIntegerField(_("base (底分)"), default=1)
    state = models.CharField(_("state"), max_length=8, choices=State.choices, default=State.OPEN)
    allow_spectators = models.BooleanField(
        _("spectators allowed"),
        default=True,
        help_text=_("The host may close the room's table to spectators."),
    )
    match = models.OneToOneField(
        "tables.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="private_room",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("private room")
        verbose_name_plural = _("private rooms")
        ordering = ["-created_at"]

    def __str__(self):
        return self.code

    def get_absolute_url(self):
        return reverse("lobby:room", args=[self.code])
