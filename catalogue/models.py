"""What tables are made of, as operators configure them in the admin: rulesets (an
engine ruleset plus overrides), room tiers and leaderboard definitions. Below the tables
and everything that plays: these rows are read, never changed, by a hand in play.

The database tables keep the names they had when the lobby owned these models
(``db_table``): moving the models between apps moved no data.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Min, Q
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from mahjong.engine.bots import LEVEL_SLUGS
from mahjong.engine.errors import InvalidRuleset
from mahjong.engine.rulesets import RULESETS, get_ruleset

from .ruleset_messages import describe, ruleset_name

SOLO_ENGINE_RULESETS = {"stage"}
MAX_BOT_FILL_SECONDS = 600  # a longer wait for a bot is a typo, not a setting


def engine_choices() -> list[tuple[str, str]]:
    return [(slug, f"{rs.name_zh} / {rs.name_en} ({slug})") for slug, rs in RULESETS.items()]


class BilingualName:
    """For models with ``name`` (Chinese) and ``name_en``: shown in the active language."""

    def __str__(self):
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.name_en if get_language() == "en" and self.name_en else self.name


class Ruleset(BilingualName, models.Model):
    """An engine ruleset plus operator overrides, validated by the engine itself."""

    slug = models.SlugField(
        _("slug"),
        unique=True,
        help_text=_(
            "The ruleset's name in addresses (/rules/<slug>/) and data: lower-case "
            "letters, digits and hyphens. Keep it once tables have played it."
        ),
    )
    # No model-level choices: the engine's list is code, not schema (no migration per rename).
    engine_slug = models.CharField(_("engine ruleset"), max_length=20)
    name = models.CharField(_("name (Chinese)"), max_length=40)
    name_en = models.CharField(_("name (English)"), max_length=60, blank=True)
    overrides = models.JSONField(
        _("overrides"),
        default=dict,
        blank=True,
        help_text=_(
            'Values that differ from the engine ruleset, as JSON, e.g. {"cap": 10, '
            '"timers": {"decision": 20}, "fan_values": {"qing_yi_se": 6}}. '
            "Leave {} for the rules as written."
        ),
    )
    is_active = models.BooleanField(_("active"), default=True)
    ordering = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        db_table = "lobby_ruleset"
        verbose_name = _("ruleset")
        verbose_name_plural = _("rulesets")
        ordering = ["ordering", "slug"]

    def clean(self):
        if self.engine_slug not in RULESETS:
            raise ValidationError({"engine_slug": _("Choose one of the engine rulesets.")})
        if not self.is_active and self.pk:
            # Rooms go on dealing whatever ruleset they name: an "inactive" ruleset would
            # still be played in them.
            rooms = ", ".join(str(tier) for tier in self.tiers.filter(is_active=True))
            if rooms:
                raise ValidationError(
                    {
                        "is_active": _(
                            "%(rooms)s are open and play this ruleset: close them or give "
                            "them another ruleset first."
                        )
                        % {"rooms": rooms}
                    }
                )
        if self.is_solo and self.pk:
            # The reverse of RoomTier.clean: the rooms playing this row would play it too.
            rooms = ", ".join(str(tier) for tier in self.tiers.all())
            if rooms:
                raise ValidationError(
                    {
                        "engine_slug": _(
                            "%(rooms)s play this ruleset in two-player rooms; %(engine)s is "
                            "played against the computer. Give those rooms another ruleset "
                            "first."
                        )
                        % {"rooms": rooms, "engine": ruleset_name(self.engine_slug)}
                    }
                )
        try:
            self.engine()
        except InvalidRuleset as exc:
            raise ValidationError({"overrides": describe(exc, ruleset=self.engine_slug)}) from None

    @property
    def is_solo(self) -> bool:
        """关卡 is one player against the computer (RULES.md 5): no room or private game."""
        return self.engine_slug in SOLO_ENGINE_RULESETS

    def engine(self):
        """The engine's frozen Ruleset with this row's overrides applied."""
        return get_ruleset(self.engine_slug, self.overrides or None)


DEFAULT_BOT_FILL_SECONDS = 20
# The most beans a room's entry may ask: far above any balance play makes, and a typo of
# many digits is refused in words rather than at the column's 9223372036854775807.
MAX_ENTRY_BEANS = 10**12


_at_most_entry = MaxValueValidator(
    MAX_ENTRY_BEANS, message=_("A room's entry is at most 1,000,000,000,000 beans.")
)


# A point's price in beans: a hand's few hundred points at this price stay far inside a
# balance's column, and a typo is refused in words, not at the column's 2147483647.
MAX_BEANS_PER_POINT = 1_000_000

_at_most_per_point = MaxValueValidator(
    MAX_BEANS_PER_POINT, message=_("A point is worth at most 1,000,000 beans.")
)


def relief_threshold() -> int:
    """Players below the cheapest open room's entry may claim the daily relief."""
    return RoomTier.objects.filter(is_active=True).aggregate(m=Min("entry_min"))["m"] or 0


