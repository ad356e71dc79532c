"""``python -m mahjong.engine simulate --rules SLUG --hands N --seed S``

Plays N whole hands at one table (dealer rules and sessions included) with random legal
players, checking the invariants after every action (``invariants.check_all``). The
last line reads ``N hands, A actions, V invariant violations, R hands/s``; any violation
is printed with the hand's seed and action list, and the exit code is 1.
"""

from __future__ import annotations

import hashlib
import time
from argparse import ArgumentParser, Namespace
from collections import Counter
from typing import Any, TextIO

from ..bots import RandomBot
from ..errors import EngineError
from ..game import apply, legal_actions, new_hand, next_hand
from ..invariants import check_all
from ..rulesets import SLUGS, get_ruleset
from ..state import ENDED, GameState
from ..wall import seed_bytes

MAX_ACTIONS_PER_HAND = 2000  # far above any real hand: a loop guard, reported as a violation


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--rules", required=True, choices=SLUGS)
    parser.add_argument("--hands", type=int, required=True)
    parser.add_argument("--seed", required=True, help="hex, or any text/number")
    parser.add_argument(
        "--no-checks",
        action="store_true",
        help="skip the per-action invariant checks (to measure raw speed)",
    )


def hand_seed(table_seed: bytes, number: int) -> bytes:
    return hashlib.sha256(table_seed + b"|hand|" + number.to_bytes(8, "big")).digest()


def run(args: Namespace, stdin: TextIO, stdout: TextIO) -> int:
    if args.hands < 0:
        stdout.write("--hands must be >= 0\n")
        return 2
    table_seed = seed_bytes(args.seed)
    result = simulate(args.rules, args.hands, table_seed, checks=not args.no_checks, out=stdout)
    kinds = " ".join(f"{k}={n}" for k, n in sorted(result["outcomes"].items()))
    stdout.write(f"outcomes: {kinds}\n")
    if result["cpu_seconds"] > 0:  # on a shared machine CPU time is the steadier figure
        stdout.write(f"cpu: {result['hands'] / result['cpu_seconds']:.1f} hands per CPU second\n")
    rate = result["hands"] / result["seconds"] if result["seconds"] > 0 else float("inf")
    stdout.write(
        f"{result['hands']} hands, {result['actions']} actions, "
        f"{result['violations']} invariant violations, {rate:.1f} hands/s\n"
    )
    return 1 if result["violations"] else 0


def simulate(
    slug: str, hands: int, table_seed: bytes, *, checks: bool = True, out: TextIO | None = None
) -> dict[str, Any]:
    ruleset = get_ruleset(slug)
    bot = RandomBot(table_seed)
    outcomes: Counter[str] = Counter()
    actions = violations = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    state: GameState | None = None
    for number in range(hands):
        seed = hand_seed(table_seed, number)
        state = new_hand(ruleset, seed) if state is None else next_hand(state, state.outcome, seed)
        state, played, problems = play_hand(state, bot, checks)
        actions += played
        if problems:
            violations += len(problems)
            _report(out, number, seed, problems)
        if state.outcome is not None:
            outcomes[state.outcome.kind] += 1
    return {
        "hands": hands,
        "actions": actions,
        "violations": violations,
        "seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu_started,
        "outcomes": outcomes,
    }


def play_hand(state: GameState, bot: RandomBot, checks: bool) -> tuple[GameState, int, list[str]]:
    """Play one hand to its end; returns (final state, actions played, violations)."""
    problems = check_all(state) if checks else []
    history: list[str] = []
    while state.phase != ENDED and not problems:
        if len(history) >= MAX_ACTIONS_PER_HAND:
            return state, len(history), [f"no end after {len(history)} actions"]
        seat = state.turn
        offered = legal_actions(state, seat)
        if not offered:
            return state, len(history), [f"seat {seat} to act in {state.phase} but offered nothing"]
        action = bot.choose(None, offered)  # the random player reads no view
        if action not in offered:
            return state, len(history), [f"applied {action}, which was not offered"]
        history.append(f"{seat}:{action}")
        try:
            state, _events = apply(state, seat, action)
        except EngineError as exc:
            return state, len(history), [f"offered {action} was refused: {exc}"]
        except Exception as exc:  # a crash is a finding too: report it with the moves
            return state, len(history), [f"{' '.join(history)}: crashed with {exc!r}"]
        if checks:
            problems = [f"after {' '.join(history[-6:])}: {p}" for p in check_all(state)]
    return state, len(history), problems


def _report(out: TextIO | None, number: int, seed: bytes, problems: list[str]) -> None:
    if out is None:
        return
    for problem in problems:
        out.write(f"hand {number} (seed {seed.hex()}): {problem}\n")
