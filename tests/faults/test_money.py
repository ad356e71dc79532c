"""Beans under faults and concurrency (issue #10, money): a database error in the middle of
a hand's settlement writes nothing and the retry settles once; many parallel settlements,
grants, admin adjustments, replays of one key and whole hands keep every account equal to
its ledger, nobody below zero, and all balances (bank and house included) summing to 0.

These run on the suite's kind of database: SQLite (one writer at a time) on a laptop,
PostgreSQL (row locks, real overlap) in CI.
"""

from __future__ import annotations

import random
import threading

import pytest
from django.db import DatabaseError, connection
from django.db.models import Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts import wallet
from accounts.models import LedgerEntry, User
from mahjong.engine import game as engine
from mahjong.tables import services
from mahjong.tables.models import Event, Hand
from tests.faults.checks import TALLY, injected
from tests.web.tables_support import act_through_pause

pytestmark = pytest.mark.faults

WIN_SEED = "win254"  # the engine's timeout play ends hand 1 in a self-drawn win (e2e)


def play_to_last_move(table, users):
    """Play the engine's default actions as the players, up to the move that ends the
    hand; returns (hand, seat, action) of that last move, not yet made, and due at once."""
    for _ in range(500):
        hand = table.current_hand()
        state = hand.game()
        seat = state.turn
        action = engine.default_action(state, seat)
        if engine.apply(state, seat, action)[0].ended:
            if hand.pause_until:  # a pass ends it: sent after the claim pause, not held
                Hand.objects.filter(pk=hand.pk).update(pause_until=timezone.now())
            return hand, seat, str(action)
        act_through_pause(table, users[seat], str(action), hand.version)
    raise AssertionError("the hand did not end")


def snapshot(table, users) -> dict:
    """The table's hand and its players' accounts (the house is left out: the stack's
    processes may be settling other tables meanwhile)."""
    hand = table.current_hand()
    return {
        "version": hand.version,
        "ended": hand.ended_at,
        "result": hand.result,
        "events": Event.objects.filter(hand=hand).count(),
        "ledger": LedgerEntry.objects.filter(account__in=users).count(),
        "settled": LedgerEntry.objects.filter(ref=table.public_id).count(),
        "accounts": [
            (u["pk"], (u["beans"], u["games_played"], u["games_won"], u["rank_score"]))
            for u in User.objects.filter(pk__in=[u.pk for u in users])
            .order_by("pk")
            .values("pk", "beans", "games_played", "games_won", "rank_score")
        ],
    }


def test_a_database_error_mid_settlement_writes_nothing_and_the_retry_settles_once(
    quiet_table, settings, monkeypatch
):
    settings.MAHJONG_TEST_SEED = WIN_SEED
    table, users = quiet_table()
    hand, seat, action = play_to_last_move(table, users)
    before = snapshot(table, users)

    # The ledger rows of the settlement fail after the balances were already updated in
    # the same transaction: the worst place for a half-written posting.
    real_bulk_create = LedgerEntry.objects.bulk_create
    failures = []

    def fail_once(entries, *args, **kwargs):
        if not failures:
            failures.append(entries)
            raise DatabaseError("injected: the server went away")
        return real_bulk_create(entries, *args, **kwargs)

    monkeypatch.setattr(LedgerEntry.objects, "bulk_create", fail_once)
    with pytest.raises(DatabaseError):
        services.act(table, users[seat], action, hand.version)
    assert failures, "the settlement never reached the ledger"
    injected("database error mid-settlement")
    assert snapshot(table, users) == before

    services.act(table, users[seat], action, hand.version)  # the player's retry
    hand.refresh_from_db()
    assert hand.ended_at is not None and hand.result["beans"], hand.result
    key = f"hand:{table.public_id}:{hand.number}"
    legs = LedgerEntry.objects.filter(idempotency_key=key)
    assert legs.count() >= 2 and sum(e.amount for e in legs) == 0
    after = snapshot(table, users)
    assert after["ledger"] == before["ledger"] + legs.filter(account__in=users).count()
    assert after["settled"] == legs.count()
    for seat_index, user in enumerate(users):  # seats in the order of ``users``
        paid = hand.result["beans"][seat_index]
        assert balance(user) == dict(before["accounts"])[user.pk][0] + paid

    # More retries (a second click, the timer, the sweeper) settle nothing more.
    with pytest.raises(services.StaleVersion):
        services.act(table, users[seat], action, hand.version - 1)
    assert services.advance(hand.pk, hand.version - 1) is False
    services.sweep()
    assert snapshot(table, users) == after


def balance(user) -> int:
    return User.objects.values_list("beans", flat=True).get(pk=user.pk)


THREADS = 6
ROUNDS = 12


