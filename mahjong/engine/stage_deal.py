"""The deal of a stage hand (RULES.md 5.1, 5.4.2, 5.4.5): the 71 playing tiles, the
配牌大出血 rigged deals, and the 起始换牌 phase the hand starts in.

Every random choice comes from the hand's seed through SHA-256 sub-streams (the wall's
construction, ``wall.ByteStream``) with labels of their own, so the published seed
rebuilds the rigged deal as it rebuilds the shuffle.
"""

from __future__ import annotations

from .stage import BLEED, BLEED_YAKUMAN, START_EXCHANGE, StageState, stage_level
from .state import EXCHANGE, GameState, SeatState
from .tiles import parse_tiles
from .wall import ByteStream, shuffled

# 5.4.5: complete 14-tile targets. Regular ones are worth at least 6 fan (tests check).
REGULAR_TARGETS = {
    "清一色 + 一气通贯": "123456789m22m345m",
    "混一色 + 碰碰胡 + 小三元": "111m999m77z555z666z",
    "七对子 + 清一色": "11223355778899p",
    "清一色 + 一杯口": "112233s456s789s55s",
    "混一色 + 一气通贯": "123456789p111z22z",
}
YAKUMAN_TARGETS = {
    "大三元": "555z666z777z123m99m",
    "小四喜": "111z222z333z44z567p",
    "四暗刻": "111m333p555s777m99s",
    "字一色": "111z222z555z666z77z",
    "清老头": "111m999m111p999p11s",
    "绿一色": "234s234s666s888s66z",
    "九莲宝灯": "11123456789995m",
    "国士无双": "19m19p19s12345677z",
    "大车轮": "22334455667788p",
    "东北新干线": "123456789m111z44z",
}
TARGET_DEALT = 10  # target tiles in the player's dealt hand
TARGET_SPREAD = 16  # the other 4 lie among this many first live-wall tiles
CHANCE_SCALE = 1_000_000


def chance(stream: ByteStream, probability: float) -> bool:
    """True with ``probability``, read from the stream (six decimal places)."""
    return stream.below(CHANCE_SCALE) < round(probability * CHANCE_SCALE)


def pick_distinct(stream: ByteStream, population: int, k: int) -> list[int]:
    """``k`` distinct indices of range(population), uniformly (partial Fisher-Yates)."""
    pool = list(range(population))
    for i in range(k):
        j = i + stream.below(population - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def bleed_target(state: GameState) -> tuple[str, tuple[int, ...]] | None:
    """5.4.5: a yakuman target (stage 4, ``p_bleed_yakuman``), else a regular one (stage
    3+, ``p_bleed``), else none."""
    level = stage_level(state.session.stage)
    options = state.ruleset.options
    stream = ByteStream(state.wall_seed, b"stage-bleed")
    for feature, option, targets in (
        (BLEED_YAKUMAN, "p_bleed_yakuman", YAKUMAN_TARGETS),
        (BLEED, "p_bleed", REGULAR_TARGETS),
    ):
        if level.has(feature) and chance(stream, options[option]):
            names = sorted(targets)
            name = names[stream.below(len(names))]
            return name, tuple(parse_tiles(targets[name]))
    return None


def start_stage_hand(state: GameState, rig: bool = True) -> GameState:
    """A freshly dealt stage hand: rigged if the bleed roll says so (never a scripted
    wall: ``rig`` False), then waiting for the player's 起始换牌 where the stage has it."""
    level = stage_level(state.session.stage)
    stage = StageState()
    target = bleed_target(state) if rig else None
    if target is not None:
        state = _rigged(state, *target)
        stage = stage.evolve(bleed=target[0])
    state = state.evolve(stage=stage)
    if level.has(START_EXCHANGE):
        player = state.session.stage_player
        state = state.evolve(phase=EXCHANGE, turn=player, stage=stage.evolve(offer=EXCHANGE))
    return state


def _rigged(state: GameState, name: str, target: tuple[int, ...]) -> GameState:
    """The target's tiles are forced into the 71 playing tiles: 10 of them in the
    player's hand, the other 4 at random among the first 16 live-wall tiles; everything
    else follows the shuffled box."""
    rs = state.ruleset
    assert rs.playing_tiles is not None  # the stage plays 71 tiles of the box
    stream = ByteStream(state.wall_seed, b"stage-bleed-deal|" + name.encode())
    box = list(shuffled(rs.tile_set, state.wall_seed))
    for kind in target:  # the target's copies leave the box first
        box.remove(kind)
    dealt_idx = set(pick_distinct(stream, len(target), TARGET_DEALT))
    dealt = [t for i, t in enumerate(target) if i in dealt_idx]
    missing = [t for i, t in enumerate(target) if i not in dealt_idx]
    others, unused = box[: rs.playing_tiles - len(target)], box[rs.playing_tiles - len(target) :]

    player, dealer = state.session.stage_player, state.dealer
    sizes = {dealer: rs.hand_size + 1, 1 - dealer: rs.hand_size}
    mine = dealt + others[: sizes[player] - TARGET_DEALT]
    others = others[sizes[player] - TARGET_DEALT :]
    theirs, others = others[: sizes[1 - player]], others[sizes[1 - player] :]

    live: list[int | None] = [None] * (len(others) + len(missing))
    for pos, tile in zip(pick_distinct(stream, TARGET_SPREAD, len(missing)), missing):
        live[pos] = tile
    rest = iter(others)
    live = [t if t is not None else next(rest) for t in live]
    reserve, unused = unused[: rs.haidi_draws], unused[rs.haidi_draws :]
    hands = {player: tuple(sorted(mine)), 1 - player: tuple(sorted(theirs))}
    seats = tuple(SeatState(concealed=hands[s]) for s in (0, 1))
    return state.evolve(seats=seats, live=tuple(live), reserve=tuple(reserve), unused=tuple(unused))
