"""The riichi side of bench/shanten_bench.py. Runs inside bench/.venv-riichi, where the
PyPI ``mahjong`` package (the riichi library) is installed: it would shadow our own
``mahjong`` package anywhere else. Do not import anything from this repository here.

    python shanten_riichi.py HANDS_JSON time|check|win|win-check
    python shanten_riichi.py selfplay HANDS [SEED]
    python shanten_riichi.py cli LINES_FILE ANSWERS_FILE

Reads a JSON object of named hand lists (hands as lists of kinds 0-33) and prints one
JSON object with, per list, either the time per hand of shanten + waits the way a user
of this library gets them (``Shanten.calculate_shanten`` with regular, chiitoitsu and
kokushi forms; when it is 0, the kinds that bring it to -1), or each form's shanten and
the waits, for the agreement check; ``win`` times the win check of 14-tile hands
(``Agari.is_agari``), ``win-check`` lists its answers. ``selfplay`` is the anchor of
bench/engine_suite.py's simulate figure: the plainest random two-player hand this
library supports (deal 13 each from a shuffled 136-tile wall, draw, win check, random
discard, until a win or the wall ends), CPU microseconds per hand. ``cli`` is the anchor
of bench/shanten_cli.py: the loop of our ``shanten`` CLI (a JSON line in, its hand parsed
from notation and checked, shanten and the waits, a JSON line out) written with this
library, its answers written to ANSWERS_FILE and its CPU time per hand printed.
"""

import json
import random
import sys
import time
from importlib.metadata import version

from mahjong.agari import Agari
from mahjong.shanten import Shanten
from mahjong.tile import TilesConverter

calculate = Shanten.calculate_shanten


def counts(hand):
    out = [0] * 34
    for kind in hand:
        out[kind] += 1
    return out


def waits(tiles):
    out = []
    for kind in range(34):
        if tiles[kind] < 4:
            tiles[kind] += 1
            if calculate(tiles) == -1:
                out.append(kind)
            tiles[kind] -= 1
    return out


def shanten_and_waits(tiles):
    return waits(tiles) if calculate(tiles) == 0 else None


def time_per_hand(hands):
    start = time.perf_counter()
    for tiles in hands:
        shanten_and_waits(tiles)
    return (time.perf_counter() - start) / len(hands) * 1e6


def answers(hands):
    return {
        "standard": [calculate(t, False, False) for t in hands],
        "seven_pairs": [Shanten.calculate_shanten_for_chiitoitsu_hand(t) for t in hands],
        "thirteen_orphans": [Shanten.calculate_shanten_for_kokushi_hand(t) for t in hands],
        "waits": [shanten_and_waits(t) or [] for t in hands],
    }


def win_time_per_hand(hands):
    is_agari = Agari().is_agari
    start = time.process_time()
    for tiles in hands:
        is_agari(tiles)
    return (time.process_time() - start) / len(hands) * 1e6


def win_answers(hands):
    is_agari = Agari().is_agari
    return [bool(is_agari(tiles)) for tiles in hands]


def selfplay(hands, seed):
    """CPU microseconds per random two-player hand (see the module's docstring)."""
    rng = random.Random(seed)
    is_agari = Agari().is_agari
    start = time.process_time()
    wins = 0
    for _ in range(hands):
        wall = [kind for kind in range(34) for _ in range(4)]
        rng.shuffle(wall)
        seats = [[0] * 34, [0] * 34]
        for seat in seats:
            for _ in range(13):
                seat[wall.pop()] += 1
        turn = 0
        while wall:
            tiles = seats[turn]
            tiles[wall.pop()] += 1
            if is_agari(tiles):
                wins += 1
                break
            held = [kind for kind in range(34) for _ in range(tiles[kind])]
            tiles[rng.choice(held)] -= 1
            turn = 1 - turn
    return {"us_per_hand": (time.process_time() - start) / hands * 1e6, "wins": wins}


MEASURES = {
    "time": time_per_hand,
    "check": answers,
    "win": win_time_per_hand,
    "win-check": win_answers,
}


def notation(kinds):
    """Sorted kinds as ``147m5z``: our CLI's notation for the waits."""
    out, run_suit = [], None
    for kind in kinds:
        suit = "mpsz"[kind // 9]
        if run_suit is not None and suit != run_suit:
            out.append(run_suit)
        out.append(str(kind % 9 + 1))
        run_suit = suit
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


def cli_answer(request):
    """What our CLI checks, the way a user of this library would: notation only, a 3n+1
    hand of at most 13 tiles, no kind beyond four copies."""
    hand = request["hand"]
    if not isinstance(hand, str) or not hand or hand.strip("0123456789mpsz"):
        raise ValueError(f"hand must be tiles in notation like '123m11z', got {hand!r}")
    tiles = TilesConverter.one_line_string_to_34_array(hand)
    size = sum(tiles)
    if size % 3 != 1 or size > 13 or max(tiles) > 4:
        raise ValueError(f"{hand!r}: not a hand of 3n+1 tiles with at most 4 of a kind")
    n = calculate(tiles)
    if n == 0:
        return {"shanten": 0, "waits": notation(waits(tiles))}
    return {"shanten": n}


def cli(lines_path, answers_path):
    with open(lines_path) as stdin, open(answers_path, "w") as stdout:
        start = time.process_time()
        hands = 0
        for line in stdin:
            if not line.strip():
                continue
            ident = None
            try:
                request = json.loads(line)
                ident = request.get("id")
                result = {"id": ident, **cli_answer(request)}
            except (ValueError, KeyError, TypeError) as exc:
                result = {"id": ident, "error": str(exc)}
            stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
            stdout.flush()
            hands += 1
        spent = time.process_time() - start
    return {"us_per_hand": spent / hands * 1e6}


def main(path, what):
    if path == "cli":
        out = cli(what, sys.argv[3])
        out["version"] = version("mahjong")
        json.dump(out, sys.stdout)
        return
    if path == "selfplay":
        out = selfplay(int(what), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
        out["version"] = version("mahjong")
        json.dump(out, sys.stdout)
        return
    sets = {name: [counts(h) for h in hands] for name, hands in json.load(open(path)).items()}
    measure = MEASURES[what]
    out = {name: measure(hands) for name, hands in sets.items()}
    out["version"] = version("mahjong")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
