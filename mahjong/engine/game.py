"""The two-player state machine: the public API of a hand in play.

    state = new_hand("classic", seed)                 # dealt, flowers replaced
    legal_actions(state, seat)                        # what the page offers
    state, events = apply(state, seat, parse_action("discard 5m"))
    default_action(state, seat)                       # what a timeout does (3.12)
    escape(state, seat)                               # 逃跑 ends the hand (3.13)
    call_off(state)                                   # the operator ends it drawn
    next_hand(state, state.outcome, seed)             # dealer rules, session (3.2.1)

``apply`` always validates (its input comes from the network): an action that
``legal_actions`` does not offer raises IllegalAction naming it and why, and the state
is a value, so nothing changed. Every offered action applies; the one phase whose list
is only representative is the stage's 起始换牌, which also takes any other part of the
hand (``stage_offers.allows``). The pending decision is always ``state.turn``'s, in
``state.phase``; draws and replacements are made by the server inside ``apply``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, cast

from . import flow, stage_moves, stage_offers
from .actions import Action, parse_action
from .errors import IllegalAction, SeedMismatch
from .offers import HU, legal_actions
from .rulesets import Ruleset, get_ruleset
from .session import first_session, next_session
from .shapes import DRAW, ESCAPE, Outcome
from .stage import stage_ruleset
from .stage_deal import start_stage_hand
from .state import CLAIM, ENDED, EXCHANGE, HAIDI, ROB, TURN, GameState, SeatState, Session
from .tiles import format_tile, format_tiles
from .wall import (
    NO_CONTRIBUTIONS,
    commitment,
    contribution,
    deal,
    derive_salt,
    matches_commitment,
    seed_bytes,
    wall_seed,
)
from .wins import DISCARD, HEAVEN, SELF_DRAW
from .wins import HAIDI as HAIDI_WIN
from .wins import ROB as ROB_WIN

__all__ = [
    "new_hand",
    "revealed_start",
    "legal_actions",
    "apply",
    "default_action",
    "pending_seats",
    "is_forced",
    "is_pause_window",
    "decision_seconds",
    "escape",
    "call_off",
    "next_hand",
    "opening_events",
    "replay",
    "GameState",
]


# ----- starting a hand --------------------------------------------------------------------


def revealed_start(record: dict[str, Any], seed_hex: str, published: str) -> GameState:
    """The dealt hand of a finished hand, as its replay and its review rebuild it: the
    revealed seed, checked against the ``published`` commitment (SeedMismatch if it is
    not that seed), gives the wall; the stored final state (``GameState.to_dict``) gives
    the ruleset as the table ran it, the session, contributions and claim pause."""
    seed = bytes.fromhex(seed_hex)
    if not matches_commitment(seed, derive_salt(seed), published):
        raise SeedMismatch("the revealed seed does not match the published commitment")
    recorded = GameState.from_dict(record)
    return new_hand(
        recorded.ruleset,
        seed,
        session=recorded.session,
        contributions=recorded.contributions,
        claim_pause=recorded.claim_pause,
    )


def new_hand(
    ruleset: Ruleset | str,
    seed: bytes | str | int,
    dealer: int | None = None,
    session: Session | None = None,
    *,
    salt: bytes | None = None,
    wall: tuple[int, ...] | None = None,
    back: tuple[int, ...] = (),
    stage: int = 0,
    stage_player: int = 0,
    contributions: tuple[str, str] = NO_CONTRIBUTIONS,
    claim_pause: bool = False,
) -> GameState:
    """Shuffle, deal and replace flowers (RULES.md 3.1-3.3). ``seed`` is the server's
    (committed); the wall comes from it and the players' ``contributions``
    (``wall.wall_seed``). ``dealer`` fixes the first dealer (random from the wall's seed
    otherwise); ``session`` continues a table (its dealer wins). ``wall``/``back`` script
    the wall's front and back (tests only). ``stage`` (1-4) starts a 关卡 table with the
    human in ``stage_player`` (RULES.md 5); later hands take the stage from the session.
    ``claim_pause`` opens a claim window after every discard (state.py): live tables hide
    whether the opponent could claim."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    seed = seed_bytes(seed)
    salt = derive_salt(seed) if salt is None else salt
    contributions = (contribution(contributions[0]), contribution(contributions[1]))
    drawn_from = wall_seed(seed, contributions)
    if session is None:
        session = first_session(rs, drawn_from, dealer)
        if stage:
            session = dataclasses.replace(session, stage=stage, stage_player=stage_player)
    if session.stage:
        rs = stage_ruleset(rs, session.stage)
    dealt = deal(rs, drawn_from, session.dealer, wall=wall, back=back)
    seats = cast(
        "tuple[SeatState, SeatState]",
        tuple(  # one per seat: a pair
            SeatState(concealed=dealt.hands[s], flowers=dealt.flowers[s]) for s in (0, 1)
        ),
    )
    state = GameState(
        ruleset=rs,
        seed=seed,
        salt=salt,
        commitment=commitment(seed, salt),
        session=session,
        seats=seats,
        live=dealt.live,
        reserve=dealt.reserve,
        indicator=dealt.indicator,
        unused=dealt.unused,
        phase=TURN,
        turn=session.dealer,
        contributions=contributions,
        claim_pause=claim_pause,
    )
    if session.stage:
        return start_stage_hand(state, rig=wall is None and not back)
    return state


