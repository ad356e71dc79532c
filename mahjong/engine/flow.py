"""How the hand moves on after a decision: discards, claim windows, draws with flower
and kong replacements, the exhaustive draw and the 海底捞月 phase, and the end.

Every function takes a state and returns ``(new_state, events)``. Draws are made by the
server, so after any decision the state rests at the next decision that needs a player
(or at the end): a claim window opens only when the opponent has something to claim, or
after every discard under ``claim_pause`` (a window that opens only for an option is a
tell: state.py).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from typing import Any

from . import analysis
from .melds import Meld
from .offers import claim_offers, face, rob_offers
from .shapes import DISCARD_WIN, DRAW, Outcome
from .shapes import SELF_DRAW as SELF_DRAW_OUTCOME
from .state import (
    CLAIM,
    ENDED,
    FLOWER,
    FRONT,
    HAIDI,
    KONG,
    RESERVE,
    ROB,
    TURN,
    GameState,
    SeatState,
)
from .tiles import format_tile, format_tiles, is_flower
from .wins import DISCARD, TSUMO_WINS, can_win, win_context
from .wins import HAIDI as HAIDI_WIN
from .wins import ROB as ROB_WIN

Events = list[dict[str, Any]]


# ----- events -------------------------------------------------------------------------
# Events are small JSON-able dicts, tiles in notation. A field only one seat may see sits
# under "secret" with "private" naming that seat; views.event_for() strips it for
# everyone else. The catalogue (game.opening_events adds "deal" and "hand"):
#   deal {dealer, commitment, hand_number, indicator}   hand {seat, count, flowers | tiles*}
#   draw {seat, source: front|back | tile*}             flower {seat, tile, source}
#   discard {seat, tile}    ting {seat, tile, ting: ready|tian_ting}
#   chi / pon / kan {seat, meld, tile}    ankan {seat | meld*}    addkan {seat, tile}
#   pass / guo {seat}       hu {seat, tile, how[, from]}          escape {seat}
#   wall_empty {}           haidi {seat, draws}                   haidi_draw {seat, tile}
#   end {result, winner, loser, escaper, seed, salt, hands, melds}
#   stage offers (stage_offers): exchange {seat, count | gave*, got*}   cuo {seat | tile*, gave*}
#   swap {seat | gave*, got*}
# (* = secret, seen by that seat only)


def event(kind: str, seat: int | None = None, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    if seat is not None:
        out["seat"] = seat
    out.update(fields)
    return out


def private_event(kind: str, seat: int, secret: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return event(kind, seat, **fields, private=seat, secret=secret)


# ----- taking tiles out of a hand ---------------------------------------------------------


def hand_without(player: SeatState, tiles: Iterable[int]) -> tuple[int, ...]:
    """The seat's concealed tiles once ``tiles`` leave the hand, the drawn tile (if it
    stays) sorted in."""
    rest = list(player.concealed)
    drawn = player.drawn
    for tile in tiles:
        if tile == drawn:
            drawn = None
        else:
            rest.remove(tile)
    if drawn is not None:
        insort(rest, drawn)
    return tuple(rest)


def take_from_hand(state: GameState, seat: int, tiles: Iterable[int]) -> GameState:
    player = state.seat(seat)
    return state.with_seat(seat, player.evolve(concealed=hand_without(player, tiles), drawn=None))


# ----- discards and the claim window ------------------------------------------------------


def discard(
    state: GameState, seat: int, tile: int, ting: str | None = None
) -> tuple[GameState, Events]:
    player = state.seat(seat)
    changes: dict[str, Any] = dict(
        concealed=hand_without(player, [tile]),
        drawn=None,
        river=player.river + (tile,),
        discards=player.discards + 1,
    )
    if ting:
        changes.update(ting=ting, ting_at=state.moves)
    rs = state.ruleset
    if rs.bao_ting and not player.locked:
        # This turn's ready-discard offers already know the waits of the hand left
        # behind: remember them for the win checks on the next discard and draw.
        analysis.waits_after_discard(rs, player.hand, tile, player.melds, state.wild)
    if rs.haidi_phase:
        changes["tenpai_since"] = _tenpai_since(state, player, changes["concealed"], ting)
    state = state.with_seat(
        seat, player.evolve(**changes), turn=1 - seat, phase=CLAIM, draw_source=None, claimed=False
    )
    fields = {"tile": format_tile(tile)}
    if ting:
        fields["ting"] = ting
    events = [event("ting" if ting else "discard", seat, **fields)]
    if state.claim_pause or claim_offers(state, 1 - seat):
        return state, events
    return draw_turn(state, 1 - seat, events)


def _tenpai_since(
    state: GameState, player: SeatState, concealed: tuple[int, ...], ting: str | None
) -> int | None:
    """Since when the hand has been continuously ready: it orders two undeclared players
    in the 海底捞月 phase (RULES.md 3.11.4), so only rulesets with that phase track it."""
    locked = player.locked or ting is not None
    if not locked and not analysis.waits(state.ruleset, concealed, player.melds, state.wild):
        return None
    return state.moves if player.tenpai_since is None else player.tenpai_since


def take_discard(state: GameState, seat: int) -> tuple[GameState, int]:
    """The claimer takes the opponent's last discard out of the pool."""
    discarder = state.seat(1 - seat)
    tile = discarder.river[-1]
    return state.replace_seat(1 - seat, river=discarder.river[:-1]), tile


