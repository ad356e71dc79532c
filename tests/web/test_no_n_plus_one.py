"""No N+1 (issue 9): the lobby's pages, a player's history and profile, and every admin
changelist cost the same number of queries with 5 rows as with 50. Rows are made with
the real services: players, quick-match tickets and matches, private rooms, and tables
whose hand ended by an escape (finished hands, events, ledger settlements)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]


@pytest.fixture
def world(builtin, make_player):
    """grow(n): a hero who played n opponents (half in a staked room, half privately),
    and n players, each with a private room and a quick-match ticket (pairs matched)."""
    from catalogue.models import RoomTier, Ruleset
    from lobby import matchmaking, rooms
    from mahjong.tables import services

    hero = make_player("hero", beans=500_000, nickname="Hero")
    tier = RoomTier.objects.get(slug="novice")
    classic = Ruleset.objects.get(slug="classic")
    made = []

    def grow(n):
        while len(made) < n:
            i = len(made)
            other = make_player(f"p{i}", beans=20_000, nickname=f"P{i}")
            made.append(other)
            staked = dict(tier=tier, beans_per_point=tier.beans_per_point) if i % 2 else {}
            table = services.open_table(classic, [hero, other], **staked)
            services.leave(table, other)  # an escape: the hand ends and is settled
            rooms.create(other, classic, 1)
            matchmaking.join(other, tier)

    grow.hero = hero
    return grow


def lobby_urls(hero) -> list[str]:
    return [
        "/",
        reverse("lobby:leaderboards"),
        reverse("history:player", args=[hero.public_id]),
        reverse("accounts:player", args=[hero.public_id]),
    ]


def admin_urls() -> list[str]:
    return [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    ]


def query_counts(client, urls) -> dict[str, int]:
    """Queries per page with nothing cached (standings are cached a minute): the cost
    of computing it, where an N+1 would show."""
    from django.core.cache import cache

    counts = {}
    for url in urls:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        counts[url] = len(queries)
    return counts


def test_lobby_history_and_profile_pages_cost_the_same_with_5_or_50_rows(world, client):
    world(5)
    client.force_login(world.hero)
    few = query_counts(client, lobby_urls(world.hero))
    world(50)
    many = query_counts(client, lobby_urls(world.hero))
    assert many == few


def test_every_admin_changelist_costs_the_same_with_5_or_50_rows(world, client):
    from accounts.models import User

    staff = User.objects.create_superuser("root", "root@example.com", "pw-root-12345")
    world(5)
    client.force_login(staff)
    few = query_counts(client, admin_urls())
    world(50)
    many = query_counts(client, admin_urls())
    assert many == few


def test_the_admins_configuration_lists_cost_the_same_with_3_or_20_rows(builtin, client):
    """The world above grows players, tables and the ledger; an operator's own rows
    (boards, rulesets, rooms, rank levels, stage progress) grow here, with their links
    to rooms and rulesets, so an N+1 in those lists shows too."""
    from accounts import services as accounts
    from accounts.models import RankLevel, User
    from catalogue.models import Leaderboard, RoomTier, Ruleset
    from mahjong.stages import services as stages

    tier = RoomTier.objects.get(slug="novice")
    classic = Ruleset.objects.get(slug="classic")

    def grow(n):
        for i in range(RankLevel.objects.filter(level__gte=100).count(), n):
            only = {"tier": tier} if i % 2 else {"ruleset": classic}
            Leaderboard.objects.create(name=f"b{i}", metric="net_beans", **only)
            rules = Ruleset.objects.create(slug=f"r{i}", engine_slug="classic", name=f"r{i}")
            RoomTier.objects.create(
                slug=f"t{i}",
                name=f"t{i}",
                ruleset=rules,
                beans_per_point=1,
                entry_min=0,
                entry_max=10,
            )
            RankLevel.objects.create(level=100 + i, name=f"L{i}", threshold=10**6 + i)
            stages.progress_for(accounts.register(username=f"s{i}", password="pw-s-1234567"))

    urls = [
        reverse(f"admin:{name}_changelist")
        for name in (
            "catalogue_leaderboard",
            "catalogue_ruleset",
            "catalogue_roomtier",
            "accounts_ranklevel",
            "stages_stageprogress",
        )
    ]
    client.force_login(User.objects.create_superuser("root", "r@example.com", "pw-root-12345"))
    grow(3)
    few = query_counts(client, urls)
    grow(20)
    assert query_counts(client, urls) == few
