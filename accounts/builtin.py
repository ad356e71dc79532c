"""Built-in accounts data: the 16 rank levels (RULES.md 4.6), the economy singleton,
the house and bank accounts, and the bot players. Loading creates what is missing and
never overwrites what an operator has edited."""

from __future__ import annotations

from mahjong.engine.bots import LEVELS

from . import wallet
from .models import EconomySettings, RankLevel, User

RANK_LEVELS = [
    (1, "雀蛋", "Sparrow Egg", 0),
    (2, "雀仔", "Fledgling", 40),
    (3, "麻雀", "Sparrow", 80),
    (4, "雀头", "Sparrow Head", 150),
    (5, "铜雀", "Bronze Sparrow", 300),
    (6, "银雀", "Silver Sparrow", 800),
    (7, "金雀", "Gold Sparrow", 1_200),
    (8, "雀王", "Sparrow King", 2_000),
    (9, "雀霸", "Sparrow Overlord", 3_000),
    (10, "雀皇", "Sparrow Emperor", 4_500),
    (11, "雀妖", "Sparrow Sprite", 7_000),
    (12, "雀仙", "Sparrow Immortal", 10_000),
    (13, "雀魔", "Sparrow Demon", 20_000),
    (14, "雀圣", "Sparrow Sage", 50_000),
    (15, "雀神", "Sparrow God", 100_000),
    (16, "自摸王", "King of Self-Draw", 200_000),
]

# One bot account per engine level (mahjong.engine.bots.LEVELS): it plays vs-bot games,
# fills quick-match seats after the tier's wait and private rooms on the host's request.
# Bots need beans to stake; they cannot log in (inactive, no usable password).
BOT_FLOAT = 1_000_000


def bot_username(level: str) -> str:
    return f"bot-{level}"


def load() -> dict[str, int]:
    created = {"rank levels": 0, "bots": 0}
    # Only on a fresh site: a level the operator deleted came back at the next start, out
    # of order with the ladder they made, or clashing with a threshold they had moved
    # (a unique one: the start itself failed).
    levels = [] if RankLevel.objects.exists() else RANK_LEVELS
    for level, name, name_en, threshold in levels:
        _obj, new = RankLevel.objects.get_or_create(
            level=level, defaults={"name": name, "name_en": name_en, "threshold": threshold}
        )
        created["rank levels"] += new
    EconomySettings.load()
    wallet.house()
    wallet.bank()
    for level in LEVELS:
        _bot, new = _ensure_bot(level)
        created["bots"] += new
    return created


def _ensure_bot(level) -> tuple[User, bool]:
    # Found by its level, as bot_for finds it: by its user name, one an operator renamed
    # in the admin was made again at the next start, a second bot of the level with a
    # second float.
    bot = User.objects.filter(kind=User.Kind.BOT, bot_level=level.slug).order_by("pk").first()
    new = False
    if bot is None:
        bot, new = User.objects.get_or_create(
            username=bot_username(level.slug),
            defaults={
                "nickname": f"电脑·{level.name_zh}",
                "kind": User.Kind.BOT,
                "bot_level": level.slug,
                "is_active": False,
            },
        )
    if new:
        bot.set_unusable_password()
        bot.save(update_fields=["password"])
    # The key makes this a one-time float even though load() runs at every start.
    wallet.post(
        [(wallet.bank(), -BOT_FLOAT), (bot, BOT_FLOAT)],
        reason=wallet.Reason.BOT_FLOAT,
        key=f"bot-float:{bot.public_id}",
    )
    return bot, new


def bot_for(level: str) -> User:
    """The bot account of ``level`` (a slug of LEVELS), created if the loader has not run
    since the level was added. ValueError for an unknown level."""
    found = next((lv for lv in LEVELS if lv.slug == level), None)
    if found is None:
        raise ValueError(f"unknown bot level {level!r}")
    bot = User.objects.filter(kind=User.Kind.BOT, bot_level=level).order_by("pk").first()
    return bot or _ensure_bot(found)[0]
