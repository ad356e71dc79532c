"""A ruleset is frozen data: tile set, hand size, options, timers and the scoring
parameters. Code branches only on named options, never on the slug."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from ..errors import InvalidRuleset
from ..shapes import FORMS
from ..tiles import FLOWERS, SUIT_BASE, SUIT_SIZE


@dataclass(frozen=True)
class Timers:
    decision: int = 15  # seconds for every own-turn and claim decision (3.12)
    locked_delay: float = 1.0  # auto-play delay of a player locked by 报听 (3.9.5)
    escape: int = 90  # continuous disconnection that counts as escape (3.13)
    bot_delay: float = 1.2  # human-like pause before a bot acts
    # every claim window's least length, option or not (tables: the window tells nothing);
    # the latest discard's first pulse on the river (1.4 s) covers it
    claim_pause: float = 1.0


@dataclass(frozen=True)
class Ruleset:
    slug: str
    name_zh: str
    name_en: str
    suits: str  # number suits + "z" for honors, e.g. "mz", "mpsz"
    flowers: bool
    hand_size: int = 13
    copies: int = 4
    playing_tiles: int | None = None  # stage: 71 tiles drawn from the box per hand
    haidi_phase: bool = False
    haidi_draws: int = 0
    bao_ting: bool = False
    tian_ting: bool = False
    locked_addkan: bool = False  # tiao72: a locked (报听) hand may still 上杠
    rob_kong: bool = True  # robbing an added kong (抢杠)
    wilds: bool = False  # wenzhou 财神 indicator
    guo_hu: bool = False  # quesheng 过胡加倍
    max_guo: int = 0
    flower_kaihua: bool = False  # tiao72: a flower replacement win is 杠上开花
    forms: frozenset[str] = frozenset({"standard", "seven_pairs"})
    min_fan: int = 0  # flowers never count toward it
    cap: int | None = None  # cap on the counted fan / multiplier
    scoring: str = "classic"  # settlement formula key
    self_draw_multiplier: int = 1
    discard_multiplier: int = 1
    rake_percent: int = 0
    escape_penalty: int = 0  # points (or fan, or multiplier) per ruleset's scoring
    dealer_rule: str = "winner"  # "winner" | "random" | "alternate"
    match_hands: int | None = None  # gb: an 8-hand match with round winds
    base_levels: tuple[int, ...] = (1,)
    base_points: int = 1  # 底分
    auto_win_on_timeout: bool = True
    timers: Timers = field(default_factory=Timers)
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    fan_values: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    # ----- derived facts -------------------------------------------------------------
    @cached_property  # asked on every win check and wait search: computed once per ruleset
    def kinds(self) -> tuple[int, ...]:
        """Playing tile kinds (flowers excluded)."""
        out: list[int] = []
        for suit in self.suits:
            base = SUIT_BASE[suit]
            out.extend(range(base, base + SUIT_SIZE[suit]))
        return tuple(out)

    @cached_property
    def tile_set(self) -> tuple[int, ...]:
        """Every physical tile of the box, as kinds."""
        tiles = [k for k in self.kinds for _ in range(self.copies)]
        if self.flowers:
            tiles.extend(FLOWERS)
        return tuple(tiles)

    @property
    def tile_count(self) -> int:
        return len(self.kinds) * self.copies + (len(FLOWERS) if self.flowers else 0)

    @property
    def sets_in_hand(self) -> int:
        return (self.hand_size - 1) // 3


# Which fields an operator may override, and the check each value must pass: the check's
# code (errors.RULESET_CHECKS) with its limits, and the English words for the message.
def _bool(v: object) -> bool:
    return isinstance(v, bool)


def _nonneg_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


# The most an operator may set a value counted in points (a fan, the cap, the minimum fan,
# the base, the escape penalty) or a multiplier to: far above every built-in table (GB's
# biggest fan is 88), and small enough that a hand's points fit a player's rank score. A
# typo of many digits was accepted and failed the settlement of the first hand it ended.
MAX_POINTS = 1000
MAX_MULTIPLIER = 10


def _whole(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: _nonneg_int(v) and low <= v <= high


def _opt_points(v: object) -> bool:
    return v is None or _whole(1, MAX_POINTS)(v)


# (check, the expected value in English, its code, the limits)
_Check = tuple[Callable[[Any], bool], str, str, dict[str, Any]]


def _range(low: int, high: int) -> _Check:
    return (
        _whole(low, high),
        f"a whole number from {low} to {high}",
        "whole_number",
        {"low": low, "high": high},
    )


_TRUE_OR_FALSE: _Check = (_bool, "true or false", "true_or_false", {})
_AT_LEAST_0: _Check = (_nonneg_int, "a whole number >= 0", "whole_number", {"low": 0, "high": None})
_POINTS_FROM_0 = _range(0, MAX_POINTS)
_POINTS_FROM_1 = _range(1, MAX_POINTS)
_MULTIPLIER = _range(1, MAX_MULTIPLIER)

OVERRIDABLE: dict[str, _Check] = {
    "haidi_draws": _AT_LEAST_0,
    "bao_ting": _TRUE_OR_FALSE,
    "tian_ting": _TRUE_OR_FALSE,
    "rob_kong": _TRUE_OR_FALSE,
    "max_guo": _AT_LEAST_0,
    "min_fan": _POINTS_FROM_0,
    "cap": (
        _opt_points,
        f"null or a whole number from 1 to {MAX_POINTS}",
        "whole_number_or_none",
        {"low": 1, "high": MAX_POINTS},
    ),
    "self_draw_multiplier": _MULTIPLIER,
    "discard_multiplier": _MULTIPLIER,
    "rake_percent": _range(0, 50),
    "escape_penalty": _POINTS_FROM_0,
    "base_points": _POINTS_FROM_1,
    "auto_win_on_timeout": _TRUE_OR_FALSE,
}
TIMER_LIMITS = {
    "decision": (3, 300),
    "locked_delay": (0, 10),
    "escape": (10, 3600),
    "bot_delay": (0, 10),
    "claim_pause": (0, 5),
}
_GROUPS = ("timers", "options", "fan_values")


def derive(ruleset: Ruleset, overrides: Mapping[str, Any] | None) -> Ruleset:
    """A new ruleset with operator overrides applied, or InvalidRuleset naming the value.

    ``overrides`` may hold the fields of OVERRIDABLE, ``timers`` (a dict), ``options``
    (existing option names only) and ``fan_values`` (checked by the scorer's fan table).
    """
    if not overrides:
        return ruleset
    if not isinstance(overrides, Mapping):
        raise InvalidRuleset(
            f"overrides must be an object of name: value, got {overrides!r}",
            code="not_object",
            setting=(),
            value=overrides,
        )
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name == "timers":
            changes["timers"] = _derive_timers(ruleset.timers, value)
        elif name == "options":
            changes["options"] = _derive_options(ruleset, value)
        elif name == "fan_values":
            changes["fan_values"] = _derive_fan_values(ruleset, value)
        elif name in OVERRIDABLE:
            check, expected, code, limits = OVERRIDABLE[name]
            if not check(value):
                raise InvalidRuleset(
                    f"{name} must be {expected}, got {value!r}",
                    code=code,
                    setting=(name,),
                    value=value,
                    **limits,
                )
            changes[name] = value
        else:
            allowed = sorted([*OVERRIDABLE, *_GROUPS])
            raise InvalidRuleset(
                f"{name!r} cannot be overridden; allowed: {', '.join(allowed)}",
                code="unknown_setting",
                setting=(name,),
                allowed=allowed,
            )
    derived = dataclasses.replace(ruleset, **changes)
    check_consistency(derived)
    return derived


def _derive_timers(timers: Timers, value: object) -> Timers:
    if not isinstance(value, Mapping):
        raise InvalidRuleset(
            f"timers must be an object, got {value!r}",
            code="not_object",
            setting=("timers",),
            value=value,
        )
    for name, v in value.items():
        if name not in TIMER_LIMITS:
            raise InvalidRuleset(
                f"unknown timer {name!r}; timers are {', '.join(TIMER_LIMITS)}",
                code="unknown_timer",
                setting=("timers", name),
                allowed=list(TIMER_LIMITS),
            )
        low, high = TIMER_LIMITS[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high:
            raise InvalidRuleset(
                f"timer {name} must be a number from {low} to {high} seconds, got {v!r}",
                code="seconds",
                setting=("timers", name),
                value=v,
                low=low,
                high=high,
            )
    return dataclasses.replace(timers, **value)


def _derive_options(ruleset: Ruleset, value: object) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidRuleset(
            f"options must be an object, got {value!r}",
            code="not_object",
            setting=("options",),
            value=value,
        )
    merged = dict(ruleset.options)
    for name, v in value.items():
        setting = ("options", name)
        if name not in merged:
            known = ", ".join(sorted(merged)) or "none"
            raise InvalidRuleset(
                f"{ruleset.slug} has no option {name!r} (options: {known})",
                code="unknown_option",
                setting=setting,
                ruleset=ruleset.slug,
                allowed=sorted(merged),
            )
        kind = type(merged[name]).__name__
        if kind == "float" and type(v) is int:
            v = float(v)  # 0 and 1 are probabilities as good as 0.0 and 1.0
        if type(v) is not type(merged[name]):
            raise InvalidRuleset(
                f"option {name} must be {kind}, got {v!r}",
                code="option_type",
                setting=setting,
                value=v,
                kind=kind,
            )
        if isinstance(v, float) and not 0.0 <= v <= 1.0:
            raise InvalidRuleset(
                f"option {name} is a probability from 0 to 1, got {v!r}",
                code="probability",
                setting=setting,
                value=v,
                low=0,
                high=1,
            )
        merged[name] = v
    return MappingProxyType(merged)


def _derive_fan_values(ruleset: Ruleset, value: object) -> Mapping[str, int]:
    if not isinstance(value, Mapping):
        raise InvalidRuleset(
            f"fan_values must be an object of fan key: value, got {value!r}",
            code="not_object",
            setting=("fan_values",),
            value=value,
        )
    for key, v in value.items():
        if not _whole(0, MAX_POINTS)(v):
            raise InvalidRuleset(
                f"fan value of {key!r} must be a whole number from 0 to {MAX_POINTS}, got {v!r}",
                code="fan_value",
                setting=("fan_values", key),
                value=v,
                low=0,
                high=MAX_POINTS,
            )
    from ..fans import known_fan_keys  # the fan table lives with the scorer

    known = known_fan_keys(ruleset)
    unknown = sorted(set(value) - known)
    if unknown:
        raise InvalidRuleset(
            f"{ruleset.slug} has no fan {', '.join(unknown)}; its fans: {', '.join(sorted(known))}",
            code="unknown_fan",
            setting=("fan_values",),
            ruleset=ruleset.slug,
            fans=unknown,
            allowed=sorted(known),
        )
    return MappingProxyType({**ruleset.fan_values, **value})


def check_consistency(rs: Ruleset) -> None:
    """Refuse combinations that cannot be played, naming the value and why."""
    if rs.tian_ting and not rs.bao_ting:
        raise InvalidRuleset(
            "tian_ting needs bao_ting: 天听 is a ready declaration",
            code="needs",
            setting=("tian_ting",),
            other=("bao_ting",),
        )
    if rs.guo_hu and not rs.bao_ting:
        raise InvalidRuleset(
            "guo_hu needs bao_ting: 过胡 is only possible while ready",
            code="needs",
            setting=("guo_hu",),
            other=("bao_ting",),
        )
    if rs.max_guo and not rs.guo_hu:
        raise InvalidRuleset(
            "max_guo must be 0 when the ruleset has no 过胡",
            code="must_be_zero",
            setting=("max_guo",),
            value=rs.max_guo,
            because=("guo_hu",),
        )
    if rs.haidi_phase and rs.haidi_draws < 1:
        raise InvalidRuleset(
            "haidi_draws must be at least 1: this ruleset has a 海底捞月 phase",
            code="at_least",
            setting=("haidi_draws",),
            value=rs.haidi_draws,
            low=1,
            because=("haidi_phase",),
        )
    if not rs.haidi_phase and rs.haidi_draws:
        raise InvalidRuleset(
            "haidi_draws must be 0: this ruleset has no 海底捞月 phase",
            code="must_be_zero",
            setting=("haidi_draws",),
            value=rs.haidi_draws,
            because=("haidi_phase",),
        )
    if rs.haidi_draws > 10:
        raise InvalidRuleset(
            "haidi_draws must be at most 10",
            code="at_most",
            setting=("haidi_draws",),
            value=rs.haidi_draws,
            high=10,
        )
    if rs.cap is not None and rs.cap < rs.min_fan:
        raise InvalidRuleset(
            f"cap {rs.cap} is below the minimum fan {rs.min_fan}: no hand could win",
            code="below",
            setting=("cap",),
            value=rs.cap,
            other=("min_fan",),
            other_value=rs.min_fan,
        )
    if rs.self_draw_multiplier < rs.discard_multiplier and rs.scoring == "classic":
        raise InvalidRuleset(
            "self_draw_multiplier must not be below discard_multiplier",
            code="below",
            setting=("self_draw_multiplier",),
            value=rs.self_draw_multiplier,
            other=("discard_multiplier",),
            other_value=rs.discard_multiplier,
        )
    unknown_forms = set(rs.forms) - set(FORMS)
    if unknown_forms:
        raise InvalidRuleset(
            f"unknown winning forms {sorted(unknown_forms)}",
            code="unknown_forms",
            setting=("forms",),
            value=sorted(unknown_forms),
        )
