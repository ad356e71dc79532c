"""Built-in accounts data: the 16 rank levels (RULES.md 4.6), the economy singleton,
the house and bank accounts, and the bot players. Loading creates what is missing and
never overwrites what an operator has edited."""

from __future__ import annotations

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

# Bots sit in when a human waits too long (live play); they need beans to stake.
BOTS = [
    ("bot-afu", "阿福 (机器人)"),
    ("bot-xiaomei", "小美 (机器人)"),
    ("bot-laoli", "老李 (机器人)"),
    ("bot-dashen", "大神 (机器人)"),
]
BOT_FLOAT = 1_000_000


def load() -> dict[str, int]:
    created = {"rank levels": 0, "bots": 0}
    for level, name, name_en, threshold in RANK_LEVELS:
        _obj, new = RankLevel.objects.get_or_create(
            level=level, defaults={"name": name, "name_en": name_en, "threshold": threshold}
        )
        created["rank levels"] += new
    EconomySettings.load()
    wallet.house()
    wallet.bank()
    for username, nickname in BOTS:
        bot, new = User.objects.get_or_create(
            username=username, defaults={"nickname": nickname, "kind": User.Kind.BOT}
        )
        if new:
            bot.set_unusable_password()
            bot.save(update_fields=["password"])
        created["bots"] += new
        # The key makes this a one-time float even though load() runs at every start.
        wallet.post(
            [(wallet.bank(), -BOT_FLOAT), (bot, BOT_FLOAT)],
            reason=wallet.Reason.BOT_FLOAT,
            key=f"bot-float:{bot.public_id}",
        )
    return created