class RoomTier(BilingualName, models.Model):
    """A room (房间, RULES.md 4.6): stakes and who may enter."""

    slug = models.SlugField(
        _("slug"),
        unique=True,
        help_text=_(
            "The room's name in addresses and data: lower-case letters, digits and "
            "hyphens, e.g. novice. Keep it once players have played there."
        ),
    )
    name = models.CharField(_("name (Chinese)"), max_length=20)
    name_en = models.CharField(_("name (English)"), max_length=40, blank=True)
    ruleset = models.ForeignKey(
        Ruleset, on_delete=models.PROTECT, related_name="tiers", verbose_name=_("ruleset")
    )
    beans_per_point = models.PositiveIntegerField(
        _("beans per point"), validators=[_at_most_per_point]
    )
    entry_min = models.PositiveBigIntegerField(
        _("entry minimum (beans)"),
        validators=[_at_most_entry],
        help_text=_(
            "Also the daily relief's line: players below the cheapest open room's "
            "minimum may claim it."
        ),
    )
    entry_max = models.PositiveBigIntegerField(
        _("entry maximum (beans)"), validators=[_at_most_entry]
    )
    is_active = models.BooleanField(_("open"), default=True)
    ordering = models.PositiveSmallIntegerField(_("order"), default=0)
    # On by default: a player alone in a room would otherwise wait for ever.
    bot_fill_seconds = models.PositiveIntegerField(
        _("bot after (s)"),
        null=True,
        blank=True,
        default=DEFAULT_BOT_FILL_SECONDS,
        help_text=_(
            "A player waiting this many seconds in quick match gets a bot opponent. "
            "Empty or 0: never."
        ),
    )
    # No model-level choices: the engine's levels are code (lobby.admin offers them).
    bot_fill_level = models.CharField(
        _("bot level"),
        max_length=20,
        default="efficient",
        blank=True,
        help_text=_("The strength of the bot that fills the seat."),
    )
    # 听牌提示: beginners get told which discards keep the hand ready; higher tiers play unaided.
    waits_hint = models.BooleanField(
        _("waits hint"),
        default=False,
        help_text=_("Show players which discards keep the hand ready and what it waits on."),
    )

    class Meta:
        db_table = "lobby_roomtier"
        verbose_name = _("room tier")
        verbose_name_plural = _("room tiers")
        ordering = ["ordering", "entry_min"]
        constraints = [
            models.CheckConstraint(
                condition=Q(entry_min__lte=F("entry_max")), name="tier_entry_min_le_max"
            ),
            models.CheckConstraint(
                condition=Q(beans_per_point__gt=0), name="tier_beans_per_point_pos"
            ),
        ]

    def clean(self):
        if (
            self.entry_min is not None
            and self.entry_max is not None
            and self.entry_min > self.entry_max
        ):
            raise ValidationError({"entry_max": _("The maximum must not be below the minimum.")})
        if self.beans_per_point == 0:
            raise ValidationError({"beans_per_point": _("Beans per point must be at least 1.")})
        if self.bot_fill_seconds and self.bot_fill_level not in LEVEL_SLUGS:
            raise ValidationError(
                {"bot_fill_level": _("Choose the level of the bot that fills the seat.")}
            )
        if self.bot_fill_seconds and self.bot_fill_seconds > MAX_BOT_FILL_SECONDS:
            raise ValidationError(
                {
                    "bot_fill_seconds": _("At most %(max)s seconds (empty or 0: never).")
                    % {"max": MAX_BOT_FILL_SECONDS}
                }
            )
        if self.ruleset_id and self.is_active and not self.ruleset.is_active:
            raise ValidationError(
                {
                    "ruleset": _("%(ruleset)s is not active: an open room cannot play it.")
                    % {"ruleset": self.ruleset}
                }
            )
        if self.ruleset_id and self.ruleset.is_solo:
            raise ValidationError(
                {
                    "ruleset": _(
                        "%(ruleset)s is played against the computer, not in a two-player room."
                    )
                    % {"ruleset": self.ruleset}
                }
            )

    @property
    def fills_with_bot(self) -> bool:
        return bool(self.bot_fill_seconds) and self.bot_fill_level in LEVEL_SLUGS

    def entry_refusal(self, beans: int) -> str | None:
        """None when a player with `beans` may enter, else the message saying why not."""
        if not self.is_active:
            return _("%(room)s is closed right now.") % {"room": self.display_name}
        if beans < self.entry_min:
            return _("%(room)s needs at least %(min)s beans; you have %(beans)s.") % {
                "room": self.display_name,
                "min": f"{self.entry_min:,}",
                "beans": f"{beans:,}",
            }
        if beans > self.entry_max:
            return _(
                "%(room)s allows at most %(max)s beans; you have %(beans)s. Try a higher room."
            ) % {"room": self.display_name, "max": f"{self.entry_max:,}", "beans": f"{beans:,}"}
        return None


