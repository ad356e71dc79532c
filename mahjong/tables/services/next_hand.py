"""The next hand: both players ready (or a bot), the room's entry checked, the bots'
wallets topped up, and the hand dealt; or the table closed, saying why."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import bot_wallets
from accounts.models import User
from mahjong.engine.errors import EngineError
from mahjong.engine.wall import (
    contribution,
)

from .. import hooks, notes
from ..models import Hand, Seat, Table
from .errors import TableError
from .locking import Locked, lock, seat_of
from .opening import start_hand
from .recording import close, notify_on_commit


def ready_next(table: Table, user, after: int | None = None, contributed: str = "") -> Hand | None:
    """The player wants the next hand; it starts when every human seat does. Entry limits
    apply first: a player who cannot cover the room's minimum is told and the table closes.
    ``after`` is the number of the hand whose result the click was made on: once a later
    hand has started, the wish is already granted (a double click, a second tab) and a
    repeat does nothing rather than being refused as "still being played".
    ``contributed`` is the browser's random value for the next wall (engine.wall); the
    first click's stays: a second one cannot change it once the opponent saw its hash."""
    seat = seat_of(table, user)
    if seat is None:
        raise TableError(_("You are not seated at this table."))
    try:
        contributed = contribution(contributed)
    except EngineError:
        raise TableError(
            _("Your browser's random value must be 64 hex digits. Nothing was done.")
        ) from None
    with transaction.atomic():
        locked = lock(table.pk)
        if locked.table.status != Table.Status.PLAYING:
            raise TableError(notes.text(locked.table.note) or _("This table is closed."))
        if after is not None and locked.hand.number > after:
            return None
        if not locked.state.ended:
            raise TableError(_("The hand is still being played."))
        # asking for the next hand is the player's own click: they are back from 托管 (the
        # "I'm back" button is not offered on the result screen), so the new hand starts
        # with their own timer rather than auto-played moves.
        row = locked.seats[seat.index]
        kept = row.contribution if row.ready_next else contributed
        Seat.objects.filter(pk=seat.pk).update(
            ready_next=True, auto_play=False, timeouts=0, contribution=kept
        )
        waiting = Seat.objects.filter(table=table, ready_next=False, bot_level="").exists()
        if waiting:
            notify_on_commit(locked.table, locked.hand.version)
            return None
        refusal = _entry_refusal(locked)
        if refusal:
            close(locked.table, refusal)
            return None
        _top_up_bots(locked)
        return start_hand(locked.table, locked.hand)


def _top_up_bots(locked: Locked) -> None:
    """A bot seat starts every hand of a room with stakes able to cover the room's minimum,
    not only the first (accounts.bot_wallets): its one wallet pays at all its tables, and
    a loss it cannot cover is capped at its balance, shorting the player who won."""
    tier = locked.table.tier
    if tier is None or not locked.table.beans_per_point:
        return
    for seat in locked.seats:
        if seat.is_bot:
            bot_wallets.top_up(seat.user, tier.entry_min)


def _entry_refusal(locked: Locked) -> str | None:
    if locked.state.session.stage:  # 关卡: the stage run places the next stake or refuses
        return hooks.first_answer(
            hooks.stage_hand_starting, table=locked.table, number=locked.hand.number + 1
        )
    tier = locked.table.tier
    if tier is None:
        return None
    for seat in locked.seats:
        if seat.is_bot:
            continue
        beans = User.objects.values_list("beans", flat=True).get(pk=seat.user_id)
        if beans < tier.entry_min:
            return notes.encode(
                gettext_noop("%(name)s has %(beans)s beans, below the %(min)s this room needs."),
                name=seat.user.display_name,
                beans=f"{beans:,}",
                min=f"{tier.entry_min:,}",
            )
    return None