def claim_set(
    state: GameState, seat: int, kind: str, own: tuple[int, ...]
) -> tuple[GameState, Events]:
    """chi / pon / kan on the discard: the meld is exposed; chi and pon discard next
    without drawing (3.5.4), a kong draws its replacement from the back (3.6.2)."""
    state, tile = take_discard(state, seat)
    state = take_from_hand(state, seat, own)
    meld = Meld(kind, tuple(sorted((tile, *own))))
    player = state.seat(seat)
    state = state.replace_seat(seat, melds=player.melds + (meld,))
    state = state.evolve(melded=True, phase=TURN, turn=seat, draw_source=None, claimed=True)
    events = [event(kind, seat, meld=str(meld), tile=format_tile(tile))]
    if kind == "kan":
        return replacement_draw(state, seat, KONG, events)
    return state, events


def own_tiles_for(
    state: GameState, seat: int, kind: str, tiles: tuple[int, ...]
) -> tuple[int, ...]:
    """The concealed tiles a claim uses: chi names them; pon/kan take tiles of the
    discard's face (a wenzhou 白板 may stand for the wild's face, never a wild)."""
    if kind == "chi":
        return tiles[1:]
    wild = state.wild
    target = face(tiles[0], wild)
    same = [t for t in state.seat(seat).concealed if t != wild and face(t, wild) == target]
    return tuple(same[: 3 if kind == "kan" else 2])


# ----- kongs on own turn ------------------------------------------------------------------


def concealed_kong(state: GameState, seat: int, kind: int) -> tuple[GameState, Events]:
    state = take_from_hand(state, seat, [kind] * 4)
    meld = Meld("ankan", (kind,) * 4)
    state = state.replace_seat(seat, melds=state.seat(seat).melds + (meld,))
    state = state.evolve(melded=True)
    events = [private_event("ankan", seat, {"meld": str(meld)})]
    return replacement_draw(state, seat, KONG, events)


def added_kong(state: GameState, seat: int, kind: int) -> tuple[GameState, Events]:
    """An added kong can be robbed (3.7): the tile waits in ``rob_tile`` while the
    opponent decides."""
    state = take_from_hand(state, seat, [kind])
    state = state.evolve(rob_tile=kind, melded=True, draw_source=None)
    events = [event("addkan", seat, tile=format_tile(kind))]
    if state.ruleset.rob_kong:
        robbing = state.evolve(phase=ROB, turn=1 - seat)
        if state.claim_pause or rob_offers(robbing, 1 - seat):
            return robbing, events
    return complete_added_kong(state, seat, events)


def complete_added_kong(state: GameState, seat: int, events: Events) -> tuple[GameState, Events]:
    kind = state.rob_tile
    player = state.seat(seat)
    melds = tuple(
        Meld("kan", m.tiles + (kind,)) if m.type == "pon" and m.tiles[0] == kind else m
        for m in player.melds
    )
    state = state.replace_seat(seat, melds=melds)
    state = state.evolve(rob_tile=None, phase=TURN, turn=seat)
    return replacement_draw(state, seat, KONG, events)


# ----- draws ------------------------------------------------------------------------------


def draw_turn(state: GameState, seat: int, events: Events) -> tuple[GameState, Events]:
    """The seat draws from the front and it becomes their turn."""
    return _draw(state, seat, FRONT, events, phase=TURN, turn=seat)


def replacement_draw(
    state: GameState, seat: int, source: str, events: Events
) -> tuple[GameState, Events]:
    return _draw(state, seat, source, events)


def _draw(
    state: GameState, seat: int, source: str, events: Events, **changes: Any
) -> tuple[GameState, Events]:
    """Draw one tile (front, or back for replacements); a flower is exposed at once and
    replaced from the back (3.3.2); an empty live wall ends the hand (3.1.4, 3.3.5).
    ``changes`` are other state fields to set in the same copy."""
    live = state.live
    player = state.seat(seat)
    while live:
        if source == FRONT:
            tile, live = live[0], live[1:]
        else:
            tile, live = live[-1], live[:-1]
        side = "front" if source == FRONT else "back"
        if not is_flower(tile):
            events.append(private_event("draw", seat, {"tile": format_tile(tile)}, source=side))
            return state.with_seat(
                seat, player.evolve(drawn=tile), live=live, draw_source=source, **changes
            ), events
        player = player.evolve(flowers=player.flowers + (tile,))
        events.append(event("flower", seat, tile=format_tile(tile), source=side))
        source = FLOWER
    return exhaust(state.with_seat(seat, player, live=live, **changes), events)