def test_wallet_invariants_under_parallel_settlements_grants_adjustments_and_hands(
    players, quiet_table, use_stack_db
):
    people = players(8_000) + players(8_000) + players(8_000)
    tables = [quiet_table(20_000) for _ in range(2)]
    keys: list[str] = []
    errors: list = []

    def money(seed: int):
        rng = random.Random(seed)
        for n in range(ROUNDS):
            a, b = rng.sample(people, 2)
            key = f"faults-{seed}-{n}-{a.public_id}"
            keys.append(key)
            roll = rng.random()
            try:
                if roll < 0.5:
                    paid = rng.randint(20, 3_000)  # a hand's payment, 5% to the house
                    legs = [(b, -paid), (a, paid - paid // 20), (wallet.house(), paid // 20)]
                    wallet.post(legs, reason="settlement", key=key)
                elif roll < 0.8:
                    wallet.adjust(a, rng.choice([500, -500, -4_000]), note="race", actor=None,
                                  key=key)  # fmt: skip
                else:
                    wallet.post([(wallet.bank(), -300), (a, 300)], reason="relief_grant", key=key)
            except wallet.WalletError:
                pass  # a deduction or payment bigger than the balance: refused, fine
            # every thread posts the same shared keys: a replay, never a second posting
            if n % 4 == 0:
                shared = f"faults-shared-{tables[0][0].public_id}-{n}"
                wallet.post([(wallet.bank(), -7), (b, 7)], reason="admin_grant", key=shared)

    last_moves = [play_to_last_move(table, users) for table, users in tables]

    def hand(index: int):
        table, users = tables[index]
        last_hand, seat, action = last_moves[index]
        services.act(table, users[seat], action, last_hand.version)
        # the table's players are hit by admin deductions while they play
        for user in users:
            wallet.adjust(user, -100, note="race", actor=None, key=f"faults-hand-{user.public_id}")

    def guarded(work, arg):
        def run():
            try:
                work(arg)
            except Exception as exc:
                errors.append(exc)

        return run

    calls = [guarded(money, i) for i in range(THREADS)] + [guarded(hand, i) for i in range(2)]
    _run_together(use_stack_db, calls)
    assert not errors, errors
    TALLY["wallet postings raced"] += len(keys) + THREADS * len(range(0, ROUNDS, 4))
    TALLY["hands settled while the wallet raced"] += len(tables)

    assert_wallet_invariants()
    shared = LedgerEntry.objects.filter(
        idempotency_key__startswith=f"faults-shared-{tables[0][0].public_id}-"
    )
    assert shared.count() == 2 * len(range(0, ROUNDS, 4))
    for table, _users in tables:
        hand = table.current_hand()
        assert hand.ended_at is not None
        legs = LedgerEntry.objects.filter(idempotency_key=f"hand:{table.public_id}:1")
        assert legs.exists() == any(hand.result["beans"] or [0]), hand.result
        # settled once: one leg per account, whatever raced it
        assert legs.count() == len({leg.account_id for leg in legs})


def _run_together(use_stack_db, calls) -> None:
    barrier = threading.Barrier(len(calls))

    def run(call):
        with use_stack_db():
            barrier.wait(timeout=30)
            call()

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"


def assert_wallet_invariants() -> None:
    """Over every account, read in one statement (one consistent snapshot, whatever the
    stack's processes settle meanwhile)."""
    rows = list(
        User.objects.annotate(ledger_sum=Coalesce(Sum("ledger__amount"), 0)).values_list(
            "username", "kind", "beans", "ledger_sum"
        )
    )
    assert rows
    for username, kind, beans, ledger_sum in rows:
        assert beans == ledger_sum, (username, beans, ledger_sum)
        assert kind == User.Kind.BANK or beans >= 0, (username, beans)
    assert sum(beans for _u, _k, beans, _l in rows) == 0
    unbalanced = (
        LedgerEntry.objects.values("idempotency_key").annotate(total=Sum("amount")).exclude(total=0)
    )
    assert not unbalanced.exists(), list(unbalanced[:5])


def test_a_deduction_landing_just_before_the_settlement_is_paid_from_the_real_balance(
    quiet_table, settings, monkeypatch, use_stack_db
):
    """An admin deduction commits while a hand's last move is being applied, between the
    seats being read and the beans being paid. The payment must come from the balance
    as it is then, not as the seats read it: the hand ends, the books balance."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes its write lock at BEGIN: no deduction can land mid-move")
    settings.MAHJONG_TEST_SEED = WIN_SEED
    table, users = quiet_table()
    hand, seat, action = play_to_last_move(table, users)
    from mahjong.tables.services import settlement

    real_pay = settlement._pay
    deducted = []

    def deduct_first(locked, *args, **kwargs):
        loser = locked.seats[1 - seat].user_id  # the self-drawn winner is ``seat``
        thread = threading.Thread(target=lambda: deducted.append(deduct(loser)))
        thread.start()
        thread.join(timeout=10)
        return real_pay(locked, *args, **kwargs)

    def deduct(user_id):
        with use_stack_db():  # another request: its own connection and its own row
            user = User.objects.get(pk=user_id)
            try:
                return wallet.adjust(user, -(balance(user) - 10), note="race", actor=None,
                                     key=f"faults-deduct-{user.public_id}")  # fmt: skip
            except wallet.WalletError as exc:
                return exc

    monkeypatch.setattr(settlement, "_pay", deduct_first)
    services.act(table, users[seat], action, hand.version)
    injected("deduction committed mid-move")
    hand.refresh_from_db()
    assert hand.ended_at is not None and hand.result["beans"], hand.result
    assert_wallet_invariants()
