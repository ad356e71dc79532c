"""Live tables: who sits where, each hand's engine state (JSON + version) and the
append-only event log. Rules stay in the engine; changes go through tables.services."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.codes import new_public_id


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    ruleset = models.ForeignKey("lobby.Ruleset", on_delete=models.PROTECT, related_name="+")
    tier = models.ForeignKey(
        "lobby.RoomTier", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    match = models.OneToOneField(
        "lobby.Match", on_delete=models.PROTECT, null=True, blank=True, related_name="table"
    )
    base_points = models.PositiveIntegerField(_("base (底分)"), default=1)
    beans_per_point = models.PositiveIntegerField(_("beans per point"), default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    note = models.CharField(max_length=200, blank=True)  # why the table closed
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.public_id

    def get_absolute_url(self):
        return reverse("tables:table", args=[self.public_id])

    @property
    def group(self) -> str:
        return f"table-{self.public_id}"

    def current_hand(self) -> Hand | None:
        return self.hands.order_by("-number").first()


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    bot_level = models.CharField(max_length=20, blank=True)  # set for a bot seat
    auto_play = models.BooleanField(default=False)  # 托管 after two timeouts in a row
    timeouts = models.PositiveSmallIntegerField(default=0)  # in a row
    connections = models.IntegerField(default=0)  # live ones, kept by tables.presence
    disconnected_at = models.DateTimeField(null=True, blank=True)
    ready_next = models.BooleanField(default=False)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_player_per_seat")
        ]

    def __str__(self):
        return f"{self.table_id}:{self.index}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


class Connection(models.Model):
    """One open WebSocket of a seat, alive while its heartbeat is fresh (tables.presence).
    A web process that dies leaves its rows behind; they go stale and the sweeper reaps them."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="live_connections")
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["last_seen"])]

    def __str__(self):
        return f"{self.seat_id} {self.channel_name}"


class Hand(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    state = models.JSONField()  # the engine GameState; never leaves the server as is
    version = models.PositiveIntegerField(default=1)
    commitment = models.CharField(max_length=64)  # hash of seed+salt shown from the start
    seed = models.CharField(max_length=128, blank=True)  # revealed when the hand ends
    deadline = models.DateTimeField(null=True, blank=True)  # of the pending decision
    # The hand's timer task: the version it carries and when it fires, at or before the
    # deadline (tables.services._arm: a move adds no task while this one comes first).
    timer_version = models.PositiveIntegerField(null=True, blank=True)
    timer_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)  # fans and settlement, once ended
    ranked = models.BooleanField(default=False)  # its points went into the rank scores
    # The next Event's seq: a move appends without counting the log first.
    event_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_hand_number_per_table")
        ]
        indexes = [models.Index(fields=["deadline"]), models.Index(fields=["timer_at"])]

    def __str__(self):
        return f"{self.table_id}#{self.number} v{self.version}"

    def game(self):
        from mahjong.engine.state import GameState

        return GameState.from_dict(self.state)


class Event(models.Model):
    """Append-only: every action and what followed, for history, replays and audits.
    ``data`` may hold secrets (a private draw); only engine.views.event_for filters them."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()  # the hand version this event produced
    kind = models.CharField(max_length=20)
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="event_seq_unique")]

    def __str__(self):
        return f"{self.hand_id}:{self.seq} {self.kind}"
