"""Signals other apps listen to, so accounts needs none of them (they depend on it)."""

from django.dispatch import Signal

# Sent after the ban commits, with ``user_id``: the player's open table sockets close
# (tables.sessions) and their quick-match ticket leaves the queue (lobby.matchmaking),
# so a ban takes effect mid-game, not only at their next HTTP request.
player_banned = Signal()
