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
        fans = dict(new.get_model("accounts", "User").objects.values_list("username",
                                                                          "best_fans"))
        assert fans["wen"] == ["qing_long", "hun_yi_se", "men_qian_qing", "hua_pai"]
        assert fans["cut"] == ["qing_yi_se"] and fans["none"] == []
        back = migrate(BEFORE)
        hands = dict(back.get_model("accounts", "User").objects.values_list("username",
                                                                            "best_hand"))
        assert hands == {"wen": "清龙、混一色、门前清、花牌", "cut": "清一色", "none": ""}
    finally:
        migrate(AFTER + [(app, name) for app, name in _leaves() if app != "accounts"])


def _leaves():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()
