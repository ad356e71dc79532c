"""CPU time of the hand review (issue 35: at most 200 ms of CPU per hand).

    .venv/bin/python bench/review_cpu.py [--hands 40] [--seed review] [--rules classic gb]

Per ruleset, plays ``--hands`` seeded hands of ``strong`` against ``efficient`` (seats
alternating; stage hands at stage 1, the player role in seat 0) with the live tables'
claim pause, then times the review of each hand in ``time.process_time``: of every other
hand both seats in one replay (``review.review_seats``, what a public hand shows), of the
others one seat (``review.review_hand``, a player's private review). All rulesets run
in one process, one after another, as a worker reviews hands as they end: the first
hands of a ruleset find the analysis caches cold. Prints per ruleset the moves per hand
and the median, p95 and max milliseconds of a review of both seats and of one seat,
then the same over every hand.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mahjong.engine.bots import choose_for, get_bot  # noqa: E402
from mahjong.engine.game import apply, new_hand  # noqa: E402
from mahjong.engine.review import review_hand, review_seats  # noqa: E402
from mahjong.engine.rulesets import SLUGS  # noqa: E402
from mahjong.engine.state import ENDED, GameState  # noqa: E402

MAX_MOVES = 2000


def play(slug: str, seed: str, strong_seat: int) -> tuple[GameState, list[tuple[int, str]]]:
    start = (
        new_hand(slug, seed, stage=1, claim_pause=True)
        if slug == "stage"
        else new_hand(slug, seed, claim_pause=True)
    )
    bots = [get_bot("efficient", seed), get_bot("efficient", seed)]
    bots[strong_seat] = get_bot("strong", seed)
    state, moves = start, []
    while state.phase != ENDED and len(moves) < MAX_MOVES:
        seat = state.turn
        action = choose_for(bots[seat], state, seat)
        moves.append((seat, str(action)))
        state, _ = apply(state, seat, action)
    return start, moves


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", default="review")
    parser.add_argument("--rules", nargs="*", default=list(SLUGS), choices=SLUGS)
    args = parser.parse_args()
    every: list[float] = []
    every_seat: list[float] = []
    print(
        f"{'ruleset':10} {'hands':>5} {'moves':>6}  {'hand: median':>12} {'p95':>6} {'max':>6}",
        end="",
    )
    print(f"  {'seat: median':>12} {'p95':>6} {'max':>6}   (CPU ms)")
    for slug in args.rules:
        times, seat_times, moves = [], [], []
        for n in range(args.hands):
            # Each hand is reviewed once, both seats or one (the caches of a review of the
            # same hand would make a second one cheaper than a first).
            start, played = play(slug, f"{args.seed}:{slug}:{n}", n // 2 % 2)
            began = time.process_time()
            if n % 2:
                review_hand(start, played, n // 4 % 2)
                seat_times.append(1000 * (time.process_time() - began))
            else:
                review_seats(start, played)
                times.append(1000 * (time.process_time() - began))
            moves.append(len(played))
        every += times
        every_seat += seat_times
        print(
            f"{slug:10} {len(moves):5} {statistics.median(moves):6.0f}  {_line(times, seat_times)}"
        )
    print(f"{'all':10} {len(every) + len(every_seat):5} {'':6}  {_line(every, every_seat)}")


def _line(times: list[float], seat_times: list[float]) -> str:
    return "  ".join(
        f"{statistics.median(t):12.1f} {percentile(t, 0.95):6.1f} {max(t):6.1f}"
        for t in (times, seat_times)
    )


if __name__ == "__main__":
    main()
