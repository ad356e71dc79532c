"""Preset emotes (表情): a seated player sends one of a fixed list to the table, the other
seat sees it for a moment unless they muted emotes, and the sender's page shows "You: …"
(the POST's answer). Only a preset id travels (never free text), at most one per COOLDOWN
seconds per player.

POST /tables/<id>/emote/ {"emote": "nice"} -> group_send {"type": "table_emote", "seat",
"emote"}; each connection's TableConsumer.table_emote renders ``fragment_for`` its viewer.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User

from . import broadcast, presenters, services
from .models import Table

COOLDOWN = 3  # seconds between two emotes of one player

PRESETS = {
    "hello": ("👋", gettext_lazy("Hello!")),
    "nice": ("👍", gettext_lazy("Nice move!")),
    "think": ("🤔", gettext_lazy("Let me think…")),
    "hurry": ("⏰", gettext_lazy("Hurry up, please!")),
    "oops": ("😅", gettext_lazy("Oops!")),
    "thanks": ("🙏", gettext_lazy("Thank you!")),
    "gg": ("🤝", gettext_lazy("Good game!")),
}


def choices() -> list[dict]:
    return [{"id": key, "icon": icon, "text": text} for key, (icon, text) in PRESETS.items()]


@login_required
@require_POST
def send(request, public_id):
    table = get_object_or_404(Table, public_id=public_id)
    seat = services.seat_of(table, request.user)
    if seat is None:
        return HttpResponse(_("This table is for other players."), status=403)
    if request.user.is_muted:  # an operator's mute silences the table's emotes too
        notice = presenters.notice_fragment(_("You are muted: emotes are off for now."))
        return HttpResponse(notice, status=403)
    emote = request.POST.get("emote", "")
    if emote not in PRESETS:
        return HttpResponse(_("No such emote."), status=400)
    if not cache.add(f"emote:{table.public_id}:{seat.index}", 1, timeout=COOLDOWN):
        # the page shows it as the table's notice (table.js swaps this refusal in)
        notice = presenters.notice_fragment(_("One emote every few seconds, please."))
        return HttpResponse(notice, status=429)
    broadcast.group_send(table.group, {"type": "table_emote", "seat": seat.index, "emote": emote})
    # the sender's own page shows what went (htmx swaps it out of band): without it, the
    # popover closed and nothing said the emote was sent
    return HttpResponse(_render(emote, own=True))


def fragment_for(event: dict, seat_index: int, user, language: str) -> str:
    """The emote as an out-of-band swap for one connection: nothing for the sender's own
    connections, nothing for a player who muted emotes, nothing for an unknown id."""
    emote = PRESETS.get(event.get("emote"))
    if emote is None or event.get("seat") == seat_index:
        return ""
    if User.objects.filter(pk=user.pk, emotes_muted=True).exists():
        return ""
    with translation.override(language):
        return _render(event["emote"])


def _render(key: str, own: bool = False) -> str:
    icon, text = PRESETS[key]
    emote = {"id": key, "icon": icon, "text": str(text), "own": own}
    return render_to_string("tables/table.html#emote", {"emote": emote, "oob": True})
