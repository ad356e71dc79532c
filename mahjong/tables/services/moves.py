"""The move: a player's action checked against the version they saw, applied by the pure
engine under the lock, and saved with version + 1 (ending and settling the hand when it
is over)."""

from __future__ import annotations

from dataclasses import replace

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language, gettext_noop, pgettext
from django.utils.translation import gettext as _

from mahjong.engine import game as engine
from mahjong.engine.actions import Action, parse_action
from mahjong.engine.errors import EngineError
from mahjong.engine.session import match_over
from mahjong.engine.state import GameState
from mahjong.engine.tiles import parse_tiles
from mahjong.ui import render

from .. import compiled, notes
from ..models import Hand, Seat, Table
from .errors import IllegalMove, StaleVersion, TableError
from .locking import Locked, lock, seated
from .recording import CALL_OFF, append_events, close, notify_on_commit, schedule
from .settlement import finish


def act(table: Table, user, text, version, *, origin: str = "") -> Locked:
    """A player's decision, as text ("discard 5m"), made from the view at ``version``.
    The seat is checked against the seats read under the lock (no query of its own).
    Returns the table as the move left it (the new state), for the mover's own screen;
    ``origin``, the mover's socket, comes back in the hint: that screen has it already."""
    if not getattr(user, "is_authenticated", False):
        raise TableError(_("You are not seated at this table."))
    with transaction.atomic():
        locked = lock(table.pk)
        seat = seated(locked, user)
        try:
            action = parse_action(text)
        except EngineError:  # only a tampered client sends text the engine cannot read
            raise IllegalMove(_("Not an action of this table. Nothing was done.")) from None
        try:
            version = int(version)
        except (TypeError, ValueError):
            # a posted form's text ("", "abc", "1e3"): the socket's check says the same
            raise IllegalMove(_("Message refused: the version must be a whole number.")) from None
        if locked.hand.version != version:
            raise StaleVersion(_("The table moved on; here is the current view."))
        if _hold(locked, seat.index, action):
            return locked
        new = apply(locked, seat.index, action, by="player", origin=origin)
    return replace(locked, state=new)


def _hold(locked: Locked, seat: int, action: Action) -> bool:
    """A pass sent before the claim pause's end waits for it (the pause timer plays it,
    as the player's own move): answered at once, it would tell the discarder that the
    window was open for an option. Only the mover's screen learns of it (no version, no
    hint); a claim instead applies at once, as taking it shows the option anyway."""
    hand = locked.hand
    if hand.pause_until is None or seat != locked.state.turn or action.verb not in ("pass", "guo"):
        return False
    if timezone.now() >= hand.pause_until or action not in engine.legal_actions(locked.state, seat):
        return False
    hand.held = str(action)
    Hand.objects.filter(pk=hand.pk).update(held=hand.held)
    return True


def _refusal(exc: EngineError) -> str:
    """The engine's refusal as the player reads it, in the page's language, from its code
    (engine.errors.ILLEGAL_ACTIONS): never the engine's English, which names phases (out
    of turn, one text whatever the opponent decides: a claim window would tell an option)."""
    code = getattr(exc, "code", None)
    if code == "not_your_turn":
        return _("It is not your turn. Nothing was done.")
    if code == "ended":
        return _("This hand has ended. Nothing was done.")
    if code == "not_held":
        language = get_language() or settings.LANGUAGE_CODE
        names = pgettext("list separator", ", ").join(
            render.tile_label(t, language) for t in parse_tiles(exc.facts["tiles"])
        )
        return _("Not in your hand: %(tiles)s. Nothing was done.") % {"tiles": names}
    if code == "give_back_size":
        return _(
            "Choose exactly %(size)s tiles to give back: you chose %(n)s. Nothing was done."
        ) % {"size": exc.facts["size"], "n": exc.facts["count"]}
    if code == "give_back_none":
        return _("Choose the tiles first.")
    return _("That move is not open to you now. Nothing was done.")


def apply(
    locked: Locked, seat: int, action: Action, *, by: str, origin: str = "", start=None
) -> GameState:
    """Apply under the lock: engine, save with version + 1, events, seat flags, timers
    (the next decision's clock from ``start``, now if None)."""
    state = locked.state
    try:
        new, events = engine.apply(state, seat, action)
    except EngineError as exc:
        raise IllegalMove(_refusal(exc)) from None
    row = locked.seats[seat]
    if by == "player" and (row.timeouts or row.auto_play):
        # a move of the player's own: back from 托管 too, as "I'm back" would have it (the
        # next decision gets the whole timer, not the auto-play delay)
        row.timeouts, row.auto_play = 0, False
        Seat.objects.filter(pk=row.pk).update(timeouts=0, auto_play=False)
    elif by == "timeout":
        row.timeouts += 1
        row.auto_play = row.auto_play or row.timeouts >= 2
        Seat.objects.filter(pk=row.pk).update(timeouts=row.timeouts, auto_play=row.auto_play)
    # the seat flags first: the next decision's timer (schedule) is the short delay when
    # this timeout put the seat on 托管 and the seat decides again (a claim let go, then
    # its own draw)
    save(locked, new, events, actor=seat, action=str(action), by=by, origin=origin, start=start)
    return new


def save(
    locked: Locked,
    new: GameState,
    events: list[dict],
    *,
    actor,
    action,
    by,
    origin="",
    start=None,
) -> None:
    hand = locked.hand
    hand.version += 1
    hand.held = ""
    hand.state = new.to_dict()
    record = {"type": "action", "seat": actor, "action": action, "by": by}
    append_events(hand, [record, *events])
    if new.ended:
        hand.seed = new.seed.hex()
        hand.ended_at = timezone.now()
        hand.result = finish(locked, new, called_off=action == CALL_OFF)
    schedule(hand, new, locked.seats, start)
    if new.ended:
        hand.save()
        if match_over(new.ruleset, new.session) and locked.table.status == Table.Status.PLAYING:
            # gb's 8-hand match ends with this hand: its result says so, rather than offering
            # a "next hand" whose click would only close the table (ready_next)
            close(locked.table, notes.encode(gettext_noop("The match is over.")))
    else:
        compiled.save_move(hand)
    notify_on_commit(locked.table, hand.version, origin)
