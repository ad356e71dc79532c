"""The frozen values of a hand in play and their lossless JSON form.

A web game saves the state between messages, so the state is a plain value: frozen
dataclasses holding tuples, rebuilt (never mutated) by ``game.apply``. Tiles are kinds
(``tiles.py``); identical tiles are interchangeable, so no tile ids are needed.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .melds import Meld
from .rulesets import OVERRIDABLE, RULESETS, Ruleset, get_ruleset
from .shapes import Outcome, WinContext
from .stage import StageState
from .wall import wall_seed as derive_wall_seed

# Phases: whose decision is pending is always ``GameState.turn``.
TURN = "turn"  # the seat in turn holds hand_size + 1 tiles: win, kong, ready or discard
CLAIM = "claim"  # the opponent of the last discarder may win / kong / pon / chi / pass
ROB = "rob"  # the opponent of an added kong may rob it (hu) or pass
# With ``claim_pause`` both windows open after every discard / added kong, whatever the
# opponent holds (only ``pass`` offered when nothing can be claimed): a window that opens
# only for an option tells the discarder the opponent's tiles.
HAIDI = "haidi"  # 海底捞月 phase: a reserve tile completes the hand; hu or pass
EXCHANGE = "exchange"  # stage 起始换牌: the player exchanges tiles or passes before play
ENDED = "ended"
PHASES = (TURN, CLAIM, ROB, HAIDI, EXCHANGE, ENDED)

# Where the tile in ``SeatState.drawn`` came from
FRONT, KONG, FLOWER, RESERVE = "front", "kong", "flower", "reserve"


class Value:
    """Frozen-dataclass base with a fast ``evolve``: ``dataclasses.replace`` re-runs
    ``__init__`` and costs ~15 us, a noticeable share of a self-play action; copying
    the field dict of an already valid value is enough (there is no __post_init__)."""

    __slots__ = ()
    if TYPE_CHECKING:  # what the dataclass subclasses have
        __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def evolve(self, **changes: Any) -> Self:
        unknown = changes.keys() - self.__dataclass_fields__.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new


@dataclass(frozen=True)
class SeatState(Value):
    concealed: tuple[int, ...]  # sorted, without the drawn tile
    drawn: int | None = None  # the tile just drawn, kept apart (3.12)
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    river: tuple[int, ...] = ()  # discards still in the pool (claimed ones leave it)
    ting: str | None = None  # None, "ready" or "tian_ting" (报听 / 天听)
    ting_at: int | None = None  # move number of the declaration (3.11.4 order)
    tenpai_since: int | None = None  # move since which the hand is continuously ready
    guo: int = 0  # quesheng 过胡 passes this hand
    discards: int = 0  # discards made this hand (first-turn fans, 天听)

    @property
    def hand(self) -> tuple[int, ...]:
        """All concealed tiles, the drawn one last."""
        return self.concealed if self.drawn is None else self.concealed + (self.drawn,)

    @property
    def locked(self) -> bool:
        return self.ting is not None

    def size(self) -> int:
        """Tiles held counting each kong as 3 (RULES.md 3.4.1)."""
        return len(self.hand) + 3 * len(self.melds)


@dataclass(frozen=True)
class Session:
    """What carries from hand to hand at one table (dealer rules, RULES.md 3.2.1)."""

    hand_number: int = 1  # 1-based, over the whole session
    dealer: int = 0
    streak: int = 0  # hands in a row the dealer has kept the deal
    level: int = 0  # index into ruleset.base_levels (wenzhou 进阶分)
    round_wind: int = 27  # gb: 东南西北 × 2 hands per match; 东 elsewhere
    scores: tuple[int, int] = (0, 0)  # kept by settlement; the engine only carries it
    stage: int = 0  # 关卡: the stage (1-4) this table plays; 0 = none
    stage_player: int = 0  # 关卡: the human's seat (the computer never gets offers)


@dataclass(frozen=True)
class GameState(Value):
    ruleset: Ruleset
    seed: bytes
    salt: bytes
    commitment: str
    session: Session
    seats: tuple[SeatState, SeatState]
    live: tuple[int, ...]  # front = index 0
    reserve: tuple[int, ...] = ()  # haidi reserve, face down
    indicator: int | None = None  # wenzhou 财神 indicator (out of play)
    unused: tuple[int, ...] = ()  # stage: box tiles not playing this hand
    phase: str = TURN
    turn: int = 0  # the seat whose decision is pending
    draw_source: str | None = None  # where the turn seat's drawn tile came from
    claimed: bool = False  # this turn came by claiming a discard (none new in a river)
    moves: int = 0  # actions applied so far
    melded: bool = False  # any chi/pon/kong yet (天听, first-turn fans)
    rob_tile: int | None = None  # the added-kong tile while it can be robbed
    haidi_seat: int | None = None
    haidi_shown: tuple[int, ...] = ()  # reserve tiles drawn in the phase and set aside
    outcome: Outcome | None = None
    stage: StageState | None = None  # 关卡: this hand's offers and rigged deal
    contributions: tuple[str, str] = ("", "")  # the players' random values (wall.wall_seed)
    claim_pause: bool = False  # every discard / added kong opens its window

    @property
    def wall_seed(self) -> bytes:
        """What the wall and the hand's seeded choices are drawn from (wall.wall_seed)."""
        return derive_wall_seed(self.seed, self.contributions)

    @property
    def dealer(self) -> int:
        return self.session.dealer

    @property
    def wild(self) -> int | None:
        """The wenzhou 财神 kind: the indicator's kind (RULES.md 9.2.2)."""
        return self.indicator if self.ruleset.wilds else None

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    def seat(self, seat: int) -> SeatState:
        return self.seats[seat]

    def replace_seat(self, seat: int, **changes: Any) -> GameState:
        return self.with_seat(seat, self.seats[seat].evolve(**changes))

    def with_seat(self, seat: int, player: SeatState, **changes: Any) -> GameState:
        """The state with ``player`` in ``seat`` and other fields changed, in one copy."""
        seats = (player, self.seats[1]) if seat == 0 else (self.seats[0], player)
        return self.evolve(seats=seats, **changes)

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        return state_from_dict(data)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return state_from_dict(json.loads(text))


