"""Bench players for the load driver, run by bench/stack.py inside the stack's
environment on its fresh database: ``bench-0000`` ... with one password and 20,000
beans each (inside the novice room's entry range), through the real services
(registration with its sign-up grant, the rest through the wallet ledger).

    python bench/players.py COUNT [DECISION]

``DECISION`` (seconds, 0: leave it) sets every ruleset's decision timer through its
operator overrides, so scripted players who think longer than the default 15 s are not
played for by the server (bench/load.py --decision).
"""

import os
import sys

PASSWORD = "bench-tiles-5m7z"
BEANS = 20_000


def name(i: int) -> str:
    return f"bench-{i:04d}"


def main(count: int, decision: int = 0) -> None:
    import django

    django.setup()
    from accounts import services, wallet
    from catalogue.models import Ruleset

    for ruleset in Ruleset.objects.all() if decision else ():
        ruleset.overrides = {**ruleset.overrides, "timers": {"decision": decision}}
        ruleset.full_clean()  # the engine checks the value, as the admin does
        ruleset.save()

    for i in range(count):
        user = services.register(username=name(i), password=PASSWORD, nickname=name(i))
        if user.beans != BEANS:
            wallet.adjust(
                user, BEANS - user.beans, note="bench stake", actor=None, key=f"bench:{user.pk}"
            )


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main(*(int(arg) for arg in sys.argv[1:3]))
