"""What one push's render costs, partial by partial, in one process.

    .venv/bin/python bench/render_cost.py --hands 8

Plays whole hands at one table (random legal moves, as bench/move_cost.py), keeps both
seats' contexts at every version (``presenters.context_for``, as a push builds it), then
renders each partial of the push (``tables/table.html#<name>``, with ``oob``) over all of
them, after one untimed pass. Prints CPU microseconds per render of each partial, of the
whole push (one render of all of them, as a socket sends it), and of building a context.
The database is a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import move_cost

PARTIALS = ("notice", "status", "opponent", "rivers", "hand", "prompt", "clock", "result")


def contexts(hands: int, seed: int) -> list[dict]:
    from mahjong.tables import presenters, services

    users = move_cost.players("render")
    table = move_cost.open_table(users)
    out = []
    for hand, _state, seat, action in move_cost.turns(table, users, hands, random.Random(seed)):
        out += [presenters.context_for(table, s, hand) | {"oob": True} for s in (0, 1)]
        services.act(table, users[seat], action, hand.version)
    return out


def cpu_us(fn, items) -> float:
    for item in items[:50]:  # templates compiled, caches warm
        fn(item)
    start = time.process_time()
    for item in items:
        fn(item)
    return (time.process_time() - start) / len(items) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    move_cost.setup(f"sqlite:///{tempfile.mkdtemp()}/render.sqlite3")
    from django.template.loader import render_to_string
    from django.utils import translation

    from mahjong.tables import presenters

    with translation.override("zh-hans"):
        ctxs = contexts(args.hands, args.seed)
        print(f"{len(ctxs)} contexts; CPU us per render")
        for name in ("push", *PARTIALS):
            us = cpu_us(lambda c, n=name: render_to_string(f"tables/table.html#{n}", c), ctxs)
            print(f"{name:<10} {us:8.1f}")
        beans = cpu_us(lambda c: render_to_string("base.html#beans", {"user": c["viewer"]}), ctxs)
        print(f"{'beans':<10} {beans:8.1f}  (the top bar's count, in the push)")
        build = cpu_us(lambda c: presenters.context_for(c["table"], c["seat"], c["hand"]), ctxs)
        print(f"{'context':<10} {build:8.1f}  (context_for, reading the seats)")


if __name__ == "__main__":
    main()