# ----- JSON codec ---------------------------------------------------------------------
# Tiles stay ints (kinds) in JSON: compact, and a replay reads them with tiles.format_*.


def _meld_out(meld: Meld) -> list[Any]:
    return [meld.type, list(meld.tiles)]


def _meld_in(data: list[Any]) -> Meld:
    # Stored melds were validated when made; rebuilding skips validation on purpose
    # (a wenzhou chi with 白板 needs the wild's face to validate).
    return Meld(data[0], tuple(data[1]))


def ruleset_to_dict(rs: Ruleset) -> dict[str, Any]:
    """A ruleset as its slug plus the overrides that derive it from the shipped one."""
    base = RULESETS[rs.slug]
    overrides: dict[str, Any] = {
        name: getattr(rs, name) for name in OVERRIDABLE if getattr(rs, name) != getattr(base, name)
    }
    if rs.timers != base.timers:
        overrides["timers"] = {
            f.name: getattr(rs.timers, f.name)
            for f in dataclasses.fields(rs.timers)
            if getattr(rs.timers, f.name) != getattr(base.timers, f.name)
        }
    if dict(rs.options) != dict(base.options):
        overrides["options"] = {k: v for k, v in rs.options.items() if base.options.get(k) != v}
    if dict(rs.fan_values) != dict(base.fan_values):
        overrides["fan_values"] = dict(rs.fan_values)
    return {"slug": rs.slug, "overrides": overrides}


_derived: dict[str, Ruleset] = {}


def ruleset_from_dict(data: dict[str, Any]) -> Ruleset:
    """Equal overrides give the same Ruleset object, so a table's states read back from
    JSON share one ruleset (and the hand-analysis cache keyed by it)."""
    overrides = data.get("overrides") or None
    if overrides is None:
        return get_ruleset(data["slug"])
    key = json.dumps([data["slug"], overrides], sort_keys=True)
    ruleset = _derived.get(key)
    if ruleset is None:
        ruleset = _derived[key] = get_ruleset(data["slug"], overrides)
    return ruleset


