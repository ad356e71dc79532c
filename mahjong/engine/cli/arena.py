"""``python -m mahjong.engine arena --rules SLUG --a LEVEL --b LEVEL --hands N --seed S``

Duplicate matches between two bot levels: each of N walls is dealt twice, with the two
bots in swapped seats (the dealer seat follows the wall), so both sides meet the same
tiles and luck cancels. Every hand is a fresh hand (no session carries over). Points are
the settlement's with 底分 1 (``settlement.settle``), net per seat.

Prints per side: wins, win rate, deal-in rate (the discarder of a discard win) and mean
points per hand with a 95% confidence interval over the N walls (a wall's two hands
are one sample), then the share of decisive hands side A won, the points difference
A - B, and decision time per side: the seat's view plus the bot's choice, median and
p99 in milliseconds over decisions with more than one offered action, in wall-clock
time and in the deciding thread's CPU time (what one core spends on it, whatever else
the machine runs).

``--rules stage`` plays 关卡 hands (RULES.md 5) at ``--stage N`` (1-4, default 1). Seat 0
is the player role (``stage_player``: the offers and rigged deals), seat 1 the computer;
the duplicate swap puts each side in the player role once per wall, on the same deal.
A stage hand's points are the stage score change of the player role with the stage's
stake (5.3): a player win +hand score (``stage_hand_score``, no 三连庄: every hand is
fresh), a draw 0, a computer win -stake; the computer role gets the negation, so a
wall is zero-sum like the other rulesets. The report adds each side's figures in the
player role: its wins and mean score change per hand.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from argparse import ArgumentParser, Namespace
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..bots import LEVEL_SLUGS, get_bot
from ..bots.seen import Bot
from ..fans import score_win
from ..game import apply, legal_actions, new_hand
from ..rulesets import SLUGS, Ruleset, get_ruleset
from ..settlement import Table, settle
from ..shapes import DISCARD_WIN, DRAW, SELF_DRAW, Outcome
from ..stage import LAST_STAGE, stage_level
from ..state import ENDED, GameState
from ..views import view
from ..wall import seed_bytes

MAX_ACTIONS_PER_HAND = 2000
STAGE_PLAYER = 0  # the seat with the player role in stage hands


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--rules", required=True, choices=SLUGS)
    parser.add_argument("--a", required=True, choices=LEVEL_SLUGS, help="level of side A")
    parser.add_argument("--b", required=True, choices=LEVEL_SLUGS, help="level of side B")
    parser.add_argument(
        "--hands",
        type=int,
        required=True,
        help="walls; each is played twice with the seats swapped",
    )
    parser.add_argument("--seed", required=True, help="hex, or any text/number")
    parser.add_argument(
        "--stage",
        type=int,
        choices=range(1, LAST_STAGE + 1),
        help="--rules stage only: the stage played (default 1)",
    )


@dataclass
class Side:
    level: str
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    points: list[float] = field(default_factory=list)  # per wall: both hands
    times: list[float] = field(default_factory=list)  # seconds per decision
    cpu: list[float] = field(default_factory=list)  # CPU seconds per decision
    player_wins: int = 0  # stage: wins in the player role
    player_points: list[float] = field(default_factory=list)  # stage: per player-role hand


def run(args: Namespace, stdin: TextIO, stdout: TextIO) -> int:
    if args.hands < 1:
        stdout.write("--hands must be >= 1\n")
        return 2
    if args.stage is not None and args.rules != "stage":
        stdout.write("--stage needs --rules stage\n")
        return 2
    stage = (args.stage or 1) if args.rules == "stage" else 0
    result = arena(args.rules, args.a, args.b, args.hands, seed_bytes(args.seed), stage)
    stdout.write(report(result, args))
    return 0


def wall_seed(table_seed: bytes, number: int) -> bytes:
    return hashlib.sha256(table_seed + b"|wall|" + number.to_bytes(8, "big")).digest()


def arena(
    slug: str, level_a: str, level_b: str, walls: int, table_seed: bytes, stage: int = 0
) -> dict[str, Any]:
    """``stage`` (1-4) plays stage hands, needed and allowed only with ``slug`` stage."""
    ruleset = get_ruleset(slug)
    if (ruleset.scoring == "stage") != bool(stage):
        raise ValueError("the stage ruleset needs a stage (1-4), and only it takes one")
    stake = stage_level(stage).stake if stage else 0
    sides = (Side(level_a), Side(level_b))
    bots = (
        get_bot(level_a, table_seed + b"|A", ruleset),
        get_bot(level_b, table_seed + b"|B", ruleset),
    )
    draws = 0
    started = time.process_time()
    for number in range(walls):
        seed = wall_seed(table_seed, number)
        wall_points = [0.0, 0.0]
        for a_seat in (0, 1):
            seat_side = (0, 1) if a_seat == 0 else (1, 0)  # seat -> side index
            hand = (
                new_hand(ruleset, seed, stage=stage, stage_player=STAGE_PLAYER)
                if stage
                else new_hand(ruleset, seed)
            )
            state = play(
                hand,
                [bots[seat_side[0]], bots[seat_side[1]]],
                [sides[seat_side[0]], sides[seat_side[1]]],
            )
            outcome = state.outcome
            assert outcome is not None  # play returns the hand ended
            points = (
                _stage_points(state.ruleset, outcome, stake)
                if stage
                else _net_points(ruleset, outcome)
            )
            for seat in (0, 1):
                wall_points[seat_side[seat]] += points[seat]
            if stage:
                player = sides[seat_side[STAGE_PLAYER]]
                player.player_points.append(points[STAGE_PLAYER])
                player.player_wins += outcome.winner == STAGE_PLAYER
            if outcome is None or outcome.kind == DRAW:
                draws += 1
                continue
            if outcome.winner is not None:
                winner = sides[seat_side[outcome.winner]]
                winner.wins += 1
                winner.self_draws += outcome.kind == SELF_DRAW
                if outcome.kind == DISCARD_WIN:
                    assert outcome.loser is not None  # the discarder
                    sides[seat_side[outcome.loser]].deal_ins += 1
        for i in (0, 1):
            sides[i].points.append(wall_points[i] / 2)
    return {
        "slug": slug,
        "walls": walls,
        "hands": 2 * walls,
        "draws": draws,
        "sides": sides,
        "cpu_seconds": time.process_time() - started,
        "stage": stage,
        "stake": stake,
    }


def play(state: GameState, bots: Sequence[Bot], timers: Sequence[Side]) -> GameState:
    """Play one hand; ``timers`` (a ``Side`` per seat) get each decision's wall-clock
    and CPU time (the thread's: on a shared machine, the wait for a core is left out)."""
    for _ in range(MAX_ACTIONS_PER_HAND):
        if state.phase == ENDED:
            return state
        seat = state.turn
        offered = legal_actions(state, seat)
        if len(offered) == 1:
            action = offered[0]  # forced: nothing to decide
        else:
            began, began_cpu = time.perf_counter(), time.thread_time()
            action = bots[seat].choose(view(state, seat), offered)
            timers[seat].cpu.append(time.thread_time() - began_cpu)
            timers[seat].times.append(time.perf_counter() - began)
        state, _events = apply(state, seat, action)
    raise RuntimeError(f"hand {state.seed.hex()} did not end after {MAX_ACTIONS_PER_HAND} actions")


def _net_points(ruleset: Ruleset, outcome: Outcome) -> tuple[int, int]:
    if outcome.kind == DRAW:
        return 0, 0
    score = score_win(ruleset, outcome.context) if outcome.context is not None else None
    settlement = settle(ruleset, outcome, score, Table(base=1))
    return settlement.delta(0), settlement.delta(1)


def _stage_points(ruleset: Ruleset, outcome: Outcome, stake: int) -> tuple[int, int]:
    """The player role's stage score change (the house's payout less the stake placed
    before the hand), and its negation for the computer role."""
    score = score_win(ruleset, outcome.context) if outcome.context is not None else None
    paid = settle(ruleset, outcome, score, Table(player=STAGE_PLAYER, stake=stake)).delta(
        STAGE_PLAYER
    )
    change = [0, 0]
    change[STAGE_PLAYER] = paid - stake
    change[1 - STAGE_PLAYER] = stake - paid
    return change[0], change[1]


# ----- the report --------------------------------------------------------------------
def mean_ci(samples: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal confidence interval."""
    n = len(samples)
    mean = sum(samples) / n if n else 0.0
    if n < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(samples) / math.sqrt(n)
    return mean, mean - half, mean + half


def proportion_ci(k: int, n: int) -> tuple[float, float, float]:
    """Wilson 95% interval of a proportion."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z, p = 1.96, k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(result: dict[str, Any], args: Namespace | None = None) -> str:
    sides, hands = result["sides"], result["hands"]
    lines = [
        f"arena {result['slug']}: A={sides[0].level} vs B={sides[1].level}, "
        f"{result['walls']} walls x 2 seatings = {hands} hands"
        + (f", seed {args.seed}" if args is not None else "")
    ]
    lines.append(
        f"{'side':<5}{'level':<11}{'wins':>6}{'win%':>8}{'deal-in%':>10}{'points/hand':>13}  95% CI"
    )
    for name, side in zip("AB", sides):
        mean, low, high = mean_ci(side.points)
        lines.append(
            f"{name:<5}{side.level:<11}{side.wins:>6}{100 * side.wins / hands:>7.1f}%"
            f"{100 * side.deal_ins / hands:>9.1f}%{mean:>+13.3f}"
            f"  [{low:+.3f}, {high:+.3f}]"
        )
    decisive = sides[0].wins + sides[1].wins
    share, low, high = proportion_ci(sides[0].wins, decisive)
    lines.append(
        f"draws: {result['draws']} ({100 * result['draws'] / hands:.1f}%); decisive hands "
        f"won by A: {100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {decisive}"
    )
    diff = [a - b for a, b in zip(sides[0].points, sides[1].points)]
    mean, low, high = mean_ci(diff)
    lines.append(f"A - B points per hand: {mean:+.3f}  95% CI [{low:+.3f}, {high:+.3f}]")
    for name, side in zip("AB", sides):
        ms = [t * 1000 for t in side.times]
        lines.append(
            f"decision time {name} ({side.level}): median {percentile(ms, 0.5):.2f} ms, "
            f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms, default=0):.2f} ms "
            f"over {len(ms)} decisions"
        )
    for name, side in zip("AB", sides):
        ms = [t * 1000 for t in side.cpu]
        lines.append(
            f"decision cpu {name} ({side.level}): median {percentile(ms, 0.5):.2f} ms, "
            f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms, default=0):.2f} ms"
        )
    if result.get("stage"):
        lines.extend(_player_role_lines(result))
    cpu = result["cpu_seconds"]
    lines.append(f"cpu: {cpu:.1f} s, {hands / cpu if cpu else 0:.1f} hands per CPU second")
    return "\n".join(lines) + "\n"


def _player_role_lines(result: dict[str, Any]) -> list[str]:
    lines = [
        f"stage {result['stage']} (stake {result['stake']}), in the player role "
        f"(seat {STAGE_PLAYER}, offers and rigged deals):"
    ]
    for name, side in zip("AB", result["sides"]):
        played = len(side.player_points)
        mean, low, high = mean_ci(side.player_points)
        lines.append(
            f"player {name} ({side.level}): wins {side.player_wins} of {played}, "
            f"score change per hand {mean:+.1f}  95% CI [{low:+.1f}, {high:+.1f}]"
        )
    return lines
