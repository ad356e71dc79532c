"""Issue 30.3: beans farmed between accounts of one person. The admin's "Suspicious bean
flows" page lists pairs of players with one-sided flows (escapes, repeated losses) with
the ledger rows as evidence, and an operator freezes the receiver from every leaderboard
while the account plays on. The hands are played and escaped through the real services."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import EconomySettings, LedgerEntry, User
from catalogue.models import Leaderboard, RoomTier
from lobby import leaderboards
from mahjong.tables import services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_eager_timers")]

FLOWS = reverse("admin:accounts_user_bean_flows")
PENALTY = 13 * 200  # an escape in the normal room: 13 points of 200 beans (RULES.md 3.13)


@pytest.fixture
def staff(builtin, client):
    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-boss-123456")
    client.force_login(boss)
    client.cookies.load({"django_language": "en"})
    return boss


@pytest.fixture
def escape():
    """escape(escaper, other): a table in the normal room, which the escaper leaves
    during its first hand: the penalty is paid to the other through the ledger."""
    tier = RoomTier.objects.get(slug="normal")

    def run(escaper, other):
        table = services.open_table(
            tier.ruleset, [escaper, other], tier=tier, beans_per_point=tier.beans_per_point
        )
        assert services.leave(table, escaper) == "escaped"
        return table

    return run


@pytest.fixture
def farm(make_player, escape):
    """A scripted farming pair: "feeder" escapes 8 times against "farmer" (20,800 beans,
    past the default threshold of 20,000), and an honest pair who escape in turn."""
    farmer = make_player("farmer", nickname="Farmer")
    feeder = make_player("feeder", beans=40_000, nickname="Feeder")
    carol, dave = make_player("carol"), make_player("dave")
    tables = [escape(feeder, farmer) for _ in range(8)]
    for i in range(8):
        escape(*((carol, dave) if i % 2 else (dave, carol)))
    return farmer, feeder, tables


def _pairs(response):
    return [(p.receiver.username, p.feeder.username) for p in response.context["pairs"]]


def test_a_farming_pair_is_listed_with_its_hands_escapes_and_net_beans(staff, client, farm):
    farmer, feeder, _tables = farm
    page = client.get(FLOWS)
    assert page.status_code == 200
    assert _pairs(page) == [("farmer", "feeder")]  # the honest pair's flows are balanced
    pair = page.context["pairs"][0]
    assert (pair.hands, pair.escapes, pair.net, pair.share) == (8, 8, 8 * PENALTY, 1.0)
    html = page.content.decode()
    assert "20,800" in html and "100%" in html and "Escapes by the feeder" in html
    evidence = reverse("admin:accounts_user_bean_flow_evidence", args=["x", "y"])
    assert evidence.split("x/")[0] in html


def test_the_evidence_is_the_ledger_rows_of_the_pairs_hands(staff, client, farm):
    farmer, feeder, tables = farm
    url = reverse(
        "admin:accounts_user_bean_flow_evidence", args=[farmer.public_id, feeder.public_id]
    )
    page = client.get(url, {"period": "all"})
    assert page.status_code == 200
    rows = list(page.context["rows"])
    keys = {f"hand:{t.public_id}:1" for t in tables}
    assert {r.idempotency_key for r in rows} == keys and page.context["total"] == 16
    assert sorted(r.amount for r in rows) == [-PENALTY] * 8 + [PENALTY] * 8
    assert {r.note for r in rows} == {"escape"}  # the settlement names the escape
    assert {(r.account, r.counterpart) for r in rows} == {(farmer, feeder), (feeder, farmer)}
    assert "escape" in page.content.decode()
    ledger = reverse("admin:accounts_ledgerentry_changelist")
    listed = client.get(
        ledger, {"account__id__exact": feeder.pk, "counterpart__id__exact": farmer.pk}
    )
    assert f"{ledger}?account__id__exact={feeder.pk}&amp;counterpart__id__exact={farmer.pk}" in (
        page.content.decode()
    )
    assert list(listed.context["cl"].result_list) == [r for r in rows if r.account == feeder]


def test_the_thresholds_are_the_operators_settings(staff, client, farm, make_player, escape):
    """Below the net threshold nobody is listed; a pair whose flows went back in part (8
    escapes one way, 1 the other: 89% one-sided) is listed only below a 90% share."""
    settings = EconomySettings.load()
    assert (settings.farming_threshold, settings.farming_share) == (20_000, 90)
    EconomySettings.objects.update(farming_threshold=8 * PENALTY + 1)
    assert _pairs(client.get(FLOWS)) == []
    erin, frank = make_player("erin", beans=40_000), make_player("frank")
    for _ in range(8):
        escape(erin, frank)
    escape(frank, erin)
    EconomySettings.objects.update(farming_threshold=5_000)
    assert _pairs(client.get(FLOWS)) == [("farmer", "feeder")]
    EconomySettings.objects.update(farming_share=85)
    page = client.get(FLOWS)
    assert _pairs(page) == [("farmer", "feeder"), ("frank", "erin")]
    assert (page.context["pairs"][1].net, page.context["pairs"][1].escapes) == (7 * PENALTY, 8)


def test_bots_are_never_listed(staff, client, make_player, escape):
    player = make_player("player", beans=60_000)
    bot = User.objects.filter(kind=User.Kind.BOT).order_by("pk").first()
    for _ in range(10):
        escape(player, bot)
    assert LedgerEntry.objects.filter(account=bot, amount=PENALTY).count() == 10
    assert _pairs(client.get(FLOWS, {"period": "all"})) == []


def test_freezing_the_receiver_takes_it_off_every_leaderboard_and_it_plays_on(
    staff, client, farm, escape
):
    farmer, feeder, _tables = farm
    richest = Leaderboard(name="x", metric=Leaderboard.Metric.BEANS, size=10)
    assert leaderboards.rows(richest)[0].player == farmer
    done = client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "freeze_leaderboards", "_selected_action": [farmer.pk], "next": FLOWS},
        follow=True,
    )
    assert done.redirect_chain[-1][0] == FLOWS
    assert [str(m) for m in done.context["messages"]] == ["Froze 1 player from the leaderboards."]
    farmer.refresh_from_db()
    assert farmer.leaderboard_frozen_by == staff and farmer.leaderboard_frozen_at is not None
    assert LogEntry.objects.filter(object_id=str(farmer.pk), user=staff).exists()
    for metric in Leaderboard.Metric.values:
        board = Leaderboard(name="x", metric=metric, size=10)
        assert farmer not in [row.player for row in leaderboards.rows(board)], metric
    assert "(frozen from the leaderboards)" in client.get(FLOWS).content.decode()
    escape(feeder, farmer)  # the account still plays and is paid
    farmer.refresh_from_db()
    assert farmer.beans == 20_000 + 9 * PENALTY
    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "unfreeze_leaderboards", "_selected_action": [farmer.pk]},
    )
    assert leaderboards.rows(richest)[0].player == farmer


def test_the_user_page_says_who_froze_the_account(staff, client, alice):
    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "freeze_leaderboards", "_selected_action": [alice.pk]},
    )
    page = client.get(reverse("admin:accounts_user_change", args=[alice.pk]))
    assert "Frozen by boss at" in page.content.decode()


def test_the_page_is_for_staff_who_may_see_players(builtin, client, alice):
    evidence = reverse("admin:accounts_user_bean_flow_evidence", args=["a", "b"])
    for url in (FLOWS, evidence):
        assert client.get(url).status_code == 302  # to the admin's log-in
        client.force_login(alice)
        assert client.get(url).status_code == 302
        client.logout()
    clerk = User.objects.create_user("clerk", password="pw-clerk-123456", is_staff=True)
    client.force_login(clerk)
    assert client.get(FLOWS).status_code == 403
    assert (
        client.post(
            reverse("admin:accounts_user_changelist"),
            {"action": "freeze_leaderboards", "_selected_action": [alice.pk]},
        ).status_code
        == 403
    )
    clerk.user_permissions.add(Permission.objects.get(codename="view_user"))
    page = client.get(FLOWS)
    assert page.status_code == 200 and not page.context["can_freeze"]
    alice.refresh_from_db()
    assert not alice.leaderboard_frozen


def test_the_page_costs_the_same_queries_with_one_or_five_pairs(staff, client, make_player, escape):
    EconomySettings.load()
    EconomySettings.objects.update(farming_threshold=PENALTY)

    def grow(n):
        for i in range(User.objects.filter(username__startswith="sink").count(), n):
            sink, source = make_player(f"sink{i}"), make_player(f"source{i}")
            escape(source, sink)

    def cost():
        with CaptureQueriesContext(connection) as queries:
            page = client.get(FLOWS)
        return len(page.context["pairs"]), len(queries)

    grow(1)
    one = cost()
    grow(5)
    five = cost()
    assert (one[0], five[0]) == (1, 5) and one[1] == five[1]


def test_the_migration_names_the_counterparts_of_earlier_settlements(alice, bob):
    """Rows settled before the counterpart column: each seat's row gets the other seat,
    the house's rake and a grant none."""
    import importlib

    from django.apps import apps

    from accounts import wallet

    migration = importlib.import_module("accounts.migrations.0004_leaderboard_frozen")
    wallet.post(
        [(alice, -1_000), (bob, 950), (wallet.house(), 50)],
        reason=wallet.Reason.SETTLEMENT,
        key="hand:old:1",
    )
    migration.name_counterparts(apps, None)
    named = dict(
        LedgerEntry.objects.filter(idempotency_key="hand:old:1").values_list(
            "account__username", "counterpart__username"
        )
    )
    assert named == {"alice": "bob", "bob": "alice", "__house__": None}
    assert not LedgerEntry.objects.filter(counterpart__isnull=False, reason="signup").exists()


