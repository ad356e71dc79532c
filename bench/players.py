"""Bench players for the load driver, run by bench/stack.py inside the stack's
environment on its fresh database: ``bench-0000`` ... with one password and 20,000
beans each (inside the novice room's entry range), through the real services
(registration with its sign-up grant, the rest through the wallet ledger).

    python bench/players.py COUNT
"""

import os
import sys

PASSWORD = "bench-tiles-5m7z"
BEANS = 20_000


def name(i: int) -> str:
    return f"bench-{i:04d}"


def main(count: int) -> None:
    import django

    django.setup()
    from accounts import services, wallet

    for i in range(count):
        user = services.register(username=name(i), password=PASSWORD, nickname=name(i))
        if user.beans != BEANS:
            wallet.adjust(user, BEANS - user.beans, note="bench stake", actor=None,
                          key=f"bench:{user.pk}")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main(int(sys.argv[1]))
