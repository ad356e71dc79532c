"""Ratings and the compact per-hand results leaderboards read.

Written only by ``ratings.services.record_ranked_hand``, in the transaction that settles
a ranked hand (tables.services), so they never disagree with the hands they describe.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import glicko2


class Rating(models.Model):
    """A player's current Glicko-2 rating, as of their last rated hand (``rated_at``);
    the deviation shown today also grows with the days since (services.current)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating",
        verbose_name=_("player"),
    )
    rating = models.FloatField(_("rating"), default=glicko2.START_RATING)
    deviation = models.FloatField(_("rating deviation"), default=glicko2.START_DEVIATION)
    volatility = models.FloatField(_("volatility"), default=glicko2.START_VOLATILITY)
    games = models.PositiveIntegerField(_("rated hands"), default=0)
    rated_at = models.DateTimeField(_("last rated"), default=timezone.now)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [models.Index(fields=["-rating"], name="rating_board")]

    def __str__(self):
        return f"{self.player_id}: {self.rating:.0f} ± {2 * self.deviation:.0f}"

    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)


class RatingChange(models.Model):
    """One rated hand of one player: the history the profile charts."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("opponent"),
    )
    hand = models.ForeignKey(
        "tables.Hand", on_delete=models.CASCADE, related_name="+", verbose_name=_("hand")
    )
    score = models.FloatField(_("score"))  # 1 win, 0.5 draw, 0 loss
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    deviation_before = models.FloatField(_("deviation before"))
    deviation_after = models.FloatField(_("deviation after"))
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["player", "hand"], name="one_rating_change_per_hand")
        ]
        indexes = [models.Index(fields=["player", "at"])]

    def __str__(self):
        return f"{self.player_id} {self.rating_before:.0f}->{self.rating_after:.0f}"


BOARD_COLUMNS = ("player", "at", "won", "fan", "beans")


class HandResult(models.Model):
    """One ranked hand of one human player, all a leaderboard needs, in one narrow row."""

    # player, tier and ruleset lead the indexes below: no single-column index of their own.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="hand_results",
        db_index=False,
    )
    hand = models.ForeignKey("tables.Hand", on_delete=models.CASCADE, related_name="+")
    tier = models.ForeignKey(
        "catalogue.RoomTier", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    ruleset = models.ForeignKey(
        "catalogue.Ruleset", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    won = models.BooleanField()
    fan = models.PositiveIntegerField()  # the winning hand's fan; 0 when not won
    beans = models.BigIntegerField()  # net beans of the hand, rake paid
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "hand"], name="one_result_per_player_hand")
        ]
        # A board groups one period's rows (maybe of one room or ruleset) by player: each
        # index holds every column a board reads, so the database answers from the index
        # alone, in player order (no sort for the grouping) or in time order for a period.
        indexes = [
            models.Index(fields=[*BOARD_COLUMNS], name="result_player"),
            models.Index(fields=["at", "player", "won", "fan", "beans"], name="result_period"),
            models.Index(fields=["tier", *BOARD_COLUMNS], name="result_tier"),
            models.Index(fields=["ruleset", *BOARD_COLUMNS], name="result_ruleset"),
        ]

    def __str__(self):
        return f"{self.player_id}@{self.hand_id}"
