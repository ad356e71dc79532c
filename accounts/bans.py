"""What a banned player is told: on the log-in form (forms.LoginForm), and on the first
page they open after a ban ended the session they were logged in with."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import SESSION_KEY, logout
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRefresh

from .models import User


def message(user: User) -> str:
    if user.ban_reason:
        return _("This account is banned: %(reason)s") % {"reason": user.ban_reason}
    return _("This account is banned.")


class BannedSessionMiddleware:
    """After AuthenticationMiddleware and MessageMiddleware. A ban makes ModelBackend refuse
    the session's user, so the player's next page was a visitor's with no word why; the
    session still names them, and that request is told the account is banned (in its own
    language) and logs the session out, so it is said once.

    An HTMX request (a poll, most often) is a fragment that shows no messages: it is
    answered with HX-Refresh instead, and the page reloaded in full says it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # request.user is already read (LanguagePreferenceMiddleware): no query unless a
        # session names a user the backend refused.
        if not request.user.is_authenticated and SESSION_KEY in request.session:
            banned = User.objects.filter(
                pk=request.session[SESSION_KEY], is_active=False, kind=User.Kind.PLAYER
            ).first()
            if banned is not None:
                logout(request)  # before the message: it flushes the session
                messages.error(request, message(banned))
                # HtmxMiddleware comes later: request.htmx is not set yet. A history
                # restore swaps in whatever body it gets and ignores HX-Refresh.
                if request.headers.get("HX-Request") == "true" and (
                    request.headers.get("HX-History-Restore-Request") != "true"
                ):
                    return HttpResponseClientRefresh()
        return self.get_response(request)
