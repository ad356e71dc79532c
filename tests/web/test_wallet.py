"""The bean ledger: every movement is a balanced posting, written with the balance."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import translation

from accounts import wallet
from accounts.models import EconomySettings, LedgerEntry, User


@pytest.fixture(autouse=True)
def english():
    # Refusal messages are user-facing and translated; assert on the English source.
    with translation.override("en"):
        yield


def ledger_sum(user):
    return LedgerEntry.objects.filter(account=user).aggregate(s=Sum("amount"))["s"] or 0


def assert_books_balance():
    """sum(ledger) == balance for every account, and all balances sum to zero."""
    for user in User.objects.all():
        assert ledger_sum(user) == user.beans, user.username
    assert (User.objects.aggregate(s=Sum("beans"))["s"] or 0) == 0


def test_sign_up_grants_the_configured_amount_from_the_bank(make_player):
    settings = EconomySettings.load()
    settings.signup_grant = 12_345
    settings.save()
    dora = make_player("dora")
    assert dora.beans == 12_345
    entry = LedgerEntry.objects.get(account=dora)
    assert (entry.reason, entry.amount, entry.balance_after) == ("signup", 12_345, 12_345)
    assert wallet.bank().beans == -12_345
    assert_books_balance()


def test_a_replayed_key_changes_nothing(alice):
    first = wallet.post([(wallet.bank(), -500), (alice, 500)], reason="admin_grant", key="k-1")
    again = wallet.post([(wallet.bank(), -500), (alice, 500)], reason="admin_grant", key="k-1")
    alice.refresh_from_db()
    assert not first.replayed and again.replayed
    assert alice.beans == 20_500
    assert LedgerEntry.objects.filter(idempotency_key="k-1").count() == 2
    assert_books_balance()


def test_it_refuses_to_overdraw_a_player_and_changes_nothing(alice, bob):
    with pytest.raises(wallet.InsufficientBeans, match="Cannot pay 20,001: .* has 20,000 beans"):
        wallet.post([(alice, -20_001), (bob, 20_001)], reason="settlement", key="over")
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.beans, bob.beans) == (20_000, 20_000)
    assert not LedgerEntry.objects.filter(idempotency_key="over").exists()


def test_an_adjustment_beyond_the_limit_is_refused_and_changes_nothing(alice):
    too_much = wallet.MAX_ADJUSTMENT + 1
    for amount in (too_much, -too_much, 10**20):
        with pytest.raises(wallet.WalletError, match="at most 1,000,000,000 beans"):
            wallet.adjust(alice, amount, note="typo", actor=None, key=f"big-{amount}")
    alice.refresh_from_db()
    assert alice.beans == 20_000
    assert not LedgerEntry.objects.filter(idempotency_key__startswith="big-").exists()


@pytest.mark.parametrize(
    "legs, message",
    [
        ([(-5, "a"), (4, "b")], "sum to zero"),
        ([(0, "a"), (0, "b")], "zero leg"),
        ([(-5, "a"), (5, "a")], "twice"),
    ],
)
def test_unbalanced_or_malformed_postings_are_refused(alice, bob, legs, message):
    who = {"a": alice, "b": bob}
    with pytest.raises(ValueError, match=message):
        wallet.post([(who[w], amount) for amount, w in legs], reason="admin_grant", key="bad")


def test_the_database_itself_refuses_a_negative_player_balance(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=alice.pk).update(beans=-1)


def test_the_bank_may_go_negative_so_grants_balance(alice):
    assert wallet.bank().beans < 0
    assert_books_balance()


def test_relief_is_once_a_day_and_only_below_the_threshold(make_player):
    EconomySettings.objects.update_or_create(pk=1, defaults={"relief_amount": 3_000})
    broke = make_player("broke", beans=200)
    today = datetime.date(2026, 11, 30)
    wallet.grant_relief(broke, below=1_000, today=today)
    assert broke.beans == 3_200
    # Spent it again the same day: still refused, because it is once a day.
    wallet.adjust(broke, -3_000, note="lost it", actor=None, key="spend")
    with pytest.raises(wallet.ReliefRefused, match="already received"):
        wallet.grant_relief(broke, below=1_000, today=today)
    wallet.grant_relief(broke, below=1_000, today=today + datetime.timedelta(days=1))
    assert broke.beans == 3_200
    assert_books_balance()


def test_relief_is_refused_to_a_player_with_enough_beans(alice):
    with pytest.raises(wallet.ReliefRefused, match="fewer than 1,000 beans"):
        wallet.grant_relief(alice, below=1_000)
    assert alice.ledger.filter(reason="relief").count() == 0


def test_admin_adjustment_needs_a_reason_and_records_the_actor(alice, make_player):
    admin = make_player("admin")
    with pytest.raises(wallet.WalletError, match="reason"):
        wallet.adjust(alice, 100, note="  ", actor=admin, key="a1")
    posting = wallet.adjust(alice, -100, note="refund of a bug", actor=admin, key="a2")
    leg = next(e for e in posting.entries if e.account_id == alice.pk)
    assert (leg.reason, leg.amount, leg.actor_id, leg.note) == (
        "admin_deduct",
        -100,
        admin.pk,
        "refund of a bug",
    )
