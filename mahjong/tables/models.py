"""Live tables: the match two players sit down for, who sits where, each hand's engine
state (JSON + version) and the append-only event log. Rules stay in the engine; changes
go through tables.services."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.codes import new_public_id


class Match(models.Model):
    """Two players who will sit at one table."""

    class Kind(models.TextChoices):
        QUICK = "quick", _("Quick match")
        PRIVATE = "private", _("Private room")

    class State(models.TextChoices):
        READY = "ready", _("Waiting for the table")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    public_id = models.CharField(
        _("public id"), max_length=12, unique=True, default=new_public_id, editable=False
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.READY)
    tier = models.ForeignKey(
        "catalogue.RoomTier",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("room tier"),
    )
    ruleset = models.ForeignKey(
        "catalogue.Ruleset",
        on_delete=models.PROTECT,
        related_name="matches",
        verbose_name=_("ruleset"),
    )
    # Stakes are copied from the tier/room when the match is made, so an admin editing a
    # tier later never changes a game in progress.
    base_points = models.PositiveIntegerField(_("base (底分)"), default=1)
    beans_per_point = models.PositiveIntegerField(_("beans per point"), default=0)
    ranked = models.BooleanField(_("ranked"), default=True)
    player_one = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player one"),
    )
    player_two = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player two"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        db_table = "lobby_match"  # made when the lobby owned it: its rows stayed put
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_one=F("player_two")), name="match_two_different_players"
            )
        ]
        # The sweeper looks for READY matches nobody sat down at, every few seconds.
        indexes = [
            models.Index(
                fields=["created_at"], condition=Q(state="ready"), name="match_ready_created"
            )
        ]

    def __str__(self):
        return self.public_id

    def get_absolute_url(self):
        return reverse("lobby:match", args=[self.public_id])

    def seat_of(self, user) -> int | None:
        if user.pk == self.player_one_id:
            return 0
        if user.pk == self.player_two_id:
            return 1
        return None


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    public_id = models.CharField(
        _("table number"), max_length=12, unique=True, default=new_public_id, editable=False
    )
    ruleset = models.ForeignKey(
        "catalogue.Ruleset", on_delete=models.PROTECT, related_name="+", verbose_name=_("ruleset")
    )
    tier = models.ForeignKey(
        "catalogue.RoomTier",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("room tier"),
    )
    match = models.OneToOneField(
        Match,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="table",
        verbose_name=_("match"),
    )
    base_points = models.PositiveIntegerField(_("base (底分)"), default=1)
    beans_per_point = models.PositiveIntegerField(_("beans per point"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    note = models.CharField(_("note"), max_length=200, blank=True)  # why the table closed
    created_at = models.DateTimeField(_("opened"), default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self):
        return self.public_id

    def get_absolute_url(self):
        return reverse("tables:table", args=[self.public_id])

    @property
    def note_text(self) -> str:
        """Why the table closed, in the active language (tables.notes)."""
        from .notes import text

        return text(self.note)

    @property
    def group(self) -> str:
        return f"table-{self.public_id}"

    def current_hand(self) -> Hand | None:
        return self.hands.order_by("-number").first()


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player"),
    )
    bot_level = models.CharField(_("bot level"), max_length=20, blank=True)  # a bot seat's
    # 托管 after two timeouts in a row
    auto_play = models.BooleanField(_("auto-play (托管)"), default=False)
    timeouts = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    # live ones, kept by tables.presence
    connections = models.IntegerField(_("open connections"), default=0)
    disconnected_at = models.DateTimeField(_("disconnected since"), null=True, blank=True)
    ready_next = models.BooleanField(_("ready for the next hand"), default=False)
    # the browser's random value sent with "next hand" (64 hex digits, "" for none): part
    # of the next wall's seed (engine.wall.wall_seed), cleared when that hand is dealt
    contribution = models.CharField(_("contribution to the next wall"), max_length=64, blank=True)

    class Meta:
        ordering = ["index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
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


class Watcher(models.Model):
    """One open spectator socket of a table, counted while its heartbeat is fresh
    (tables.watchers): the players see how many watch. A dead process's rows go stale
    and the sweeper reaps them, as it reaps a seat's Connection rows."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="watchers")
    # one spectator however many tabs they watch in: the count is of distinct users
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField(default=timezone.now)
    # the socket's page language: the public view is rendered once per language watched
    language = models.CharField(max_length=16, default="")

    class Meta:
        indexes = [models.Index(fields=["table", "last_seen"]), models.Index(fields=["last_seen"])]

    def __str__(self):
        return f"{self.table_id} {self.channel_name}"


class Hand(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="hands", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(_("hand number"))
    # the engine GameState; never leaves the server as is
    state = models.JSONField(_("state"))
    version = models.PositiveIntegerField(_("version"), default=1)
    # hash of seed+salt shown from the start
    commitment = models.CharField(_("commitment"), max_length=64)
    seed = models.CharField(_("seed"), max_length=128, blank=True)  # revealed when it ends
    # The next hand's server seed, drawn when this one starts, and its commitment, shown on
    # this hand's result: the server is bound to it before any player contributes.
    next_seed = models.CharField(_("next hand's seed"), max_length=128, blank=True)
    next_commitment = models.CharField(_("next hand's commitment"), max_length=64, blank=True)
    # of the pending decision
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    # The hand's timer task: the version it carries and when it fires, at or before the
    # deadline (tables.services.recording.arm: a move adds no task while this one comes first).
    timer_version = models.PositiveIntegerField(_("timer's version"), null=True, blank=True)
    timer_at = models.DateTimeField(_("timer fires at"), null=True, blank=True)
    # A claim window's pause (tables.services.recording.schedule): the server acts at its end on a
    # seat with nothing to claim, and plays then a pass sent before it (``held``).
    pause_until = models.DateTimeField(_("claim pause until"), null=True, blank=True)
    held = models.CharField(_("held pass"), max_length=8, blank=True)
    # fans and settlement, once ended
    result = models.JSONField(_("result"), null=True, blank=True)
    # its points went into the rank scores
    ranked = models.BooleanField(_("ranked"), default=False)
    # The next Event's seq: a move appends without counting the log first.
    event_count = models.PositiveIntegerField(_("events"), default=0)
    created_at = models.DateTimeField(_("started"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_hand_number_per_table")
        ]
        indexes = [
            models.Index(fields=["deadline"]),
            models.Index(fields=["timer_at"]),
            models.Index(fields=["pause_until"]),
        ]

    def __str__(self):
        return f"{self.table_id}#{self.number} v{self.version}"

    def game(self):
        from mahjong.engine.state import GameState

        return GameState.from_dict(self.state)

    def moves(self) -> list[tuple[int, str, str]]:
        """(seat, action, by) of every logged decision, in the order they were applied:
        what a replay (lobby.replays) or a review (mahjong.reviews) plays back."""
        rows = self.events.filter(kind="action").order_by("seq")
        return [
            (d["seat"], d["action"], d.get("by", "")) for d in rows.values_list("data", flat=True)
        ]


class Event(models.Model):
    """Append-only: every action and what followed, for history, replays and audits.
    ``data`` may hold secrets (a private draw); only engine.views.event_for filters them."""

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="events", verbose_name=_("hand")
    )
    seq = models.PositiveIntegerField(_("sequence"))
    # the hand version this event produced
    version = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("kind"), max_length=20)
    data = models.JSONField(_("data"))
    created_at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["hand", "seq"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="event_seq_unique")]

    def __str__(self):
        return f"{self.hand_id}:{self.seq} {self.kind}"
