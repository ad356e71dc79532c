"""Parallel grants and settlements on PostgreSQL keep sum(ledger) == balance everywhere.

Real threads, each with its own database connection, released together by a barrier so
the postings really overlap. SQLite serializes whole transactions and has no row locks,
so the race this guards against only exists on PostgreSQL (CI runs there).
"""

import random
import threading

import pytest
from django.db import connection, connections
from django.db.models import Sum

from accounts import wallet
from accounts.models import LedgerEntry, User

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8
ROUNDS = 25


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are a PostgreSQL matter; run with DATABASE_URL=postgres://...")


def test_parallel_grants_and_settlements_keep_every_account_balanced(builtin, make_player):
    players = [make_player(f"p{i}", beans=5_000) for i in range(6)]
    barrier = threading.Barrier(THREADS)
    errors = []
    refused = []

    def work(seed):
        rng = random.Random(seed)
        try:
            barrier.wait()
            for n in range(ROUNDS):
                a, b = rng.sample(players, 2)
                key = f"t{seed}-{n}"
                try:
                    if rng.random() < 0.3:
                        wallet.adjust(a, rng.choice([700, -700]), note="race", actor=None, key=key)
                    else:
                        paid = rng.randint(20, 4_000)  # a hand's payment, 5% to the house
                        legs = [(b, -paid), (a, paid - paid // 20), (wallet.house(), paid // 20)]
                        wallet.post(legs, reason="settlement", key=key)
                except wallet.WalletError:
                    refused.append(key)  # a deduction bigger than the balance: fine
                # The same key again from another thread must be a replay, never a double.
                if n % 5 == 0:
                    wallet.post(
                        [(wallet.bank(), -1), (b, 1)], reason="admin_grant", key=f"shared-{n}"
                    )
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors

    for user in User.objects.all():
        ledger = LedgerEntry.objects.filter(account=user).aggregate(s=Sum("amount"))["s"] or 0
        assert ledger == user.beans, user.username
        assert user.kind == User.Kind.BANK or user.beans >= 0
        last = LedgerEntry.objects.filter(account=user).order_by("-created_at", "-id").first()
        assert last is None or last.balance_after == user.beans
    assert User.objects.aggregate(s=Sum("beans"))["s"] == 0
    assert LedgerEntry.objects.filter(idempotency_key__startswith="shared-").count() == 2 * len(
        range(0, ROUNDS, 5)
    )
    assert LedgerEntry.objects.filter(reason="settlement").exists()
