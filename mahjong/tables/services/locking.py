"""The table lock and what is read under it or before it: every transition of a table
locks the table row first (``lock``), then reads its latest hand and seats."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from mahjong.engine.state import GameState

from .. import compiled
from ..models import Hand, Seat, Table
from .errors import TableError


@dataclass(frozen=True)
class Locked:
    table: Table
    hand: Hand
    seats: list[Seat]
    state: GameState


def seat_of(table: Table, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in table.seats.all() if s.user_id == user.pk), None)


def in_play_refusal(user) -> str:
    """One game at a time (quick match, private rooms, bots, stages): a second table would
    leave the first one's hand to the timers and its escape penalty, with its stakes."""
    if table_in_play(user) is None:
        return ""
    return _("You have a hand in play at another table: finish it or leave that table first.")


def table_in_play(user) -> Table | None:
    """The table where ``user`` holds a seat in a hand still being played, if any."""
    return (
        Table.objects.filter(
            status=Table.Status.PLAYING, seats__user=user, hands__ended_at__isnull=True
        )
        .order_by("-pk")
        .first()
    )


def lock(table_id: int) -> Locked:
    """The table's row locked for this transaction, then its current hand and its seats.
    Every transition of a table (a move, a timer, the next hand, leave, escape, close)
    takes this lock first and reads the hand after it: a request that waited for it sees
    the hand another one started meanwhile, or the table it closed (a lock of the newest
    hand's row handed a waiting request the hand before). Three queries
    (tables.compiled): the locked table with what the end of a hand reads of it, the
    hand, the seats with their players (query budget: at most 8 per action,
    tests/web/test_query_budget.py)."""
    table = compiled.locked_table(table_id)
    hand = compiled.current_hand(table_id) if table is not None else None
    if hand is None:
        raise TableError(_("This table has no hand yet."))
    hand.table = table
    return Locked(table, hand, compiled.seats(table_id), hand.game())


def seated(locked: Locked, user) -> Seat:
    seat = next((s for s in locked.seats if s.user_id == user.pk), None)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    # The seat's player row was read just now: a socket opened before a ban still
    # carries the account as it was then. (Bot accounts are inactive: they never log in.)
    if not seat.user.is_active and not seat.user.is_bot:
        raise TableError(_("Your account is suspended: you cannot play."))
    return seat
