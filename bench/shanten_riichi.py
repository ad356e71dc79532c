"""The riichi side of bench/shanten_bench.py. Runs inside bench/.venv-riichi, where the
PyPI ``mahjong`` package (the riichi library) is installed: it would shadow our own
``mahjong`` package anywhere else. Do not import anything from this repository here.

    python shanten_riichi.py HANDS_JSON time|check

Reads a JSON object of named hand lists (hands as lists of kinds 0-33) and prints one
JSON object with, per list, either the time per hand of shanten + waits the way a user
of this library gets them (``Shanten.calculate_shanten`` with regular, chiitoitsu and
kokushi forms; when it is 0, the kinds that bring it to -1), or each form's shanten and
the waits, for the agreement check.
"""

import json
import sys
import time
from importlib.metadata import version

from mahjong.shanten import Shanten

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


def main(path, what):
    sets = {name: [counts(h) for h in hands] for name, hands in json.load(open(path)).items()}
    measure = time_per_hand if what == "time" else answers
    out = {name: measure(hands) for name, hands in sets.items()}
    out["version"] = version("mahjong")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
