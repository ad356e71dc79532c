"""Migrations that rewrite data, run forwards and back from the schema before them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0004_leaderboard_frozen")]
AFTER = [("accounts", "0005_best_fans_as_keys")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()  # the graph as migrated so far
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_the_biggest_hand_becomes_its_fans_keys_and_back():
    """Chinese names cut at 80 characters become keys; a name cut short is dropped."""
    old = migrate(BEFORE)
    User = old.get_model("accounts", "User")
    User.objects.create(username="wen", best_fan=12, best_hand="清龙、混一色、门前清、花牌")
    User.objects.create(username="cut", best_fan=9, best_hand="清一色、碰碰")  # 碰碰和, cut
    User.objects.create(username="none", best_fan=0, best_hand="")
    try:
        new = migrate(AFTER)
        fans = dict(new.get_model("accounts", "User").objects.values_list("username", "best_fans"))
        assert fans["wen"] == ["qing_long", "hun_yi_se", "men_qian_qing", "hua_pai"]
        assert fans["cut"] == ["qing_yi_se"] and fans["none"] == []
        back = migrate(BEFORE)
        hands = dict(
            back.get_model("accounts", "User").objects.values_list("username", "best_hand")
        )
        assert hands == {"wen": "清龙、混一色、门前清、花牌", "cut": "清一色", "none": ""}
    finally:
        migrate(AFTER + [(app, name) for app, name in _leaves() if app != "accounts"])


def _leaves():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


LOBBY_OWNED = [
    ("lobby", "0009_tier_beans_per_point_bounded"),
    ("tables", "0012_close_orphaned_hands"),
    ("ratings", "0003_rating_change_names"),
    ("accounts", "0005_best_fans_as_keys"),
    ("stages", "0002_stagesettings"),
]


def test_the_catalogue_and_the_match_leave_the_lobby_with_their_rows_and_back():
    """Rulesets, room tiers, leaderboards (to the catalogue) and matches (to the tables)
    change app in the migration state only: the rows made under the lobby are the new
    models' rows, a table still points at its match, and the content types (the
    operators' permissions) follow the models, both ways."""
    old = migrate(LOBBY_OWNED)
    Ruleset, RoomTier = old.get_model("lobby", "Ruleset"), old.get_model("lobby", "RoomTier")
    ruleset = Ruleset.objects.create(slug="old-classic", engine_slug="classic", name="旧规则")
    tier = RoomTier.objects.create(
        slug="old-room",
        name="旧房间",
        ruleset=ruleset,
        beans_per_point=10,
        entry_min=0,
        entry_max=100,
    )
    User = old.get_model("accounts", "User")
    one, two = User.objects.create(username="m-one"), User.objects.create(username="m-two")
    match = old.get_model("lobby", "Match").objects.create(
        public_id="OLDMATCH0001",
        kind="quick",
        tier=tier,
        ruleset=ruleset,
        player_one=one,
        player_two=two,
    )
    old.get_model("tables", "Table").objects.create(
        public_id="OLDTABLE0001", ruleset=ruleset, tier=tier, match=match
    )
    types = old.get_model("contenttypes", "ContentType").objects
    types.get_or_create(app_label="lobby", model="ruleset")
    try:
        new = migrate([(app, name) for app, name in _leaves()])
        moved = new.get_model("catalogue", "RoomTier").objects.get(slug="old-room")
        assert moved.ruleset.slug == "old-classic" and moved.beans_per_point == 10
        table = new.get_model("tables", "Table").objects.get(public_id="OLDTABLE0001")
        assert table.match.public_id == "OLDMATCH0001" and table.tier_id == moved.pk
        assert new.get_model("tables", "Match").objects.get(pk=match.pk).player_two_id == two.pk
        labels = set(
            new.get_model("contenttypes", "ContentType")
            .objects.filter(model="ruleset")
            .values_list("app_label", flat=True)
        )
        assert labels == {"catalogue"}
        back = migrate(LOBBY_OWNED)
        assert back.get_model("lobby", "Ruleset").objects.get(slug="old-classic").name == "旧规则"
        assert back.get_model("lobby", "Match").objects.filter(pk=match.pk).exists()
        labels = set(
            back.get_model("contenttypes", "ContentType")
            .objects.filter(model="ruleset")
            .values_list("app_label", flat=True)
        )
        assert labels == {"lobby"}
    finally:
        new = migrate([(app, name) for app, name in _leaves()])
        new.get_model("tables", "Table").objects.filter(public_id="OLDTABLE0001").delete()
        new.get_model("tables", "Match").objects.filter(pk=match.pk).delete()
        new.get_model("catalogue", "RoomTier").objects.filter(slug="old-room").delete()
        new.get_model("catalogue", "Ruleset").objects.filter(slug="old-classic").delete()
        new.get_model("accounts", "User").objects.filter(username__in=["m-one", "m-two"]).delete()
