"""The engine's review of a finished hand (issue 35): each decision a seat made, the
options it had, what each was worth, the ``strong`` bot's choice, and the mistakes.

A hand is reviewed from its record, as the replay rebuilds it (``lobby.replays``): the
hand's start (its seed and the stored final state's ruleset, session, contributions and
claim pause) and its moves, ``(seat, action)`` or ``(seat, action, by)`` in the order
they were applied (the ``kind="action"`` rows of its Event log, ``Hand.moves()``)::

    from mahjong.engine.game import revealed_start
    from mahjong.engine.review import review_hand, review_seats

    start = revealed_start(hand.state, hand.seed, hand.commitment)  # Hand.state: the end's JSON
    mine = review_hand(start, hand.moves(), seat)
    both = review_seats(start, hand.moves())  # {0: HandReview, 1: HandReview}
    hand_review.data = mine.to_dict()                  # plain JSON; HandReview.from_dict back

Each move is validated as ``game.apply`` validates it (IllegalAction if the record does
not replay); a logged escape or operator's close (``"escape"``, ``"call_off"``) ends the
hand there. ``revealed_start`` checks the seed against the commitment, as for the
replay.

What a decision says (``DecisionReview``):

* ``step``: the move's index in the hand's action list (0-based). The replay's
  ``?step=`` of the same number shows that position, its offers, the move taken marked.
* ``options``: every action the seat was offered (``legal_actions``, what its page showed),
  each with the shanten and the acceptance of the position it leaves, and the tiles that
  would improve it (``review_measure`` says how each option is read). The numbers count
  only tiles the seat could see at that moment: its review is the same whatever the wall
  and the opponent's concealed tiles were.
* ``bot``: the ``strong`` bot's choice, asked as a bot seat is asked (``bots``): the seat's
  view and the offered actions, nothing else.
* ``lost``: the choice left a worse position than the best option: a higher shanten, or
  the same shanten with fewer accepted tiles. Claims (and their passes) and kongs are
  judged by shanten alone: the hand after the claim (and its best discard) or the kong
  (before its replacement draw) against the hand kept, since a pass keeps a concealed
  hand and a kong adds a draw and fans, worth more than the tiles they cost. A pass on
  a win leaves a higher shanten than the win. Not marked: a 过胡 (``guo``, a bet on a
  doubled win that tiles cannot weigh), a forced move (one option: a locked hand's
  discard) and the stage's offers (``exchange``, ``cuo``, ``swap``: listed without
  numbers). ``shanten_lost`` is the shanten above the best; ``tiles_lost`` the best
  option's acceptance minus the choice's, when positive. ``best`` lists the options
  nothing beat, by the same rule.

The hand's line (``HandReview``): ``choices`` (decisions with more than one option),
``agreed`` (of those, the ones where the player chose as the bot did), ``mistakes``,
``tiles_given_up`` (the sum of ``tiles_lost``), ``shanten_given_up``, and
``biggest_mistake``: the step of the mistake with the most shanten lost, then the most
tiles (the first of equals), None without one. A decision agrees with the bot when
``chosen == bot`` (``DecisionReview.agrees``). Fans are weighed only where said above: a
discard that keeps a flush but gives up tiles is marked, however much the flush pays
(the bot's choice, which weighs value, is beside it).

Deterministic: the same record gives the same review, in any process.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .actions import HU, Action, parse_action
from .bots import get_bot
from .bots.seen import read_view
from .game import apply, legal_actions
from .review_measure import MEASURED, Measure, Measurer
from .state import CLAIM, ENDED, ROB, GameState
from .tiles import format_tiles
from .views import view

BOT_LEVEL = "strong"
# Logged by tables.services for moves the engine does not apply: they end the hand.
ENDS = ("escape", "call_off")
_UNMEASURED_KIND = "offer"
KONGS = ("kan", "ankan", "addkan")


@dataclass(frozen=True)
class OptionReview:
    action: str  # in notation, "discard 5m"; a stage offer's verb alone
    shanten: int | None  # -1 a win; None: not measured (stage offers)
    acceptance: int | None  # unseen copies of ``tiles``
    tiles: str  # the kinds that would improve the position, "147m"


@dataclass(frozen=True)
class DecisionReview:
    step: int  # index of the move in the hand's action list (the replay's ?step=)
    phase: str  # turn | claim | rob | haidi | exchange
    kind: str  # discard | ready | kong | claim | win | offer
    chosen: str
    bot: str
    by: str  # who made the move, as the log says ("", "timeout", "auto", ...)
    forced: bool  # only one option was offered
    options: tuple[OptionReview, ...]
    best: tuple[str, ...]  # the options with the best measure
    lost: bool
    shanten_lost: int
    tiles_lost: int

    @property
    def agrees(self) -> bool:
        return self.chosen == self.bot


@dataclass(frozen=True)
class HandReview:
    ruleset: str
    seat: int
    decisions: tuple[DecisionReview, ...]
    choices: int
    agreed: int
    mistakes: int
    tiles_given_up: int
    shanten_given_up: int
    biggest_mistake: int | None  # the step of the biggest mistake

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (lists, not tuples): what a JSONField stores and gives back."""
        data: dict[str, Any] = json.loads(self.to_json())
        return data

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandReview:
        decisions = tuple(
            DecisionReview(
                **{
                    **d,
                    "options": tuple(OptionReview(**o) for o in d["options"]),
                    "best": tuple(d["best"]),
                }
            )
            for d in data["decisions"]
        )
        return cls(**{**data, "decisions": decisions})


