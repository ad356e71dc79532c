"""One review per (hand, seat): the engine's ``HandReview.to_dict()`` as JSON, and its
hand-level line in columns, which the profile's trend reads without the JSON; the
puzzles (何切) taken from those reviews, and the players' answers to them."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.codes import new_public_id
from mahjong.engine.review import HandReview
from mahjong.tables.models import Hand


class Review(models.Model):
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("hand")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="hand_reviews",
        verbose_name=_("player"),
    )
    choices = models.PositiveIntegerField(_("decisions with a choice"))
    agreed = models.PositiveIntegerField(_("agreed with the bot"))
    mistakes = models.PositiveIntegerField(_("mistakes"))
    tiles_given_up = models.PositiveIntegerField(_("tiles given up"))
    data = models.JSONField(_("review"))
    reviewed_at = models.DateTimeField(_("reviewed at"), default=timezone.now)

    class Meta:
        verbose_name = _("hand review")
        verbose_name_plural = _("hand reviews")
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="one_review_per_hand_seat")
        ]
        indexes = [models.Index(fields=["player", "-reviewed_at"], name="review_player_recent")]

    def __str__(self) -> str:
        return f"{self.hand} · seat {self.seat}"

    def engine_review(self) -> HandReview:
        return HandReview.from_dict(self.data)


class Puzzle(models.Model):
    """A 何切 position of a finished hand (reviews.puzzles): what ``seat`` saw before move
    ``step``, its discards with their measures, and the one clearly best."""

    code = models.CharField(
        _("public id"), max_length=12, unique=True, default=new_public_id, editable=False
    )
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="puzzles", verbose_name=_("hand")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    step = models.PositiveIntegerField(_("step"))
    ruleset = models.CharField(_("ruleset"), max_length=40)
    position = models.JSONField(_("position"))  # the seat's view, reviews.puzzles.SEEN
    options = models.JSONField(_("options"))  # [{action, tile, shanten, acceptance, tiles}]
    answer = models.CharField(_("answer"), max_length=40)
    chosen = models.CharField(_("chosen in the hand"), max_length=40)
    bot = models.CharField(_("the bot's choice"), max_length=40)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "seat", "step"], name="one_puzzle_per_hand_seat_step"
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} · {self.hand} · step {self.step}"

    def get_absolute_url(self) -> str:
        return reverse("lobby:puzzle", args=[self.code])

    def choices(self) -> list[str]:
        return [o["action"] for o in self.options]


class PuzzleAttempt(models.Model):
    """A player's first answer to a puzzle: the one that counts."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="puzzle_attempts",
        verbose_name=_("player"),
    )
    puzzle = models.ForeignKey(
        Puzzle, on_delete=models.CASCADE, related_name="attempts", verbose_name=_("puzzle")
    )
    choice = models.CharField(_("choice"), max_length=40)
    correct = models.BooleanField(_("correct"))
    created = models.DateTimeField(_("answered at"), default=timezone.now)

    class Meta:
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_attempt_per_puzzle")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.puzzle.code}"