def opening_events(state: GameState) -> flow.Events:
    """The deal as events: public counts and commitment, each hand private to its seat."""
    events = [
        flow.event(
            "deal",
            dealer=state.dealer,
            commitment=state.commitment,
            hand_number=state.session.hand_number,
            indicator=None if state.indicator is None else format_tile(state.indicator),
        )
    ]
    for seat, player in enumerate(state.seats):
        events.append(
            flow.private_event(
                "hand",
                seat,
                {"tiles": format_tiles(player.concealed)},
                count=len(player.concealed),
                flowers=format_tiles(player.flowers),
            )
        )
    return events


def next_hand(
    previous: GameState,
    outcome: Outcome | None,
    seed: bytes | str | int,
    *,
    scores: tuple[int, int] | None = None,
    salt: bytes | None = None,
    contributions: tuple[str, str] = NO_CONTRIBUTIONS,
) -> GameState:
    """The next hand at the same table, the dealer chosen by the ruleset's rule (a random
    one drawn from the wall's seed, contributions included)."""
    outcome = outcome or previous.outcome
    if outcome is None:
        raise IllegalAction("next_hand: the previous hand has not ended")
    seed = seed_bytes(seed)
    contributions = (contribution(contributions[0]), contribution(contributions[1]))
    session = next_session(
        previous.ruleset, previous.session, outcome, wall_seed(seed, contributions), scores
    )
    return new_hand(
        previous.ruleset,
        seed,
        session=session,
        salt=salt,
        contributions=contributions,
        claim_pause=previous.claim_pause,
    )


# ----- who decides ------------------------------------------------------------------------


def pending_seats(state: GameState) -> tuple[int, ...]:
    """Seats whose decision the hand waits for (at most one with two players)."""
    return () if state.phase == ENDED else (state.turn,)


def is_forced(state: GameState, seat: int) -> bool:
    """A ready (报听) hand with nothing to decide: the server plays ``default_action``
    after the short locked delay instead of the decision timer (3.9.5). Also a window
    opened by ``claim_pause`` with nothing to claim: its only action is ``pass``, which
    the server plays at the pause's end."""
    actions = legal_actions(state, seat)
    if len(actions) != 1 or actions[0] == HU:
        return False
    return state.seat(seat).locked or is_pause_window(state)


def is_pause_window(state: GameState) -> bool:
    """A claim or rob window that ``claim_pause`` holds open for at least the pause,
    whether or not the seat to act has anything to claim."""
    return state.claim_pause and state.phase in (CLAIM, ROB)


