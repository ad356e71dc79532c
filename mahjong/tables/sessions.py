"""Sockets end with the session: every table socket joins its user's group, and a log-out
tells that group which session ended; the sockets of that session close (the user's
other sessions, e.g. another device, keep theirs). Connected by importing this module
(tables.views does, so the URL conf that routes the log-out has loaded it)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from accounts.signals import password_changed, player_banned

from . import broadcast


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


@receiver(user_logged_out, dispatch_uid="tables.sessions.close_sockets")
def close_sockets(sender, request, user, **kwargs):
    if user is None:
        return
    session = getattr(request, "session", None)
    message = {"type": "session.ended", "session": getattr(session, "session_key", None)}
    broadcast.group_send(user_group(user.pk), message)


@receiver(player_banned, dispatch_uid="tables.sessions.close_banned_sockets")
def close_banned_sockets(sender, user_id, **kwargs):
    """Every session of a banned player ends: their sockets close (session None), and
    their tables close, a hand in play as their escape (services.suspended)."""
    from accounts.models import User

    from . import services

    broadcast.group_send(user_group(user_id), {"type": "session.ended", "session": None})
    services.suspended(User.objects.get(pk=user_id))


@receiver(password_changed, dispatch_uid="tables.sessions.close_other_sessions_sockets")
def close_other_sessions_sockets(sender, user_id, kept_session, **kwargs):
    """A new password logs out every other session: their sockets close now."""
    message = {"type": "session.ended", "session": None, "kept_session": kept_session}
    broadcast.group_send(user_group(user_id), message)
