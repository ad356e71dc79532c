"""One review per (hand, seat): the engine's ``HandReview.to_dict()`` as JSON, and its
hand-level line in columns, which the profile's trend reads without the JSON."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

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
