"""Random legal gb winning hands from a seeded RNG, and their translation to the input
of the standard competition calculator (PyPI ``PyMahjongGB``). Used by the oracle
test and by ``bench/gb_score.py``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from mahjong.engine.melds import Meld
from mahjong.engine.shapes import WinContext
from mahjong.engine.tiles import EAST, format_tiles

KNITTED = [(0, 3, 6), (1, 4, 7), (2, 5, 8)]
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
FORMS = ("standard", "seven_pairs", "thirteen_orphans", "knitted", "knitted_straight")
FORM_WEIGHTS = (84, 8, 2, 3, 3)


@dataclass(frozen=True)
class Deal:
    ctx: WinContext

    def as_json(self, ident) -> dict:
        """The score CLI's input line for this hand."""
        c = self.ctx
        return {
            "id": ident,
            "hand": format_tiles(sorted(c.hand)),
            "melds": [str(m) for m in c.melds],
            "win": format_tiles([c.win]),
            "tsumo": c.tsumo,
            "seat": format_tiles([c.seat_wind]),
            "round": format_tiles([c.round_wind]),
            "flowers": c.flower_count,
            "last_of_kind": c.last_of_kind,
            "last_tile": c.last_tile,
            "kong_replacement": c.kong_replacement,
            "robbing_kong": c.robbing_kong,
        }


# ----- generation ------------------------------------------------------------------------
def _pool(rng) -> list[int]:
    """Kinds to draw from: sometimes one suit (+ honors) so flushes and the
    set-combination fans come up often."""
    roll = rng.random()
    if roll < 0.25:
        suit = rng.randrange(3) * 9
        return list(range(suit, suit + 9)) + (list(range(27, 34)) if rng.random() < 0.5 else [])
    if roll < 0.35:
        return [k for k in range(34) if k >= 27 or k % 9 in (0, 8)]
    if roll < 0.45:
        return [
            k
            for k in range(27)
            if k % 9
            in rng.choice([(0, 1, 2), (3, 4, 5), (6, 7, 8), (1, 3, 5, 7), (3, 4, 5, 6, 7, 8, 2)])
        ]
    return list(range(34))


def _standard(rng, counts) -> tuple[list, int] | None:
    pool = _pool(rng)
    sets = []
    for _ in range(4):
        for _attempt in range(20):
            kind = rng.choice(pool)
            chow = kind < 27 and kind % 9 <= 6 and rng.random() < 0.55
            tiles = [kind, kind + 1, kind + 2] if chow else [kind] * 3
            if chow and not all(t in pool for t in tiles):
                continue
            if all(counts[t] + tiles.count(t) <= 4 for t in tiles):
                for t in tiles:
                    counts[t] += 1
                sets.append(tiles)
                break
        else:
            return None
    pairs = [k for k in pool if counts[k] <= 2]
    if not pairs:
        return None
    pair = rng.choice(pairs)
    counts[pair] += 2
    return sets, pair


def _meld(rng, tiles, counts) -> Meld | None:
    if tiles[0] != tiles[1]:
        return Meld("chi", tuple(tiles))
    kind = tiles[0]
    if counts[kind] == 3 and rng.random() < 0.3:  # a kong needs the fourth copy free
        counts[kind] += 1
        return Meld(rng.choice(("kan", "ankan")), (kind,) * 4)
    return Meld("pon", tuple(tiles))


def _standard_deal(rng):
    counts = [0] * 34
    made = _standard(rng, counts)
    if made is None:
        return None
    sets, pair = made
    melds, concealed = [], [pair, pair]
    n_melds = rng.choice((0, 0, 1, 1, 2, 3, 4))
    for i, tiles in enumerate(sets):
        meld = _meld(rng, tiles, counts) if i < n_melds else None
        if meld:
            melds.append(meld)
        else:
            concealed.extend(tiles)
    return concealed, melds


def _seven_pairs(rng):
    pool = _pool(rng)
    counts = [0] * 34
    tiles = []
    while len(tiles) < 14:
        kind = rng.choice(pool)
        if counts[kind] <= 2:
            counts[kind] += 2
            tiles += [kind, kind]
    return tiles, []


def _thirteen_orphans(rng):
    return list(ORPHANS) + [rng.choice(ORPHANS)], []


