"""Players, the bean ledger, rank levels and the economy settings.

Beans (欢乐豆) live on the user row as a balance plus an append-only ledger. Only
accounts.wallet writes either of them; the database refuses a negative balance for
everyone except the bank, the account grants are paid from.
"""

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .codes import new_public_id

BOT_BADGE = "🤖"  # before a bot's name wherever it is shown; no player's name holds it


def _translations(text) -> set[str]:
    """A lazy message in each of the site's languages."""
    from django.conf import settings
    from django.utils import translation

    found = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found.add(str(text))
    return found


class User(AbstractUser):
    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Bot")
        HOUSE = "house", _("House (rake)")
        BANK = "bank", _("Bank (grants)")

    public_id = models.CharField(
        _("public id"), max_length=12, unique=True, default=new_public_id, editable=False
    )
    nickname = models.CharField(_("nickname"), max_length=24, blank=True)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.PLAYER)
    beans = models.BigIntegerField(_("beans"), default=0, editable=False)
    # Game statistics: written by live play (tables app) when a hand is settled.
    rank_score = models.PositiveIntegerField(_("rank score"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    games_won = models.PositiveIntegerField(_("games won"), default=0)
    best_fan = models.PositiveIntegerField(_("biggest hand (fan)"), default=0)
    # The biggest hand's fans as the engine's keys (["qing_yi_se", "peng_peng_he"]): each
    # page names them in its own language (accounts/templatetags/fan_names.py).
    best_fans = models.JSONField(_("biggest hand's fans"), default=list, blank=True, editable=False)
    muted_until = models.DateTimeField(_("muted until"), null=True, blank=True)
    ban_reason = models.CharField(_("ban reason"), max_length=200, blank=True)
    # A bot account plays at this level of mahjong.engine.bots.LEVELS (one account each).
    bot_level = models.CharField(
        _("bot level"),
        max_length=20,
        blank=True,
        help_text=_("For bot accounts: the strength it plays with (a level slug, e.g. efficient)."),
    )
    # Per-player settings (accounts.preferences): remembered across devices.
    sound_on = models.BooleanField(_("sound effects"), default=True)
    # The table's motion (tiles travelling, calls, the win's reveal); a browser asking for
    # reduced motion gets none whatever this says.
    motion_on = models.BooleanField(_("motion"), default=True)
    emotes_muted = models.BooleanField(_("mute emotes"), default=False)
    auto_win = models.BooleanField(_("win automatically"), default=False)
    auto_pass = models.BooleanField(_("pass claims automatically"), default=False)
    discard_drawn = models.BooleanField(_("discard the drawn tile automatically"), default=False)
    language = models.CharField(_("language"), max_length=10, blank=True)
    # Kept off every leaderboard (accounts.services.freeze_leaderboards), still playing:
    # beans farmed from other accounts of one person (accounts.farming) win no place.
    leaderboard_frozen_at = models.DateTimeField(
        _("frozen from the leaderboards at"), null=True, blank=True, editable=False
    )
    leaderboard_frozen_by = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("frozen from the leaderboards by"),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # The bank may go negative: it is where granted beans come from, so every
            # movement has a counterpart and all balances always sum to zero.
            models.CheckConstraint(
                condition=Q(beans__gte=0) | Q(kind="bank"), name="beans_never_negative"
            ),
            models.UniqueConstraint(
                fields=["kind"],
                condition=Q(kind__in=["house", "bank"]),
                name="one_house_and_one_bank",
            ),
        ]

    def __str__(self):
        return self.display_name

    def get_absolute_url(self):
        return reverse("accounts:player", args=[self.public_id])

    def clean(self):
        super().clean()
        # Live play counts both together; set by hand in the admin, more wins than games
        # showed on the profile and the win-rate board as a win rate above 100%.
        if (self.games_won or 0) > (self.games_played or 0):
            raise ValidationError(
                {
                    "games_won": _(
                        "A player cannot have won more games than they played (%(played)s)."
                    )
                    % {"played": f"{self.games_played or 0:,}"}
                }
            )

    @property
    def display_name(self) -> str:
        """The nickname; a bot's carries the 🤖 badge wherever a name is shown, and a
        level bot is named by its level in the page's language. The house and the bank
        are named by their kind in the page's language: their stored nickname is that
        name in the language active when they were made (银行（发放） on a Chinese site),
        shown as such only if an operator has changed it."""
        name = self.nickname or self.username
        if self.kind in (self.Kind.HOUSE, self.Kind.BANK):
            label = self.Kind(self.kind).label
            if not self.nickname or self.nickname in _translations(label):
                return str(label)
            return name
        if self.kind != self.Kind.BOT:
            return name
        level = self.level
        if level is not None and get_language() == "en":
            name = f"Bot · {level.name_en}"
        return f"{BOT_BADGE} {name}"

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.BOT

    @property
    def level(self):
        """A bot account's engine level (mahjong.engine.bots.Level), else None."""
        from mahjong.engine.bots import LEVELS

        return next((lv for lv in LEVELS if lv.slug == self.bot_level), None)

    @property
    def leaderboard_frozen(self) -> bool:
        return self.leaderboard_frozen_at is not None

    @property
    def is_muted(self) -> bool:
        return self.muted_until is not None and self.muted_until > timezone.now()

    @property
    def win_rate(self) -> float | None:
        return self.games_won / self.games_played if self.games_played else None


class LedgerEntry(models.Model):
    """One leg of a posting. A posting's legs share an idempotency key and sum to zero."""

    class Reason(models.TextChoices):
        SIGNUP_GRANT = "signup", _("Sign-up grant")
        RELIEF_GRANT = "relief", _("Daily relief (救济金)")
        ADMIN_GRANT = "admin_grant", _("Granted by an administrator")
        ADMIN_DEDUCT = "admin_deduct", _("Deducted by an administrator")
        BOT_FLOAT = "bot_float", _("Bot float")
        SETTLEMENT = "settlement", _("Hand settlement")

    account = models.ForeignKey(
        User, on_delete=models.PROTECT, related_name="ledger", verbose_name=_("account")
    )
    amount = models.BigIntegerField(_("amount"))
    balance_after = models.BigIntegerField(_("balance after"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    # What the movement belongs to, e.g. the public id of a match; used by leaderboards.
    ref = models.CharField(_("reference"), max_length=40, blank=True, db_index=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=120)
    actor = models.ForeignKey(
        User,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("made by"),
    )
    # A hand's settlement: the player on the other side of the hand, so flows between
    # two accounts are a grouping of rows (accounts.farming), not a search of postings.
    counterpart = models.ForeignKey(
        User,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("counterpart"),
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["idempotency_key", "account"], name="one_leg_per_account_per_key"
            ),
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_amount_nonzero"),
        ]
        indexes = [models.Index(fields=["account", "-created_at"])]

    def __str__(self):
        # The caption of each row of a player's ledger in the admin: read, in its language
        # ("9 +20000 signup" gave the account's internal id and the stored code).
        return f"{self.amount:+,} · {self.get_reason_display()}"

    # Notes the site writes itself (in English, as stored), shown in the reader's language;
    # an operator's note on a grant or deduction is shown as typed.
    SYSTEM_NOTES = {
        "stage stake": _("stage stake"),
        "stage hand": _("stage hand"),
        "bot top-up": _("bot top-up"),
        "escape": _("escape"),  # a hand's settlement that is an escape's penalty
    }

    @property
    def note_display(self) -> str:
        return str(self.SYSTEM_NOTES.get(self.note, self.note))


class RankLevel(models.Model):
    """RULES.md 4.6: a player's level is the highest whose threshold <= rank score."""

    level = models.PositiveSmallIntegerField(_("level"), unique=True)
    name = models.CharField(_("name (Chinese)"), max_length=20)
    name_en = models.CharField(_("name (English)"), max_length=40, blank=True)
    threshold = models.PositiveIntegerField(_("rank score at least"), unique=True)

    class Meta:
        verbose_name = _("rank level")
        verbose_name_plural = _("rank levels")
        ordering = ["threshold"]

    def __str__(self):
        return f"{self.level} {self.name}"

    def clean(self):
        """A higher level needs a higher rank score: out of order, a player would climb
        from level 3 down to level 2 (the level shown is found by the threshold)."""
        if self.level is None or self.threshold is None:
            return
        # The other levels as (level, threshold): the saved ones, or as the admin's list
        # submits them with this row (accounts.admin.RankLadderFormSet sets ``ladder``).
        others = getattr(self, "ladder", None)
        if others is None:
            others = RankLevel.objects.exclude(pk=self.pk).values_list("level", "threshold")
        others = sorted(others, key=lambda pair: pair[1])
        below = [o for o in others if o[0] < self.level and o[1] >= self.threshold]
        above = [o for o in others if o[0] > self.level and o[1] <= self.threshold]
        clash = (below or above or [None])[0]
        if clash is not None:
            raise ValidationError(
                {
                    "threshold": _(
                        "Level %(other)s needs %(score)s: a higher level needs a higher rank score."
                    )
                    % {"other": clash[0], "score": f"{clash[1]:,}"}
                }
            )

    @property
    def display_name(self) -> str:
        if get_language() == "en" and self.name_en:
            return f"{self.name} ({self.name_en})"
        return self.name


# An administrator's grant or deduction (wallet.adjust) moves at most this many beans, and
# the economy's grants are as bounded: far above any room's stakes, and far below what a
# balance column holds (a typo of many digits is refused with a message, not written or
# failed on by the database).
MAX_ADJUSTMENT = 1_000_000_000


class EconomySettings(models.Model):
    """Singleton (pk=1) with the amounts an operator tunes in the admin."""

    signup_grant = models.PositiveIntegerField(_("sign-up grant"), default=20_000)
    relief_amount = models.PositiveIntegerField(
        _("daily relief amount"),
        default=3_000,
        help_text=_(
            "Granted once a day to a player whose beans are below the cheapest room's entry."
        ),
    )

    class Meta:
        verbose_name = _("economy settings")
        verbose_name_plural = _("economy settings")

    def __str__(self):
        return str(_("Economy settings"))

    def clean(self):
        # As an administrator's grant (MAX_ADJUSTMENT): a typo of many digits was saved
        # (SQLite holds it) and every sign-up or relief would have paid it.
        errors = {
            name: _("At most %(max)s beans.") % {"max": f"{MAX_ADJUSTMENT:,}"}
            for name in ("signup_grant", "relief_amount")
            if (getattr(self, name) or 0) > MAX_ADJUSTMENT
        }
        if errors:
            raise ValidationError(errors)

    # accounts.farming: which pairs of accounts the "Suspicious bean flows" page lists.
    farming_threshold = models.PositiveIntegerField(
        _("suspicious net flow (beans)"),
        default=20_000,
        help_text=_(
            "A pair of players is listed when one has won at least this many beans net "
            "from the other."
        ),
    )
    farming_share = models.PositiveSmallIntegerField(
        _("suspicious one-sided share (%)"),
        default=90,
        validators=[MinValueValidator(51), MaxValueValidator(100)],
        help_text=_("And at least this share of all the beans moved between the two went one way."),
    )

    @classmethod
    def load(cls) -> "EconomySettings":
        obj, _created = cls.objects.get_or_create(pk=1)
        return obj
