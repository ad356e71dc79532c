"""The lobby's part in the tables' write path (mahjong.tables.hooks), connected at start-up
by LobbyConfig.ready: the tables open, sweep and draw pages without importing the lobby."""

from django.dispatch import receiver

from mahjong.tables import hooks

from . import matchmaking, rooms
from .models import PrivateRoom


@receiver(hooks.players_seated, dispatch_uid="lobby.let_go_of_seated_players")
def let_go_of_seated_players(sender, player_ids, **kwargs) -> None:
    matchmaking.leave_queues(player_ids)
    rooms.close_open_rooms(player_ids)


@receiver(hooks.swept, dispatch_uid="lobby.call_off_unseated_matches")
def call_off_unseated_matches(sender, now, **kwargs) -> None:
    matchmaking.call_off_unseated(now)


@receiver(hooks.table_page_shown, dispatch_uid="lobby.host_keeps_the_spectators_switch")
def host_keeps_the_spectators_switch(sender, table, user, **kwargs) -> dict:
    """A private room's host keeps the spectators switch at the table: the room's own page
    sends a seated player on to the table once the friend has joined."""
    room = (
        table.match_id
        and PrivateRoom.objects.filter(
            match_id=table.match_id, host=user, state=PrivateRoom.State.MATCHED
        ).first()
    )
    return {"host_room": room}
