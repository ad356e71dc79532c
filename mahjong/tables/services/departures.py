"""Leaving a table: a player's Leave (an escape during a hand), the operator's close, an
escape found by the sweeper, a suspension, and "I'm back" from auto-play (托管)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from mahjong.engine import game as engine

from .. import compiled, notes
from ..models import Hand, Seat, Table
from .errors import TableError
from .locking import Locked, lock, seat_of
from .moves import save
from .recording import CALL_OFF, close, notify_on_commit, schedule


def escape(locked: Locked, seat: int, *, by: str) -> None:
    new, events = engine.escape(locked.state, seat)
    save(locked, new, events, actor=seat, action="escape", by=by)


def leave(table: Table, user, after: int | None = None) -> str:
    """Leave the table: during a hand that is an escape (3.13.2); the table closes. A table
    closed already (the opponent left first, a player short of the room's minimum, the
    match over) keeps the note saying why: it is what the other player and the
    spectators read, and the second of two players leaving at once must not replace it.

    ``after`` is the number of the hand whose result the click was made on (the result
    panel's Leave, which asks no confirmation: the hand is over). If a later hand has
    started meanwhile (another tab's "next hand", against a bot), leaving would be an
    escape the player was never asked about: refused."""
    seat = seat_of(table, user)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    with transaction.atomic():
        locked = lock(table.pk)
        if locked.table.status != Table.Status.PLAYING:
            return "left"
        if after is not None and locked.hand.number > after and not locked.state.ended:
            raise TableError(
                _(
                    "A new hand has started: nothing was done. To leave during it, use Leave "
                    "at the top of the table."
                )
            )
        escaped = walk_out(locked, seat.index, by="leave", note=_left_note(user))
    return "escaped" if escaped else "left"


def _left_note(user) -> str:
    return notes.encode(gettext_noop("%(name)s left the table."), name=user.display_name)


def leave_tables_between_hands(user) -> None:
    """A player who sits down at a new table leaves the ones where they sat after a hand
    (a hand in play elsewhere is refused before: ``table_in_play``), as Leave would:
    otherwise those stay open, on the live list, until the sweeper closes them."""
    tables = Table.objects.filter(status=Table.Status.PLAYING, seats__user=user).exclude(
        hands__ended_at__isnull=True
    )
    for table_id in tables.values_list("pk", flat=True).distinct():
        locked = lock(table_id)
        seat = next((s for s in locked.seats if s.user_id == user.pk), None)
        if locked.table.status == Table.Status.PLAYING and locked.state.ended and seat:
            walk_out(locked, seat.index, by="leave", note=_left_note(user))


def walk_out(locked: Locked, seat: int, *, by: str, note: str) -> bool:
    """A seat leaves an open table (it left, or its player was banned): a hand in play
    ends as its escape; the table closes with ``note``. True if it escaped."""
    escaped = not locked.state.ended
    if escaped:
        escape(locked, seat, by=by)
    close(locked.table, note)
    return escaped


def suspended(user) -> int:
    """A banned player's tables close at once (accounts.services.ban): a hand in play ends
    as their escape, so the opponent gets the penalty (RULES.md 3.13) instead of playing
    on against the timers; a table between hands just closes. Returns the tables closed."""
    closed = 0
    tables = Table.objects.filter(status=Table.Status.PLAYING, seats__user=user).distinct()
    for table_id in tables.values_list("pk", flat=True):
        with transaction.atomic():
            locked = lock(table_id)
            seat = next((s for s in locked.seats if s.user_id == user.pk), None)
            if locked.table.status != Table.Status.PLAYING or seat is None:
                continue
            walk_out(
                locked,
                seat.index,
                by="ban",
                note=notes.encode(
                    gettext_noop("Closed: %(name)s's account was suspended."),
                    name=user.display_name,
                ),
            )
            closed += 1
    return closed


def close_by_operator(table_id: int) -> str:
    """The operator closes a table from the admin (a stuck one, say). A hand in play ends
    drawn (engine.call_off): the operator cannot tell who is to blame, so nobody wins,
    loses or pays a penalty, unlike a player's leaving or ban (walk_out). The settlement,
    events and the closing note are written in one transaction as for any ended hand.
    Returns "called_off" (a hand was in play), "closed" (between hands) or "" (closed
    already). A closed table's hand still in play (one started as the table closed,
    before every transition locked the table: close_orphaned_hands) is called off too,
    the table's closing note kept."""
    with transaction.atomic():
        locked = lock(table_id)
        playing = locked.table.status == Table.Status.PLAYING
        called_off = not locked.state.ended
        if called_off:
            new, events = engine.call_off(locked.state)
            save(locked, new, events, actor=None, action=CALL_OFF, by="operator")
        if playing:
            close(locked.table, notes.encode(gettext_noop("Closed by the site's operator.")))
    if called_off:
        return "called_off"
    return "closed" if playing else ""


def close_orphaned_hands() -> int:
    """Call off the hands still in play at tables already closed, as the operator's "Close
    the table" does; returns how many. Such hands came from a Leave, a ban or a sweep
    racing the next hand when the lock was the newest hand's row: nothing ends them (the
    timers and the sweeper skip closed tables, the admin lists the table as closed), and
    the hand's history would read as never finished (migration 0010)."""
    orphans = Hand.objects.filter(ended_at__isnull=True).exclude(table__status=Table.Status.PLAYING)
    tables = orphans.values_list("table_id", flat=True).distinct()
    return sum(close_by_operator(table_id) == "called_off" for table_id in tables)


def back(table: Table, user) -> None:
    """ "I'm back": the player takes over from auto-play (托管). A seat not on auto-play
    has nothing to take back: its click (a second tab, a repeat, a crafted post) changes
    nothing, or each one would grant a whole new timer and stall the opponent for ever."""
    seat = seat_of(table, user)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    with transaction.atomic():
        locked = lock(table.pk)
        if not locked.seats[seat.index].auto_play:
            return
        Seat.objects.filter(pk=seat.pk).update(auto_play=False, timeouts=0)
        locked.seats[seat.index].auto_play = False
        if not locked.state.ended:
            schedule(locked.hand, locked.state, locked.seats)  # a full timer again
            locked.hand.save(update_fields=["deadline", "pause_until", *compiled.TIMER_FIELDS])
        notify_on_commit(locked.table, locked.hand.version)