# ----- the entry points ---------------------------------------------------------------


def review_hand(
    start: GameState, moves: Iterable[Sequence[Any]], seat: int, *, level: str = BOT_LEVEL
) -> HandReview:
    """The review of ``seat``'s decisions in the hand ``moves`` play from ``start``."""
    return review_seats(start, moves, (seat,), level=level)[seat]


def review_seats(
    start: GameState,
    moves: Iterable[Sequence[Any]],
    seats: Sequence[int] = (0, 1),
    *,
    level: str = BOT_LEVEL,
    states: dict[int, GameState] | None = None,
) -> dict[int, HandReview]:
    """The reviews of ``seats`` over one replay of the hand; ``states``, if given, gets
    the position before each reviewed decision, by step (the puzzles' positions)."""
    measurers = {seat: Measurer(start.ruleset, start.wild) for seat in seats}
    found: dict[int, list[DecisionReview]] = {seat: [] for seat in seats}
    state = start
    for step, move in enumerate(moves):
        seat, text = move[0], move[1]
        by = move[2] if len(move) > 2 else ""
        if text in ENDS or state.phase == ENDED:
            break
        action = parse_action(text) if isinstance(text, str) else text
        if seat in measurers:
            if states is not None:
                states[step] = state
            decision = review_decision(state, seat, action, step, measurers[seat], level, by)
            found[seat].append(decision)
        state, _ = apply(state, seat, action)
    return {seat: summarise(start.ruleset.slug, seat, found[seat]) for seat in seats}


# ----- one decision -----------------------------------------------------------------


def review_decision(
    state: GameState,
    seat: int,
    chosen: Action,
    step: int,
    measurer: Measurer | None = None,
    level: str = BOT_LEVEL,
    by: str = "",
) -> DecisionReview:
    """``seat`` chose ``chosen`` (one of its offered actions) in ``state``."""
    measurer = measurer or Measurer(state.ruleset, state.wild)
    offered = legal_actions(state, seat)
    seen = view(state, seat)
    unseen = read_view(seen, state.ruleset).unseen
    measures = {a: measurer.option(state, seat, a, unseen) for a in offered}
    bot = offered[0] if len(offered) == 1 else _bot_choice(state, seen, offered, level)
    measured = {a: m for a, m in measures.items() if m is not None}
    top = min(measured.values(), key=lambda m: m.key, default=None)
    mine = measures.get(chosen)
    forced = len(offered) == 1
    beaten, most = _beaten(state, measured)
    lost = not forced and chosen.verb != "guo" and chosen in beaten
    return DecisionReview(
        step=step,
        phase=state.phase,
        kind=_kind(state, chosen, offered),
        chosen=_text(chosen),
        bot=_text(bot),
        by=by,
        forced=forced,
        options=_options(offered, measures),
        best=tuple(str(a) for a in measured if a not in beaten),
        lost=lost,
        shanten_lost=_shanten_lost(mine, top) if lost else 0,
        tiles_lost=_tiles_lost(mine, top, most) if lost else 0,
    )


