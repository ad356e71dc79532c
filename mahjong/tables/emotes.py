"""Preset emotes (表情): a seated player sends one of a fixed list to the table, the other
seat sees it for a moment unless they muted emotes, and the sender's page shows "You: …"
(the POST's answer). Only a preset id travels (never free text), at most one per COOLDOWN
seconds per player.

POST /tables/<id>/emote/ {"emote": "nice"} -> group_send {"type": "table_emote", "seat",
"emote"}; each connection's TableConsumer.table_emote renders ``fragment_for`` its viewer.
The POST is views.emote.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts.models import User

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


def fragment_for(event: dict, seat_index: int, user, language: str) -> str:
    """The emote as an out-of-band swap for one connection: nothing for the sender's own
    connections, nothing for a player who muted emotes, nothing for an unknown id."""
    emote = PRESETS.get(event.get("emote"))
    if emote is None or event.get("seat") == seat_index:
        return ""
    if User.objects.filter(pk=user.pk, emotes_muted=True).exists():
        return ""
    with translation.override(language):
        return render(event["emote"])


def render(key: str, own: bool = False) -> str:
    icon, text = PRESETS[key]
    emote = {"id": key, "icon": icon, "text": str(text), "own": own}
    return render_to_string("tables/table.html#emote", {"emote": emote, "oob": True})
