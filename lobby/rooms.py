"""Private rooms: a host opens one, a friend joins with the code or the share link.

Friendly games: unranked, played for points only (no beans change hands), so a room
cannot be used to move beans between accounts.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from catalogue.models import Ruleset
from mahjong.tables.models import Match

from .models import PrivateRoom

MAX_BASE = 100


class RoomError(Exception):
    """The room action is refused; the message is shown to the player."""


def create(host, ruleset: Ruleset, base_points: int) -> PrivateRoom:
    _refuse_if_in_play(host)  # a friend joining would seat the host at a second table
    if not ruleset.is_active or ruleset.is_solo:
        raise RoomError(_("This ruleset is not available."))
    if not 1 <= base_points <= MAX_BASE:
        raise RoomError(_("The base must be between 1 and %(max)s.") % {"max": MAX_BASE})
    for _attempt in range(5):  # a code collision is rare; draw another code
        try:
            with transaction.atomic():
                # One open room per host: opening a new one closes the old.
                PrivateRoom.objects.filter(host=host, state=PrivateRoom.State.OPEN).update(
                    state=PrivateRoom.State.CLOSED
                )
                return PrivateRoom.objects.create(
                    host=host, ruleset=ruleset, base_points=base_points
                )
        except IntegrityError:
            continue
    raise RoomError(_("Could not open a room, please try again."))


def join(room: PrivateRoom, guest) -> Match:
    from mahjong.tables.services import table_in_play

    if room.host_id == guest.pk:
        raise RoomError(_("This is your own room: share the link with a friend."))
    if room.match_id and room.match.seat_of(guest) is not None:
        return room.match  # joined already (a second tab, the back button): that match
    _refuse_if_in_play(guest)
    if table_in_play(room.host) is not None:  # back at a table of theirs since opening it
        raise RoomError(
            _("The host is playing at another table: try again when their hand is over.")
        )
    return _seat_opponent(room, guest)


def _refuse_if_in_play(player) -> None:
    from mahjong.tables.services import in_play_refusal

    refusal = in_play_refusal(player)
    if refusal:
        raise RoomError(refusal)


def close_open_rooms(player_ids) -> None:
    """A host who sits down elsewhere no longer waits in their room: a friend joining it
    would seat them at a second table (tables.services.open_table)."""
    PrivateRoom.objects.filter(host_id__in=player_ids, state=PrivateRoom.State.OPEN).update(
        state=PrivateRoom.State.CLOSED
    )


def fill_with_bot(room: PrivateRoom, host, level: str) -> Match:
    """The host plays the room's game against a bot of ``level`` instead of a friend."""
    from accounts.builtin import bot_for

    if room.host_id != host.pk:
        raise RoomError(_("Only the host can invite a bot."))
    _refuse_if_in_play(host)
    try:
        bot = bot_for(level)
    except ValueError:
        raise RoomError(_("Unknown bot level.")) from None
    return _seat_opponent(room, bot)


def _seat_opponent(room: PrivateRoom, opponent) -> Match:
    """Close the room on its unranked, bean-free match against ``opponent``, under the
    room's row lock so two guests cannot both take the seat."""
    with transaction.atomic():
        room = PrivateRoom.objects.select_for_update().get(pk=room.pk)
        if room.state != PrivateRoom.State.OPEN:
            raise RoomError(_("Room %(code)s is no longer open.") % {"code": room.code})
        match = Match.objects.create(
            kind=Match.Kind.PRIVATE,
            ruleset=room.ruleset,
            base_points=room.base_points,
            beans_per_point=0,
            ranked=False,
            player_one_id=room.host_id,
            player_two=opponent,
        )
        room.state = PrivateRoom.State.MATCHED
        room.match = match
        room.save(update_fields=["state", "match"])
    return match


def close(room: PrivateRoom, host) -> None:
    if room.host_id != host.pk:
        raise RoomError(_("Only the host can close the room."))
    updated = PrivateRoom.objects.filter(pk=room.pk, state=PrivateRoom.State.OPEN).update(
        state=PrivateRoom.State.CLOSED
    )
    if not updated:
        raise RoomError(_("Room %(code)s is no longer open.") % {"code": room.code})


def normalize_code(raw: str) -> str:
    return "".join(raw.split()).upper()
