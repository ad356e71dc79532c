"""Built-in lobby data: one Ruleset row per engine ruleset, the five room tiers of
RULES.md 4.6 and a few leaderboards. Creates what is missing, never overwrites edits; the
rooms and boards only on a fresh site, so one the operator deleted stays deleted."""

from __future__ import annotations

from catalogue.models import Leaderboard, RoomTier, Ruleset
from mahjong.engine.rulesets import RULESETS

# (slug, name, name_en, beans per point, entry min, entry max)
TIERS = [
    ("novice", "新手场", "Novice", 50, 1_000, 60_000),
    ("normal", "普通场", "Normal", 200, 5_000, 80_000),
    ("junior", "初级场", "Junior", 500, 10_000, 100_000),
    ("intermediate", "中级场", "Intermediate", 2_000, 50_000, 1_000_000),
    ("senior", "高级场", "Senior", 6_000, 200_000, 2_000_000_000),
]
WAITS_HINT_TIER = "novice"  # 听牌提示 helps beginners; the operator may turn it on elsewhere
TIER_RULESET = "classic"  # the rooms table comes from the classic ruleset's seed

LEADERBOARDS = [
    ("豆王榜", "Richest players", Leaderboard.Metric.BEANS, Leaderboard.Period.ALL_TIME),
    ("等级榜", "Highest rank", Leaderboard.Metric.RANK_SCORE, Leaderboard.Period.ALL_TIME),
    ("本周赢豆榜", "Top winners this week", Leaderboard.Metric.NET_BEANS, Leaderboard.Period.WEEK),
    ("胜局榜", "Most games won", Leaderboard.Metric.GAMES_WON, Leaderboard.Period.ALL_TIME),
    ("评分榜", "Top rated", Leaderboard.Metric.RATING, Leaderboard.Period.ALL_TIME),
    (
        "本月大牌榜",
        "Biggest hands this month",
        Leaderboard.Metric.BIGGEST_HAND,
        Leaderboard.Period.MONTH,
    ),
]


def load() -> dict[str, int]:
    created = {"rulesets": 0, "room tiers": 0, "leaderboards": 0}
    for order, (slug, rs) in enumerate(RULESETS.items()):
        if Ruleset.objects.filter(engine_slug=slug).exists():
            continue  # found by its engine: a row whose slug the operator changed is kept
        _obj, new = Ruleset.objects.get_or_create(
            slug=slug,
            defaults={
                "engine_slug": slug,
                "name": rs.name_zh,
                "name_en": rs.name_en,
                "ordering": order,
            },
        )
        created["rulesets"] += new
    # Only on a fresh site, as the boards below: a room the operator deleted came back,
    # open, at the next start (load runs at every start).
    tiers = [] if RoomTier.objects.exists() else TIERS
    classic = Ruleset.objects.get(slug=TIER_RULESET) if tiers else None
    for order, (slug, name, name_en, bpp, low, high) in enumerate(tiers):
        _obj, new = RoomTier.objects.get_or_create(
            slug=slug,
            defaults={
                "name": name,
                "name_en": name_en,
                "ruleset": classic,
                "beans_per_point": bpp,
                "entry_min": low,
                "entry_max": high,
                "ordering": order,
                "waits_hint": slug == WAITS_HINT_TIER,
            },
        )
        created["room tiers"] += new
    if not Leaderboard.objects.exists():  # the operator may have deleted some on purpose
        for order, (name, name_en, metric, period) in enumerate(LEADERBOARDS):
            Leaderboard.objects.create(
                name=name, name_en=name_en, metric=metric, period=period, ordering=order
            )
            created["leaderboards"] += 1
    return created