class Leaderboard(BilingualName, models.Model):
    """A board the operator defines; lobby.leaderboards computes its rows."""

    class Metric(models.TextChoices):
        BEANS = "beans", _("Beans held")
        RANK_SCORE = "rank_score", _("Rank score")
        RATING = "rating", _("Rating (Glicko-2)")
        GAMES_WON = "games_won", _("Games won")
        NET_BEANS = "net_beans", _("Beans won at tables")
        BIGGEST_HAND = "best_fan", _("Biggest hand (fan)")
        WIN_RATE = "win_rate", _("Win rate")
        STAGE = "stage", _("Highest stage (stage mode)")

    class Period(models.TextChoices):
        ALL_TIME = "all", _("All time")
        DAY = "day", _("Today")
        WEEK = "week", _("This week")
        MONTH = "month", _("This month")

    name = models.CharField(_("name (Chinese)"), max_length=40)
    name_en = models.CharField(_("name (English)"), max_length=60, blank=True)
    metric = models.CharField(_("metric"), max_length=12, choices=Metric.choices)
    period = models.CharField(
        _("period"), max_length=8, choices=Period.choices, default=Period.ALL_TIME
    )
    tier = models.ForeignKey(
        RoomTier,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("only this room tier"),
    )
    ruleset = models.ForeignKey(
        Ruleset,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("only this ruleset"),
    )
    min_games = models.PositiveIntegerField(
        _("minimum games"),
        default=0,
        help_text=_(
            "Win rate and rating only: players with fewer ranked games are not listed "
            "(win rate needs at least 1)."
        ),
    )
    size = models.PositiveSmallIntegerField(_("rows shown"), default=10)
    visible = models.BooleanField(_("visible"), default=True)
    ordering = models.PositiveSmallIntegerField(_("order"), default=0)

    # Current values kept per player: no history to slice by time or room.
    TOTALS = {Metric.BEANS, Metric.RANK_SCORE, Metric.RATING, Metric.STAGE}
    WITH_MIN_GAMES = {Metric.WIN_RATE, Metric.RATING}

    class Meta:
        db_table = "lobby_leaderboard"
        verbose_name = _("leaderboard")
        verbose_name_plural = _("leaderboards")
        ordering = ["ordering", "id"]

    def clean(self):
        errors = {}
        label = self.Metric(self.metric).label if self.metric in self.Metric.values else ""
        if self.metric in self.TOTALS:
            if self.period != self.Period.ALL_TIME:
                errors["period"] = _(
                    "%(metric)s is a running total: choose All time, or use "
                    "“Beans won at tables” for a period."
                ) % {"metric": label}
            if self.tier_id or self.ruleset_id:
                errors["tier"] = _(
                    "%(metric)s is one value per player, not per room or ruleset: "
                    "remove the filter."
                ) % {"metric": label}
        if self.tier_id and self.ruleset_id:
            errors["ruleset"] = _("Filter by a room tier or by a ruleset, not both.")
        elif self.ruleset_id and self.ruleset.is_solo:
            errors["ruleset"] = _(
                "%(ruleset)s is played against the computer: it has no ranked games."
            ) % {"ruleset": self.ruleset}
        if self.metric == self.Metric.WIN_RATE and not self.min_games:
            errors["min_games"] = _("A win-rate board needs a minimum of at least 1 game.")
        elif self.min_games and self.metric not in self.WITH_MIN_GAMES:
            errors["min_games"] = _(
                "A minimum number of games applies only to win rate and rating boards."
            )
        if not 1 <= (self.size or 0) <= 100:
            errors["size"] = _("Show between 1 and 100 rows.")
        if errors:
            raise ValidationError(errors)