def test_bad_input_changes_nothing(staff, client, farm):
    """A period that is not offered reads as the default; a forged ``next`` after a
    freeze is not followed off the site; a bot or an unknown account has no evidence
    page; a share of 50% or less (not one-sided) is refused in the settings."""
    farmer, feeder, _tables = farm
    assert client.get(FLOWS, {"period": "9999' OR 1=1"}).context["period"] == "30"
    done = client.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "freeze_leaderboards",
            "_selected_action": [farmer.pk],
            "next": "https://evil.example/admin/",
        },
    )
    assert done.status_code == 302 and "evil" not in done["Location"]
    bot = User.objects.filter(kind=User.Kind.BOT).first()
    for ids in ([bot.public_id, feeder.public_id], ["nobody", feeder.public_id]):
        url = reverse("admin:accounts_user_bean_flow_evidence", args=ids)
        assert client.get(url).status_code == 404
    settings = EconomySettings.load()
    url = reverse("admin:accounts_economysettings_change", args=[settings.pk])
    form = {"signup_grant": "20000", "relief_amount": "3000", "farming_threshold": "20000"}
    refused = client.post(url, {**form, "farming_share": "50"})
    assert refused.status_code == 200 and refused.context["adminform"].form.errors
    assert EconomySettings.load().farming_share == 90


def test_the_period_counts_the_hands_settled_in_it(staff, client, farm):
    import datetime

    from django.utils import timezone

    farmer, feeder, _tables = farm
    ten_days_ago = timezone.now() - datetime.timedelta(days=10)
    LedgerEntry.objects.filter(reason="settlement").update(created_at=ten_days_ago)
    periods = ("7", "30", "all")
    listed = {period: _pairs(client.get(FLOWS, {"period": period})) for period in periods}
    assert listed == {"7": [], "30": [("farmer", "feeder")], "all": [("farmer", "feeder")]}
    evidence = reverse(
        "admin:accounts_user_bean_flow_evidence", args=[farmer.public_id, feeder.public_id]
    )
    assert client.get(evidence, {"period": "7"}).context["total"] == 0
