"""What the admin's "Suspicious bean flows" query costs over a large ledger.

    .venv/bin/python bench/bean_flows.py --players 2000 --hands 200000 \\
        [--database postgres://postgres@127.0.0.1:5432/scratch]

Fills a scratch database (a fresh SQLite file by default; a PostgreSQL one is emptied of
players and ledger first, so never point it at a real site) with ``--players`` players
and ``--hands`` settled hands between random pairs over 60 days, and one farming pair
(ten escapes in the last week).
The rows are bulk-inserted as the settlement writes them (both seats' rows naming each
other), not posted through the wallet: the balances are not what is measured. Prints the
wall milliseconds of accounts.farming.suspicious_pairs for each period (median of
``--runs``), the pairs it found, and PostgreSQL's plan of the grouped query.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import move_cost

BATCH = 5_000


def fill(players: int, hands: int, seed: int) -> None:
    from django.utils import timezone

    from accounts.models import LedgerEntry, User

    LedgerEntry.objects.filter(idempotency_key__startswith="bench-flow:").delete()
    User.objects.filter(username__startswith="flow").delete()
    User.objects.bulk_create(
        User(username=f"flow{i}", kind=User.Kind.PLAYER) for i in range(players)
    )
    ids = list(User.objects.filter(username__startswith="flow").values_list("pk", flat=True))
    rng, now = random.Random(seed), timezone.now()
    farmer, feeder = ids[0], ids[1]
    rows = []
    for i in range(hands):
        days = 60
        if i % (hands // 10 or 1) == 0:  # ten escapes of the feeder, in the last week
            winner, loser, amount, note, days = farmer, feeder, 2_600, "escape", 7
        else:
            winner, loser = rng.sample(ids, 2)
            amount, note = rng.randint(100, 5_000), ""
        at = now - datetime.timedelta(seconds=rng.randint(0, days * 86_400 - 60))
        for account, counterpart, signed in ((winner, loser, amount), (loser, winner, -amount)):
            rows.append(
                LedgerEntry(
                    account_id=account,
                    counterpart_id=counterpart,
                    amount=signed,
                    balance_after=0,
                    reason=LedgerEntry.Reason.SETTLEMENT,
                    note=note,
                    idempotency_key=f"bench-flow:{i}",
                    created_at=at,
                )
            )
        if len(rows) >= BATCH:
            LedgerEntry.objects.bulk_create(rows)
            rows = []
    LedgerEntry.objects.bulk_create(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database", default="")
    args = parser.parse_args(argv)
    move_cost.setup(args.database or f"sqlite:///{tempfile.mkdtemp()}/flows.sqlite3")
    from django.db import connection

    from accounts import farming

    started = time.perf_counter()
    fill(args.players, args.hands, args.seed)
    print(
        f"{connection.vendor}: {args.players:,} players, {args.hands:,} hands "
        f"({2 * args.hands:,} ledger rows) filled in {time.perf_counter() - started:.1f} s"
    )
    if connection.vendor == "postgresql":
        # As autovacuum would after such a load: with the players' table unanalysed the
        # planner expects one player and nests loops over both sides of every pair.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE accounts_user, accounts_ledgerentry")
    for period in farming.PERIODS:
        start = farming.since(period)
        times, pairs = [], []
        for _ in range(args.runs):
            began = time.perf_counter()
            pairs = farming.suspicious_pairs(start, threshold=20_000, share_percent=90)
            times.append((time.perf_counter() - began) * 1000)
        found = ", ".join(f"{p.receiver.username}<-{p.feeder.username} {p.net:,}" for p in pairs)
        print(
            f"period {period:>3}: {statistics.median(times):8.1f} ms (median of "
            f"{args.runs}), {len(pairs)} pair(s): {found}"
        )
    if connection.vendor == "postgresql":
        flows = farming.pair_flows(farming.since("30"), threshold=20_000, share_percent=90)
        print(flows.explain(analyze=True))


if __name__ == "__main__":
    main()
