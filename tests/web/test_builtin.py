"""The built-in data `make run` loads, and the rank level arithmetic."""

import io

import pytest
from django.core.management import call_command

from accounts import ranks
from accounts.models import RankLevel, User
from catalogue.models import Leaderboard, RoomTier, Ruleset

pytestmark = pytest.mark.django_db


def load():
    out = io.StringIO()
    call_command("load_builtin", stdout=out)
    return out.getvalue()


def test_it_loads_the_rooms_of_rules_4_6(builtin):
    rows = list(RoomTier.objects.values_list("name", "beans_per_point", "entry_min", "entry_max"))
    assert rows == [
        ("新手场", 50, 1_000, 60_000),
        ("普通场", 200, 5_000, 80_000),
        ("初级场", 500, 10_000, 100_000),
        ("中级场", 2_000, 50_000, 1_000_000),
        ("高级场", 6_000, 200_000, 2_000_000_000),
    ]
    assert set(RoomTier.objects.values_list("ruleset__engine_slug", flat=True)) == {"classic"}


def test_it_loads_six_rulesets_sixteen_levels_and_bots_with_beans(builtin):
    assert sorted(Ruleset.objects.values_list("slug", flat=True)) == sorted(
        ["classic", "stage", "quesheng", "tiao72", "gb", "wenzhou"]
    )
    assert RankLevel.objects.count() == 16
    assert RankLevel.objects.get(level=16).name == "自摸王"
    bots = User.objects.filter(kind="bot").order_by("pk")
    assert [b.bot_level for b in bots] == ["random", "novice", "efficient", "strong"]
    assert all(b.beans == 1_000_000 and not b.has_usable_password() for b in bots)
    assert set(Leaderboard.objects.values_list("metric", flat=True)) == {
        "beans",
        "rank_score",
        "net_beans",
        "games_won",
        "rating",
        "best_fan",
    }


def test_loading_again_creates_nothing_and_keeps_admin_edits(builtin):
    RoomTier.objects.filter(slug="novice").update(entry_min=2_000)
    Leaderboard.objects.filter(metric="games_won").delete()
    assert (
        "0 new rulesets, 0 new room tiers, 0 new leaderboards, 0 new rank levels, 0 new bots"
        in load()
    )
    assert RoomTier.objects.get(slug="novice").entry_min == 2_000
    assert not Leaderboard.objects.filter(metric="games_won").exists()
    assert User.objects.get(username="bot-efficient").beans == 1_000_000  # floated once only


def test_rooms_and_rank_levels_the_operator_deleted_stay_deleted_at_the_next_start(builtin):
    """load runs at every start: a deleted room came back open, and a deleted level came
    back out of order with the operator's ladder, or clashed with a threshold they had
    moved to its place (a unique one: the start failed with an IntegrityError)."""
    RoomTier.objects.filter(slug="junior").delete()
    RankLevel.objects.filter(level=3).delete()
    RankLevel.objects.filter(level=4).update(threshold=80)  # level 3's old threshold
    assert "0 new room tiers" in load() and "0 new rank levels" in load()
    assert not RoomTier.objects.filter(slug="junior").exists()
    assert not RankLevel.objects.filter(level=3).exists()


def test_a_ruleset_whose_slug_the_operator_changed_is_not_made_again(builtin):
    """Found by its slug, a renamed "classic" came back as a second classic ruleset,
    active, offered for private rooms and games against the computer."""
    Ruleset.objects.filter(slug="classic").update(slug="erren")
    assert "0 new rulesets" in load()
    assert list(Ruleset.objects.filter(engine_slug="classic").values_list("slug", flat=True)) == [
        "erren"
    ]


def test_a_bot_the_operator_renamed_is_not_made_again_at_the_next_start(builtin):
    """Found by its user name, a renamed bot-strong was made again with a second float of
    1,000,000 beans: two 电脑·高手 in the player list."""
    User.objects.filter(username="bot-strong").update(username="strong-bot")
    assert "0 new bots" in load()
    assert list(User.objects.filter(bot_level="strong").values_list("username", flat=True)) == [
        "strong-bot"
    ]


@pytest.mark.parametrize(
    "score, level, next_level, percent",
    [
        (0, 1, 2, 0),
        (39, 1, 2, 97),
        (40, 2, 3, 0),
        (100, 3, 4, 28),
        (199_999, 15, 16, 99),
        (200_000, 16, None, 100),
        (10**9, 16, None, 100),
    ],
)
def test_rank_progress(builtin, score, level, next_level, percent):
    p = ranks.progress(score)
    assert p.level.level == level
    assert (p.next_level.level if p.next_level else None) == next_level
    assert p.percent == percent
