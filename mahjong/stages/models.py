"""A player's stage-mode (关卡) progress: the climb in play and the best result kept.

The rules of a climb live in the engine (``mahjong.engine.stage_run``); ``run`` holds
its state as the engine's JSON form, so a reload or the next day resumes exactly there.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class StageProgress(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="stage_progress",
        verbose_name=_("player"),
    )
    run = models.JSONField(_("climb in play"), default=dict)
    table = models.ForeignKey(
        "tables.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    best_stage = models.PositiveSmallIntegerField(_("highest stage cleared"), default=0)
    best_hands = models.PositiveIntegerField(_("hands used to reach it"), null=True, blank=True)
    best_at = models.DateTimeField(_("best result reached"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("stage progress")
        verbose_name_plural = _("stage progress")
        indexes = [models.Index(fields=["-best_stage", "best_hands"], name="stage_best")]

    def __str__(self):
        return f"{self.user} · {self.best_stage}"

    def clean(self):
        """The best result as an operator may set it: a stage there is, and the hands it
        took with it (the leaderboard showed "Stage 99" or "cleared in None hands")."""
        from mahjong.engine.stage import LAST_STAGE

        stage, hands = self.best_stage or 0, self.best_hands
        if stage > LAST_STAGE:
            raise ValidationError(
                {"best_stage": _("There are %(n)s stages: at most %(n)s.") % {"n": LAST_STAGE}}
            )
        if stage and not hands:
            raise ValidationError(
                {"best_hands": _("A stage cleared took at least 1 hand: say how many.")}
            )
        if not stage and hands is not None:
            raise ValidationError({"best_hands": _("No stage is cleared: leave this empty.")})

    def record_clear(self, stage: int, hands: int) -> bool:
        """Keep the best result: a higher stage, or the same stage in fewer hands."""
        better = stage > self.best_stage or (
            stage == self.best_stage and (self.best_hands is None or hands < self.best_hands)
        )
        if better:
            self.best_stage, self.best_hands, self.best_at = stage, hands, timezone.now()
        return better


class StageSettings(models.Model):
    """Operator settings of stage mode (one row). The offer and rigged-deal
    probabilities are the ``stage`` ruleset's options (lobby admin, overrides)."""

    beans_per_point = models.PositiveIntegerField(
        _("beans per stage point"),
        default=1,
        help_text=_(
            "Stakes and winnings of stage hands in beans per point; 0 plays for score only."
        ),
    )

    class Meta:
        verbose_name = _("stage settings")
        verbose_name_plural = _("stage settings")

    def __str__(self):
        return str(self._meta.verbose_name)

    @classmethod
    def load(cls) -> StageSettings:
        return cls.objects.get_or_create(pk=1)[0]