def decision_seconds(state: GameState, seat: int) -> float | None:
    """How long the server waits for ``seat`` before playing ``default_action``: the
    short locked delay for a ready hand with nothing to decide, else the decision timer
    (RULES.md 3.9.5, 3.12.1); None when the seat has nothing to decide."""
    if seat not in pending_seats(state):
        return None
    timers = state.ruleset.timers
    return timers.locked_delay if is_forced(state, seat) else timers.decision


def default_action(state: GameState, seat: int) -> Action | None:
    """What the server does when ``seat``'s timer runs out (RULES.md 3.12): a win if
    ``auto_win_on_timeout`` (or if nothing else is offered), else pass a claim, else
    discard the drawn tile or the rightmost one; a ready hand continues."""
    actions = legal_actions(state, seat)
    if not actions:
        return None
    decline = next((a for a in actions if a.verb in ("pass", "guo")), None)
    if HU in actions and (state.ruleset.auto_win_on_timeout or len(actions) == 1):
        return HU
    if decline is not None and (state.phase != TURN or HU in actions):
        return decline
    return Action("discard", (_timeout_discard(state, state.seat(seat)),))


def _timeout_discard(state: GameState, player: SeatState) -> int:
    """The drawn tile, else the rightmost tile of the sorted hand; never a wild."""
    if player.drawn is not None and player.drawn != state.wild:
        return player.drawn
    return [t for t in player.concealed if t != state.wild][-1]


# ----- applying a decision ----------------------------------------------------------------


