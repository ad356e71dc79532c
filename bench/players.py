"""Bench players for the load driver, run by bench/stack.py inside the stack's
environment: ``bench-0000`` ... with one password and a fresh 20,000 beans each run
(inside the novice room's entry range), through the real services (registration with
its sign-up grant, balances through the wallet ledger).

    python bench/players.py COUNT RUN_ID
"""

import os
import sys

PASSWORD = "bench-tiles-5m7z"
BEANS = 20_000


def name(i: int) -> str:
    return f"bench-{i:04d}"


def main(count: int, run_id: str) -> None:
    import django

    django.setup()
    from accounts import services, wallet
    from accounts.models import User

    bench = User.objects.filter(username__startswith="bench-")
    existing = dict(bench.values_list("username", "pk"))
    for i in range(count):
        user = (
            User.objects.get(pk=existing[name(i)])
            if name(i) in existing
            else services.register(username=name(i), password=PASSWORD, nickname=name(i))
        )
        if user.beans != BEANS:
            wallet.adjust(user, BEANS - user.beans, note="bench reset", actor=None,
                          key=f"bench:{run_id}:{user.pk}")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main(int(sys.argv[1]), sys.argv[2])