def _bot_choice(
    state: GameState, seen: dict[str, Any], offered: list[Action], level: str
) -> Action:
    """The bot's choice as a bot seat makes it (``tables.bot_moves``): the seat's view and
    the offered actions only."""
    return get_bot(level, f"review:{state.commitment}", state.ruleset).choose(seen, offered)


def _kind(state: GameState, chosen: Action, offered: list[Action]) -> str:
    if HU in offered:
        return "win"
    if chosen.verb not in MEASURED:
        return _UNMEASURED_KIND
    if state.phase in (CLAIM, ROB):
        return "claim"
    return {"ankan": "kong", "addkan": "kong", "ting": "ready"}.get(chosen.verb, "discard")


def _text(action: Action) -> str:
    """An action in notation; a stage offer by its verb, as its options are listed."""
    return str(action) if action.verb in MEASURED else action.verb


def _options(
    offered: list[Action], measures: dict[Action, Measure | None]
) -> tuple[OptionReview, ...]:
    out: dict[str, OptionReview] = {}
    for action in offered:
        m = measures[action]
        text = _text(action)
        if text in out:
            continue  # a stage offer's many forms are one line
        if m is None:
            out[text] = OptionReview(text, None, None, "")
        else:
            out[text] = OptionReview(text, m.shanten, m.acceptance, format_tiles(m.kinds))
    return tuple(out.values())


def _beaten(state: GameState, measured: dict[Action, Measure]) -> tuple[set[Action], int | None]:
    """The options another beats: a higher shanten than the lowest, or at the lowest
    fewer accepted tiles than the most (returned too). Claims, their passes and kongs
    are judged by shanten alone: a pass keeps a concealed hand, a kong adds a draw and
    fans, worth more than the tiles they cost."""
    if not measured:
        return set(), None
    low = min(m.shanten for m in measured.values())

    def by_shanten(action: Action) -> bool:
        return state.phase == CLAIM or action.verb in KONGS

    most = max(
        (m.acceptance for a, m in measured.items() if m.shanten == low and not by_shanten(a)),
        default=None,
    )
    beaten = {
        a
        for a, m in measured.items()
        if m.shanten > low or (most is not None and not by_shanten(a) and m.acceptance < most)
    }
    return beaten, most


def _shanten_lost(mine: Measure | None, best: Measure | None) -> int:
    assert mine is not None and best is not None  # a lost decision was measured
    return mine.shanten - best.shanten


def _tiles_lost(mine: Measure | None, top: Measure | None, most: int | None) -> int:
    """Tiles below the most a tile-judged option accepts at the lowest shanten (the best
    option's, when none is judged by tiles)."""
    assert mine is not None and top is not None  # a lost decision was measured
    return max(0, (top.acceptance if most is None else most) - mine.acceptance)


# ----- the hand's line --------------------------------------------------------------


def summarise(ruleset: str, seat: int, decisions: Sequence[DecisionReview]) -> HandReview:
    chosen = [d for d in decisions if not d.forced]
    mistakes = [d for d in decisions if d.lost]
    biggest = max(mistakes, key=lambda d: (d.shanten_lost, d.tiles_lost, -d.step), default=None)
    return HandReview(
        ruleset=ruleset,
        seat=seat,
        decisions=tuple(decisions),
        choices=len(chosen),
        agreed=sum(1 for d in chosen if d.agrees),
        mistakes=len(mistakes),
        tiles_given_up=sum(d.tiles_lost for d in mistakes),
        shanten_given_up=sum(d.shanten_lost for d in mistakes),
        biggest_mistake=None if biggest is None else biggest.step,
    )
