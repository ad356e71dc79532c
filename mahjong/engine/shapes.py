"""The values hand analysis hands to scoring: decompositions of a winning hand, and the
situation of the win. Shared contract between ``hand`` (shapes) and ``fans`` (values)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .melds import Meld

# Decomposition forms. "standard" is n sets + a pair; the others are special forms a
# ruleset may allow (Ruleset.forms).
STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
QUAN_BU_KAO = "quan_bu_kao"  # gb 全不靠 (14 knitted singles + honors)
QI_XING_BU_KAO = "qi_xing_bu_kao"  # gb 七星不靠
ZU_HE_LONG = "zu_he_long"  # gb 组合龙 + one set + pair
LV_YI_SE_LOOSE = "lv_yi_se_loose"  # stage 绿一色 "可以乱牌": any 14 green tiles
YING_BA_DUI = "ying_ba_dui"  # wenzhou 硬八对
SAN_CAI_SHEN = "san_cai_shen"  # wenzhou 三财神 instant win
FORMS = (
    STANDARD,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    QUAN_BU_KAO,
    QI_XING_BU_KAO,
    ZU_HE_LONG,
    LV_YI_SE_LOOSE,
    YING_BA_DUI,
    SAN_CAI_SHEN,
)


class RulesetLike(Protocol):
    """What hand analysis and scoring read of a ruleset (``rulesets.Ruleset``). A
    protocol because the rulesets import the scorer, which may not import them back
    (no import cycles between the engine's modules: pyproject.toml, importlinter)."""

    @property
    def slug(self) -> str: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def forms(self) -> frozenset[str]: ...
    @property
    def kinds(self) -> tuple[int, ...]: ...
    @property
    def fan_values(self) -> Mapping[str, int]: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def cap(self) -> int | None: ...
    @property
    def min_fan(self) -> int: ...
    @property
    def guo_hu(self) -> bool: ...
    @property
    def max_guo(self) -> int: ...


# Block shapes
CHOW, PUNG, KONG, PAIR, KNITTED, SINGLES = "chow", "pung", "kong", "pair", "knitted", "singles"


@dataclass(frozen=True, slots=True)
class Block:
    """One part of a decomposition.

    ``tiles`` are the kinds the block *plays as* (a wild or a wenzhou 白板 shows the kind
    it stands for), sorted. ``meld`` is set for declared melds (``chi``/``pon``/``kan``/
    ``ankan``; None for blocks formed in the concealed hand). ``concealed`` means every
    tile was drawn by the player; a pung completed by a discard win is marked not
    concealed by hand analysis when it is told the win was on a discard.
    ``wilds`` counts wild tiles substituting for another kind (a 财神 at its own face
    is not counted: 财神归位).
    """

    shape: str
    tiles: tuple[int, ...]
    concealed: bool = True
    meld: str | None = None
    wilds: int = 0

    @property
    def first(self) -> int:
        return self.tiles[0]


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a complete hand. ``win_block`` is the index in ``blocks`` of the
    block the winning tile completed (the same tiles read with the winning tile in
    another block is another Decomposition). ``wait`` is the wait shape the winning tile
    filled in this reading: "two_sided", "edge", "closed", "pair" (single wait), "pung"
    (shanpon: one of two pairs), or "other" (special forms)."""

    form: str
    blocks: tuple[Block, ...]
    win_block: int | None = None
    wait: str = "other"

    @property
    def sets(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.shape in (CHOW, PUNG, KONG))

    @property
    def pair(self) -> Block | None:
        pairs = [b for b in self.blocks if b.shape == PAIR]
        return pairs[0] if self.form == STANDARD and pairs else None

    @property
    def wilds(self) -> int:
        return sum(b.wilds for b in self.blocks)


@dataclass(frozen=True)
class WinContext:
    """Everything about a win that is not the tiles' shape. Mirrors the input of
    ``python -m mahjong.engine score`` (issue 3's CLI contract)."""

    hand: tuple[int, ...]  # concealed tiles WITHOUT the winning tile
    melds: tuple[Meld, ...]
    win: int  # the winning tile kind
    tsumo: bool = False  # self-drawn
    seat_wind: int = 27  # 1z..4z kind (gb); dealer is East
    round_wind: int = 27
    flowers: tuple[int, ...] = ()  # exposed flower kinds (or len() only matters)
    flower_count: int = 0  # used when only a count is known
    last_of_kind: bool = False  # 和绝张: the other three copies are visible
    last_tile: bool = False  # last live-wall tile (self-draw) or last discard
    kong_replacement: bool = False  # won on a kong replacement draw
    flower_replacement: bool = False  # won on a flower replacement draw
    robbing_kong: bool = False
    dealer: bool = False
    ting: str | bool = False  # False, "ready" or "tian_ting"
    first_turn: bool = False  # 天和/地和/人和 in each ruleset's own meaning
    haidi_phase: bool = False  # classic/stage 海底捞月 phase win
    passes: int = 0  # quesheng 过胡 count
    wild: int | None = None  # wenzhou 财神 kind (the indicator's kind)
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def num_flowers(self) -> int:
        return len(self.flowers) or self.flower_count

    @classmethod
    def of(cls, fields: dict[str, Any]) -> WinContext:
        """A WinContext from fields the caller has already checked (names included),
        the others at their defaults, without the dataclass ``__init__``: setting 21
        frozen fields one by one costs about 3 us, and the score CLI makes one per line
        (as ``state.Value.evolve`` does for game states)."""
        ctx = object.__new__(cls)
        ctx.__dict__.update(_WIN_DEFAULTS)
        ctx.__dict__.update(fields)
        ctx.__dict__["extras"] = fields.get("extras") or {}
        return ctx


_WIN_DEFAULTS = {
    f.name: f.default
    for f in dataclasses.fields(WinContext)
    if f.default is not dataclasses.MISSING
}


# How a hand ended (Outcome.kind)
SELF_DRAW, DISCARD_WIN, DRAW, ESCAPE = "self_draw", "discard_win", "draw", "escape"


@dataclass(frozen=True)
class Outcome:
    """How a hand ended. ``context`` is set for wins (what scoring needs);
    ``escaper`` for an escape. Seats are 0 and 1."""

    kind: str  # SELF_DRAW | DISCARD_WIN | DRAW | ESCAPE
    winner: int | None = None
    loser: int | None = None  # the payer: discarder, or opponent on a self-draw
    context: WinContext | None = None
    escaper: int | None = None
    robbed_kong: bool = False  # classic pays a robbed kong like a self-draw
