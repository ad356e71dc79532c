"""Signals other apps listen to, so accounts needs none of them (they depend on it)."""

from django.dispatch import Signal

from .models import User

# Sent after the ban commits, with ``user_id``: the player's open table sockets close
# (tables.sessions) and their quick-match ticket leaves the queue (lobby.matchmaking),
# so a ban takes effect mid-game, not only at their next HTTP request.
player_banned = Signal()

# Sent after a password change, with ``user_id`` and ``kept_session`` (the key the session
# that changed it had): the player's other sessions' table sockets close, as they would on
# a log-out there, while the session that changed it stays logged in (Django's
# update_session_auth_hash) and keeps its sockets.
password_changed = Signal()

# Sent while a player's profile page is drawn, with ``user`` (the player shown): each
# receiver answers a dict of extra context for the page (mahjong.ratings: the rating and
# its chart), so the accounts need not know what is drawn there.
profile_shown = Signal()


def profile_context(user) -> dict:
    """What the apps connected to ``profile_shown`` add to ``user``'s profile page."""
    context: dict = {}
    for _receiver, answer in profile_shown.send(sender=User, user=user):
        context.update(answer or {})
    return context