# ----- exhaustive draw and 海底捞月 ------------------------------------------------------


def exhaust(state: GameState, events: Events) -> tuple[GameState, Events]:
    """3.10: drawn hand, or the 海底捞月 phase where the ruleset has it."""
    events.append(event("wall_empty"))
    if not state.ruleset.haidi_phase:
        return end(state, Outcome(DRAW), events)
    seat = haidi_player(state)
    if seat is None:
        return end(state, Outcome(DRAW), events)
    state = state.evolve(haidi_seat=seat, phase=HAIDI, turn=seat, draw_source=None)
    events.append(event("haidi", seat, draws=len(state.reserve)))
    return haidi_draw(state, events)


def haidi_player(state: GameState) -> int | None:
    """Who draws in the 海底捞月 phase (3.11.3-4): the only ready player, else the one
    ready first -- a declaration beats none, the earlier declaration or the longer
    continuous readiness wins, and the dealer takes a remaining tie."""
    ready = [s for s in (0, 1) if _is_ready(state, s)]
    if len(ready) < 2:
        return ready[0] if ready else None

    def order(seat: int) -> tuple[bool, int, bool]:
        player = state.seat(seat)
        declared = player.ting_at is not None
        since = player.ting_at if declared else player.tenpai_since
        return (not declared, since if since is not None else state.moves, seat != state.dealer)

    return min(ready, key=order)


def _is_ready(state: GameState, seat: int) -> bool:
    player = state.seat(seat)
    return bool(analysis.waits(state.ruleset, player.concealed, player.melds, state.wild))


def haidi_draw(state: GameState, events: Events) -> tuple[GameState, Events]:
    """Draw the next reserve tile: a flower consumes the draw, a win is offered, anything
    else is shown and set aside (3.11.5). No reserve left: a drawn hand (3.11.6)."""
    seat = state.haidi_seat
    assert seat is not None  # set when the phase began
    while state.reserve:
        tile, reserve = state.reserve[0], state.reserve[1:]
        state = state.evolve(reserve=reserve)
        if is_flower(tile):
            state = state.replace_seat(seat, flowers=state.seat(seat).flowers + (tile,))
            events.append(event("flower", seat, tile=format_tile(tile), source="reserve"))
            continue
        events.append(event("haidi_draw", seat, tile=format_tile(tile)))
        offered = state.replace_seat(seat, drawn=tile)
        offered = offered.evolve(draw_source=RESERVE)
        if can_win(offered, seat, HAIDI_WIN):
            return offered, events
        state = state.evolve(haidi_shown=state.haidi_shown + (tile,))
    return end(state, Outcome(DRAW), events)


def haidi_pass(state: GameState, seat: int) -> tuple[GameState, Events]:
    tile = state.seat(seat).drawn
    state = state.replace_seat(seat, drawn=None)
    state = state.evolve(haidi_shown=state.haidi_shown + (tile,), draw_source=None)
    return haidi_draw(state, [event("pass", seat)])


# ----- the end ----------------------------------------------------------------------------


def win(state: GameState, seat: int, how: str) -> tuple[GameState, Events]:
    ctx = win_context(state, seat, how)
    tsumo = how in TSUMO_WINS
    outcome = Outcome(
        SELF_DRAW_OUTCOME if tsumo else DISCARD_WIN,
        winner=seat,
        loser=1 - seat,
        context=ctx,
        robbed_kong=how == ROB_WIN,
    )
    events = [event("hu", seat, tile=format_tile(ctx.win), how=how)]
    if how == DISCARD:
        events[0]["from"] = 1 - seat
    return end(state, outcome, events)


def end(state: GameState, outcome: Outcome, events: Events) -> tuple[GameState, Events]:
    """The hand is over: everything is revealed, the seed and salt included."""
    state = state.evolve(phase=ENDED, outcome=outcome)
    events.append(
        event(
            "end",
            result=outcome.kind,
            winner=outcome.winner,
            loser=outcome.loser,
            escaper=outcome.escaper,
            seed=state.seed.hex(),
            salt=state.salt.hex(),
            hands=[format_tiles(p.hand) for p in state.seats],
            melds=[[str(m) for m in p.melds] for p in state.seats],
        )
    )
    return state, events
