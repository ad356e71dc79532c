"""Sockets end with the session: every table socket joins its user's group, and a log-out
tells that group which session ended; the sockets of that session close (the user's
other sessions, e.g. another device, keep theirs). Connected by importing this module
(tables.views does, so the URL conf that routes the log-out has loaded it)."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

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