def _knitted_numbers(rng) -> list[int]:
    order = rng.sample(range(3), 3)
    return [suit * 9 + r for suit, group in zip(range(3), order) for r in KNITTED[group]]


def _knitted(rng):
    """全不靠 / 七星不靠: 14 singles from a knitted pattern and the honors."""
    numbers = _knitted_numbers(rng)
    n_honors = rng.randint(5, 7)
    tiles = rng.sample(numbers, 14 - n_honors) + rng.sample(range(27, 34), n_honors)
    return tiles, []


def _knitted_straight(rng):
    counts = [0] * 34
    numbers = _knitted_numbers(rng)
    for t in numbers:
        counts[t] += 1
    kind = rng.randrange(34)
    chow = kind < 27 and kind % 9 <= 6 and rng.random() < 0.5
    tiles = [kind, kind + 1, kind + 2] if chow else [kind] * 3
    pair = rng.randrange(34)
    for t in tiles + [pair, pair]:
        counts[t] += 1
    if max(counts) > 4:
        return None
    if rng.random() < 0.3:
        meld = _meld(rng, tiles, counts)
        if max(counts) <= 4:
            return numbers + [pair, pair], [meld]
    return numbers + tiles + [pair, pair], []


BUILDERS = {
    "standard": _standard_deal,
    "seven_pairs": _seven_pairs,
    "thirteen_orphans": _thirteen_orphans,
    "knitted": _knitted,
    "knitted_straight": _knitted_straight,
}


def random_deal(rng: random.Random) -> Deal:
    while True:
        form = rng.choices(FORMS, FORM_WEIGHTS)[0]
        made = BUILDERS[form](rng)
        if made is not None:
            return _situation(rng, *made)


def _situation(rng, concealed: list[int], melds: list[Meld]) -> Deal:
    win = rng.choice(concealed)
    hand = list(concealed)
    hand.remove(win)
    tsumo = rng.random() < 0.5
    has_kong = any(m.is_kong for m in melds)
    ctx = WinContext(
        hand=tuple(sorted(hand)),
        melds=tuple(melds),
        win=win,
        tsumo=tsumo,
        seat_wind=EAST + rng.randrange(4),
        round_wind=EAST + rng.randrange(4),
        flower_count=rng.choice((0, 0, 0, 1, 2)),
        last_of_kind=rng.random() < 0.15,
        last_tile=rng.random() < 0.1,
        kong_replacement=tsumo and has_kong and rng.random() < 0.3,
        robbing_kong=not tsumo and rng.random() < 0.1,
    )
    return Deal(ctx)


# ----- the calculator's input ----------------------------------------------------------
def calculator_tile(kind: int) -> str:
    if kind < 27:
        return "WBT"[kind // 9] + str(kind % 9 + 1)
    if kind < 31:
        return f"F{kind - 26}"
    return f"J{34 - kind}"  # J1 中, J2 發, J3 白


def calculator_args(deal: Deal) -> dict:
    c = deal.ctx
    packs = []
    for m in c.melds:
        if m.type == "chi":
            packs.append(("CHI", calculator_tile(m.tiles[1]), 1))
        elif m.type == "pon":
            packs.append(("PENG", calculator_tile(m.tiles[0]), 1))
        else:
            packs.append(("GANG", calculator_tile(m.tiles[0]), 0 if m.type == "ankan" else 1))
    return dict(
        pack=tuple(packs),
        hand=tuple(calculator_tile(k) for k in c.hand),
        winTile=calculator_tile(c.win),
        flowerCount=c.flower_count,
        isSelfDrawn=c.tsumo,
        is4thTile=c.last_of_kind,
        isAboutKong=c.kong_replacement or c.robbing_kong,
        isWallLast=c.last_tile,
        seatWind=c.seat_wind - EAST,
        prevalentWind=c.round_wind - EAST,
    )


# ----- the generator itself ------------------------------------------------------------
def test_generated_hands_are_legal_gb_wins():
    from mahjong.engine import hand
    from mahjong.engine.rulesets import RULESETS

    rng = random.Random(7)
    for _ in range(200):
        c = random_deal(rng).ctx
        assert len(c.hand) + 3 * len(c.melds) == 13
        assert hand.decompose(list(c.hand), list(c.melds), c.win, RULESETS["gb"], tsumo=c.tsumo)
