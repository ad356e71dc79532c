"""关卡 stage mode (RULES.md 5): the four stages, the features each adds, and the facts
of a stage hand that the state carries.

A stage hand is a ``stage`` ruleset hand whose ``Session.stage`` names the stage (1-4)
and ``Session.stage_player`` the human's seat; ``GameState.stage`` holds this hand's
offers. The rules of the climb across hands are in ``stage_run``, the deal in
``stage_deal``, the offers (起始换牌, 搓牌, 游戏中换牌) in ``stage_offers``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .errors import EngineError

if TYPE_CHECKING:
    from .rulesets import Ruleset

# Feature keys, in the order the stages add them (RULES.md 5.2, 5.4)
STREAK_BONUS = "streak_bonus"  # 三连庄拍分
START_EXCHANGE = "start_exchange"  # 起始换牌
FIVE_HAIDI = "five_haidi"  # 五张海底摸牌
DRAW_ANY = "draw_any"  # 随机摸任意牌: 搓牌 + 游戏中换牌
BLEED = "bleed"  # 平常番配牌大出血
BLEED_YAKUMAN = "bleed_yakuman"  # 役满型配牌大出血
FEATURES = (STREAK_BONUS, START_EXCHANGE, FIVE_HAIDI, DRAW_ANY, BLEED, BLEED_YAKUMAN)
FEATURE_NAMES = {
    STREAK_BONUS: ("三连庄拍分", "Triple dealer streak bonus"),
    START_EXCHANGE: ("起始换牌", "Exchange tiles at the start"),
    FIVE_HAIDI: ("五张海底摸牌", "Five extra draws at the end (五张海底摸牌)"),
    DRAW_ANY: ("随机摸任意牌", "Pick from the wall and swap (搓牌, 游戏中换牌)"),
    BLEED: ("平常番配牌大出血", "Big-bleed deal (regular hand)"),
    BLEED_YAKUMAN: ("役满型配牌大出血", "Big-bleed deal (yakuman)"),
}
HAIDI_DRAWS_FIVE = 5


@dataclass(frozen=True)
class StageLevel:
    number: int
    pass_score: int  # 过关分数
    start_score: int  # 玩家分数 on entering the stage
    stake: int  # 每局押分
    adds: tuple[str, ...]

    @property
    def features(self) -> tuple[str, ...]:
        """Features are cumulative: this stage's and every earlier one's (5.2)."""
        return tuple(f for level in STAGES[: self.number] for f in level.adds)

    def has(self, feature: str) -> bool:
        return feature in self.features


STAGES: tuple[StageLevel, ...] = (
    StageLevel(1, 4_000, 1_500, 300, (STREAK_BONUS,)),
    StageLevel(2, 10_000, 3_000, 600, (START_EXCHANGE, FIVE_HAIDI)),
    StageLevel(3, 20_000, 5_000, 1_000, (DRAW_ANY, BLEED)),
    StageLevel(4, 50_000, 10_000, 2_500, (BLEED_YAKUMAN,)),
)
LAST_STAGE = len(STAGES)


def stage_level(number: int) -> StageLevel:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= LAST_STAGE:
        raise EngineError(f"there is no stage {number!r}; stages are 1 to {LAST_STAGE}")
    return STAGES[number - 1]


def stage_ruleset(ruleset: Ruleset, number: int) -> Ruleset:
    """The ruleset a stage plays: 五张海底摸牌 gives the 海底捞月 phase 5 draws (5.4.3)."""
    if ruleset.scoring != "stage":
        raise EngineError(f"stage hands play the stage ruleset, not {ruleset.slug!r}")
    if stage_level(number).has(FIVE_HAIDI) and ruleset.haidi_draws != HAIDI_DRAWS_FIVE:
        from .rulesets import derive

        return derive(ruleset, {"haidi_draws": HAIDI_DRAWS_FIVE})
    return ruleset


# Offers (RULES.md 5.4.2, 5.4.4): what the player may take up right now
EXCHANGE, CUO, SWAP = "exchange", "cuo", "swap"


@dataclass(frozen=True)
class StageState:
    """This hand's stage facts. ``offer`` is open only while it is the player's decision
    (``exchange`` at the deal, ``cuo``/``swap`` after a front draw); ``swap_kind`` is the
    offered triplet's kind; ``bleed`` names the rigged deal's target, revealed at the end."""

    offer: str | None = None
    swap_kind: int | None = None
    bleed: str | None = None
    exchanged: int = 0  # tiles exchanged at the start (起始换牌)
    cuo: int = 0  # 搓牌 taken this hand
    swaps: int = 0  # 游戏中换牌 taken this hand

    def evolve(self, **changes: Any) -> StageState:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "offer": self.offer,
            "swap_kind": self.swap_kind,
            "bleed": self.bleed,
            "exchanged": self.exchanged,
            "cuo": self.cuo,
            "swaps": self.swaps,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> StageState | None:
        return None if data is None else cls(**data)
