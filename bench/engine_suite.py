"""The engine's figures, each next to its anchor, in one run (issue 9):

* shanten + waits: bench/shanten_bench.py (ours against the riichi library, PyPI
  ``mahjong``, in bench/.venv-riichi), run as it is;
* win check: ``hand.is_win`` against riichi's ``Agari.is_agari`` on the same 14-tile
  hands (complete hands, and random ones), CPU time, best of interleaved rounds, answers
  compared;
* gb scoring: bench/gb_score.py (ours against PyMahjongGB's C++ calculator), run as it is;
* simulate: a random classic hand through the engine's state machine
  (``cli.simulate.simulate``, no checks) against the plainest random two-player hand the
  riichi library supports (draw, win check, random discard; no claims, no rules), CPU
  time per hand;
* memory per hand state: a mid-hand classic ``GameState`` (tracemalloc: the bytes its
  objects hold, per state, over many states), its stored JSON (``Hand.state``: the
  serialized length, and the parsed dict's bytes, as a view or a page reads it).

    .venv/bin/python bench/engine_suite.py [--quick]

``--quick`` runs each part small (a minute in all), for checking that the suite works.
Figures go into docs/BENCHMARKS.md ("Engine suite").
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path[:0] = [str(ROOT), str(BENCH)]

from shanten_bench import WALL, deal_ready, riichi  # noqa: E402

from mahjong.engine.cli.simulate import simulate  # noqa: E402
from mahjong.engine.game import apply, legal_actions, new_hand  # noqa: E402
from mahjong.engine.hand import is_win  # noqa: E402
from mahjong.engine.rulesets import get_ruleset  # noqa: E402
from mahjong.engine.state import GameState  # noqa: E402
from mahjong.engine.wall import seed_bytes  # noqa: E402


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


def run_script(name: str, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / name), *args], cwd=ROOT, capture_output=True, text=True
    )
    print(done.stdout.rstrip(), flush=True)
    if done.returncode:
        print(f"{name} exited {done.returncode}: {done.stderr.strip()[-500:]}")


# ----- win check ---------------------------------------------------------------------------


def win_hands(count: int, seed: int) -> dict[str, list[list[int]]]:
    rng = random.Random(seed)
    complete = []
    for tiles in deal_ready(count, seed):  # ready 13 + one of its waits = a complete hand
        for kind in rng.sample(range(34), 34):
            if tiles.count(kind) < 4 and is_win(sorted(tiles + [kind]), (), None):
                complete.append(sorted(tiles + [kind]))
                break
    return {"complete": complete, "random": [sorted(rng.sample(WALL, 14)) for _ in range(count)]}


def ours_win_us(hands: list[list[int]]) -> float:
    start = time.process_time()
    for tiles in hands:
        is_win(tiles, (), None)
    return (time.process_time() - start) / len(hands) * 1e6


def win_check(count: int, rounds: int) -> None:
    sets = win_hands(count, 7)
    ours_win_us(win_hands(count, 8)["random"])  # warm: lazily built suit tables
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(sets, f)
    best: dict[str, dict[str, float]] = {name: {} for name in sets}
    for _ in range(rounds):
        theirs = riichi(f.name, "win")
        for name, hands in sets.items():
            for who, us in (("riichi", theirs[name]), ("ours", ours_win_us(hands))):
                best[name][who] = min(us, best[name].get(who, us))
    answers = riichi(f.name, "win-check")
    print(
        f"{count} hands per set, best of {rounds} interleaved rounds, CPU us per hand "
        f"(riichi mahjong {answers['version']})"
    )
    print(f"{'set':<10}{'riichi':>9}{'ours':>9}{'speed-up':>10}  disagreements")
    for name, hands in sets.items():
        ours = [is_win(t, (), None) for t in hands]
        differ = [
            t
            for t, a, b in zip(hands, ours, answers[name], strict=True)
            if a != b and max(t.count(k) for k in set(t)) < 4
        ]  # 4 of a kind: 2 pairs
        t = best[name]
        print(
            f"{name:<10}{t['riichi']:>9.2f}{t['ours']:>9.2f}{t['riichi'] / t['ours']:>9.1f}x"
            f"  {len(differ)}"
        )


# ----- simulate ----------------------------------------------------------------------------


def simulate_vs_selfplay(hands: int, rounds: int) -> None:
    simulate("classic", 200, seed_bytes("warm"), checks=False)
    ours, theirs, actions = float("inf"), float("inf"), 0
    for r in range(rounds):
        result = simulate("classic", hands, seed_bytes(f"suite{r}"), checks=False)
        ours = min(ours, result["cpu_seconds"] / hands * 1e6)
        actions = result["actions"]
        theirs = min(theirs, riichi("selfplay", str(hands))["us_per_hand"])
    print(f"{hands} hands per round, best of {rounds}, CPU us per hand")
    print(
        f"  ours: classic hand through the state machine  {ours:9.0f}  "
        f"({actions / hands:.0f} actions/hand, {ours / (actions / hands):.0f} us/action)"
    )
    print(f"  riichi: draw / is_agari / random discard loop  {theirs:9.0f}")
    print(f"  ratio ours / riichi loop: {ours / theirs:.2f}")


# ----- memory --------------------------------------------------------------------------------


def mid_hand_state(seed: str, moves: int = 20) -> GameState:
    rng = random.Random(seed)
    state = new_hand(get_ruleset("classic"), seed_bytes(seed))
    for _ in range(moves):
        if state.ended:
            break
        state, _ = apply(state, state.turn, rng.choice(legal_actions(state, state.turn)))
    return state


def memory(count: int) -> None:
    dicts = [mid_hand_state(f"mem{i}").to_dict() for i in range(count)]
    texts = [json.dumps(d) for d in dicts]
    per_state = _traced(lambda: [GameState.from_dict(d) for d in dicts]) / count
    per_parsed = _traced(lambda: [json.loads(t) for t in texts]) / count
    size = sum(len(t.encode()) for t in texts) / count
    print(f"{count} classic states after 20 random moves each (tracemalloc, bytes per state)")
    print(f"  GameState objects (what a request holds while it acts): {per_state:9,.0f}")
    print(f"  stored JSON, serialized (Hand.state in the database):   {size:9,.0f}")
    print(f"  stored JSON, parsed into a dict:                        {per_parsed:9,.0f}")


def _traced(build) -> float:
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = build()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del kept
    return after - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: check it runs")
    args = parser.parse_args()
    q = args.quick
    print(f"Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    section("shanten + waits (bench/shanten_bench.py)")
    run_script(
        "shanten_bench.py",
        "--hands",
        "2000" if q else "20000",
        "--repeat",
        "1" if q else "3",
        "--warmup",
        "10000" if q else "100000",
    )
    section("win check, 14 tiles: hand.is_win vs riichi Agari.is_agari")
    win_check(2000 if q else 20000, 1 if q else 3)
    section("gb scoring (bench/gb_score.py)")
    run_script("gb_score.py", "--hands", "500" if q else "3000", "--rounds", "1" if q else "5")
    section("simulate: a random hand, ours vs the riichi library's plainest loop")
    simulate_vs_selfplay(200 if q else 2000, 1 if q else 3)
    section("memory per hand state")
    memory(200 if q else 2000)


if __name__ == "__main__":
    main()