def context_to_dict(ctx: WinContext) -> dict[str, Any]:
    out = {f.name: getattr(ctx, f.name) for f in dataclasses.fields(ctx)}
    out["hand"] = list(ctx.hand)
    out["melds"] = [_meld_out(m) for m in ctx.melds]
    out["flowers"] = list(ctx.flowers)
    out["extras"] = dict(ctx.extras)
    return out


def context_from_dict(data: dict[str, Any]) -> WinContext:
    data = dict(data)
    data["hand"] = tuple(data["hand"])
    data["melds"] = tuple(_meld_in(m) for m in data["melds"])
    data["flowers"] = tuple(data["flowers"])
    return WinContext(**data)


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    out = {f.name: getattr(outcome, f.name) for f in dataclasses.fields(outcome)}
    out["context"] = None if outcome.context is None else context_to_dict(outcome.context)
    return out


def outcome_from_dict(data: dict[str, Any]) -> Outcome:
    data = dict(data)
    if data.get("context") is not None:
        data["context"] = context_from_dict(data["context"])
    return Outcome(**data)


def _seat_out(seat: SeatState) -> dict[str, Any]:
    out = {f.name: getattr(seat, f.name) for f in dataclasses.fields(seat)}
    out.update(
        concealed=list(seat.concealed),
        melds=[_meld_out(m) for m in seat.melds],
        flowers=list(seat.flowers),
        river=list(seat.river),
    )
    return out


def _seat_in(data: dict[str, Any]) -> SeatState:
    data = dict(data)
    data.update(
        concealed=tuple(data["concealed"]),
        melds=tuple(_meld_in(m) for m in data["melds"]),
        flowers=tuple(data["flowers"]),
        river=tuple(data["river"]),
    )
    return SeatState(**data)


_TILE_TUPLES = ("live", "reserve", "unused", "haidi_shown")


def state_to_dict(state: GameState) -> dict[str, Any]:
    out = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
    out["ruleset"] = ruleset_to_dict(state.ruleset)
    out["seed"] = state.seed.hex()
    out["salt"] = state.salt.hex()
    session = state.session
    out["session"] = {
        "hand_number": session.hand_number,
        "dealer": session.dealer,
        "streak": session.streak,
        "level": session.level,
        "round_wind": session.round_wind,
        "scores": list(session.scores),
    }
    if session.stage:
        out["session"].update(stage=session.stage, stage_player=session.stage_player)
    if not state.claimed:
        del out["claimed"]  # hands stored before it keep their JSON as it was
    if not state.claim_pause:
        del out["claim_pause"]  # stored hands and their replays keep their JSON as it was
    if state.stage is None:
        del out["stage"]  # hands of other rulesets keep their JSON as it was
    else:
        out["stage"] = state.stage.to_dict()
    if any(state.contributions):
        out["contributions"] = list(state.contributions)
    else:
        del out["contributions"]  # hands without any keep their JSON as it was
    out["seats"] = [_seat_out(s) for s in state.seats]
    for name in _TILE_TUPLES:
        out[name] = list(getattr(state, name))
    out["outcome"] = None if state.outcome is None else outcome_to_dict(state.outcome)
    return out


def state_from_dict(data: dict[str, Any]) -> GameState:
    data = dict(data)
    data["ruleset"] = ruleset_from_dict(data["ruleset"])
    data["seed"] = bytes.fromhex(data["seed"])
    data["salt"] = bytes.fromhex(data["salt"])
    session = dict(data["session"])
    session["scores"] = tuple(session["scores"])
    data["session"] = Session(**session)
    data["seats"] = tuple(_seat_in(s) for s in data["seats"])
    for name in _TILE_TUPLES:
        data[name] = tuple(data[name])
    if data.get("outcome") is not None:
        data["outcome"] = outcome_from_dict(data["outcome"])
    data["stage"] = StageState.from_dict(data.get("stage"))
    data["contributions"] = tuple(data.get("contributions") or ("", ""))
    return GameState(**data)
