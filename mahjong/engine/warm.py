"""The engine's tables that are built on first use, built now.

A long-running process (a web process, a Celery worker) calls ``warm_up()`` once at
start, so no player's move pays for them: cold, the first ready-hand analysis of a
process took about 0.7 s and the first win it scored about 0.9 s, and in a web process
every other table waited meanwhile (one interpreter). Most of them are now read from
the shipped tables (``scoring_tables``, about 30-60 ms). Short runs (the CLI, the tests)
skip it and read only what they use.
"""

from __future__ import annotations

from . import hand_readings
from .fans import combos


def warm_up() -> None:
    hand_readings.number_suit_completing()  # with the number-suit splits it reads
    combos.prebuild()