def apply(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    """``seat`` takes ``action``: the next state (resting at the next decision or the end)
    and the events on the way. Raises IllegalAction unless the action is offered now."""
    _check_legal(state, seat, action)
    if state.stage is not None and action.verb not in stage_offers.VERBS:
        state = stage_offers.expire(state)
    new_state, events = _HANDLERS[action.verb](state, seat, action)
    if new_state.stage is not None:
        new_state = stage_offers.after_move(new_state, events)
    return new_state.evolve(moves=state.moves + 1), events


def _check_legal(state: GameState, seat: int, action: Action) -> None:
    if not isinstance(action, Action):
        raise IllegalAction(f"{action!r} is not an action")
    if seat in (0, 1):
        offered = legal_actions(state, seat)
        if action in offered or stage_offers.allows(state, seat, action):
            return
    why, facts = _why_illegal(state, seat, action)
    raise IllegalAction(f"{action}: {why}", **facts)


def _why_illegal(state: GameState, seat: int, action: Action) -> tuple[str, dict[str, Any]]:
    """The refusal's text, and its code and facts (IllegalAction) where it has them."""
    if seat not in (0, 1):
        return f"there is no seat {seat!r}", {"code": "no_seat"}
    if state.phase == ENDED:
        return "the hand has ended", {"code": "ended"}
    if seat != state.turn:
        # Nothing of what the other seat is deciding (a claim of this seat's discard, say):
        # the refusal reaches the player, and the phase would tell them the opponent's options.
        return "not your turn", {"code": "not_your_turn"}
    player = state.seat(seat)
    if action.verb in ("discard", "ting") and action.tile not in player.hand:
        tile = format_tile(action.tile)
        return f"{tile} is not in your hand", {"code": "not_held", "tiles": tile}
    refusal = stage_offers.why_not(state, seat, action)
    if refusal:
        return refusal
    offered = ", ".join(str(a) for a in legal_actions(state, seat))
    return f"not allowed now ({state.phase}); offered: {offered}", {"code": "not_offered"}


def _on_discard(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    return flow.discard(state, seat, action.tile)


def _on_ting(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    return flow.discard(state, seat, action.tile, ting=_ting_kind(state, seat, action.tile))


def _ting_kind(state: GameState, seat: int, tile: int) -> str:
    """天听 (3.9.6): the dealer with the first discard, or the non-dealer on the first turn
    discarding the tile just drawn, before anybody's chi, pon or kong."""
    player = state.seat(seat)
    first_turn = player.discards == 0 and not state.melded and state.ruleset.tian_ting
    dealt_hand_kept = seat == state.dealer or tile == player.drawn
    return "tian_ting" if first_turn and dealt_hand_kept else "ready"


def _on_hu(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    if state.phase == CLAIM:
        return flow.win(state, seat, DISCARD)
    if state.phase == ROB:
        return flow.win(state, seat, ROB_WIN)
    if state.phase == HAIDI:
        return flow.win(state, seat, HAIDI_WIN)
    how = SELF_DRAW if state.seat(seat).drawn is not None else HEAVEN
    return flow.win(state, seat, how)


def _on_decline(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    """pass / guo: let the opponent's discard go, let the kong stand, set a 海底 tile
    aside, or (ready hand) continue after a self-drawn win."""
    if action.verb == "guo":
        state = state.replace_seat(seat, guo=state.seat(seat).guo + 1)
    events = [flow.event(action.verb, seat)]
    if state.phase == CLAIM:
        state, more = flow.draw_turn(state, seat, [])
    elif state.phase == ROB:
        state, more = flow.complete_added_kong(state, 1 - seat, [])
    elif state.phase == HAIDI:
        return flow.haidi_pass(state, seat)
    elif state.phase == EXCHANGE:
        return stage_moves.skip_exchange(state, seat)
    else:
        drawn = state.seat(seat).drawn
        assert drawn is not None  # a self-drawn win let go: its tile goes out
        state, more = flow.discard(state, seat, drawn)
    return state, events + more


def _on_claim(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    own = flow.own_tiles_for(state, seat, action.verb, action.tiles)
    return flow.claim_set(state, seat, action.verb, own)


def _on_ankan(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    return flow.concealed_kong(state, seat, action.tile)


def _on_addkan(state: GameState, seat: int, action: Action) -> tuple[GameState, flow.Events]:
    return flow.added_kong(state, seat, action.tile)


_HANDLERS: dict[str, Callable[[GameState, int, Action], tuple[GameState, flow.Events]]] = {
    "discard": _on_discard,
    "ting": _on_ting,
    "hu": _on_hu,
    "pass": _on_decline,
    "guo": _on_decline,
    "chi": _on_claim,
    "pon": _on_claim,
    "kan": _on_claim,
    "ankan": _on_ankan,
    "addkan": _on_addkan,
    **stage_moves.HANDLERS,
}


def replay(
    state: GameState, moves: Iterable[tuple[int, Action | str]]
) -> tuple[GameState, flow.Events]:
    """Apply recorded moves -- ``(seat, action)`` pairs, the action as an Action or in
    notation -- validating each as ``apply`` does: the event log's replays and audits."""
    events: flow.Events = []
    for seat, action in moves:
        state, more = apply(
            state, seat, parse_action(action) if isinstance(action, str) else action
        )
        events += more
    return state, events


# ----- leaving --------------------------------------------------------------------------


def escape(state: GameState, seat: int) -> tuple[GameState, flow.Events]:
    """逃跑 (3.13): the hand ends at once; the escaper pays the ruleset's penalty and the
    next dealer follows the rule as if the opponent had won."""
    if seat not in (0, 1):
        raise IllegalAction(f"escape: there is no seat {seat!r}")
    if state.phase == ENDED:
        raise IllegalAction("escape: the hand has already ended")
    outcome = Outcome(ESCAPE, winner=1 - seat, loser=seat, escaper=seat)
    new_state, events = flow.end(state, outcome, [flow.event("escape", seat)])
    return new_state.evolve(moves=state.moves + 1), events


def call_off(state: GameState) -> tuple[GameState, flow.Events]:
    """The operator closes a stuck table: the hand ends at once as drawn, so nobody wins,
    loses or pays a penalty (a stage stake comes back as on any drawn stage hand)."""
    if state.phase == ENDED:
        raise IllegalAction("call off: the hand has already ended")
    new_state, events = flow.end(state, Outcome(DRAW), [flow.event("called_off")])
    return new_state.evolve(moves=state.moves + 1), events
